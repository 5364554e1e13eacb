/** The words of the preview components; see ../translation.ts for the rules of every area. */
export const previewMessages = {
  markdown: {
    tooManyElements:
      'This value has too many Markdown elements to preview; showing the raw text.',
    tooDeep:
      'This value nests quotes or lists too deeply to preview as Markdown; showing the raw text.',
    rawLabel: 'Raw Markdown text',
    image: 'Image: {{alt}} ({{src}}) — not loaded',
    imageNoDescription: 'no description',
    imageNoAddress: 'no address',
  },
} as const;
