/** The words of the preview components; see ../translation.ts for the rules of every area. */
export const previewMessages = {} as const;
