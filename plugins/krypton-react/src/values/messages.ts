/**
 * The words of the value views, in English. The Backstage plugin puts them in its translation ref
 * (areas `values` and `preview`), so that apps can translate them; a host without translations
 * renders them with englishValuesT.
 *
 * @public
 */
export const valuesMessages = {
  table: {
    title: 'Values',
    empty: 'There are no values.',
    key: 'Key',
    kind: 'Kind',
    size: 'Size',
    value: 'Value',
    actions: 'Actions',
  },
  kinds: {
    text: 'text',
    binary: 'binary',
    missing: 'not loaded',
  },
  size: {
    unknown: 'Unknown size',
    bytes_one: '{{count, number}} byte',
    bytes_other: '{{count, number}} bytes',
  },
  row: {
    notAvailable: 'Value not available',
    hidden: 'Hidden',
    base64: 'base64',
    shownAsBase64: 'shown as base64',
    reveal: 'Reveal',
    hide: 'Hide',
    expand: 'Expand value',
    raw: 'Raw',
    copy: 'Copy',
    copied: 'Copied',
    copyFailed: 'Could not copy',
    loading: 'Loading…',
    loadFailed: 'Could not load the value',
    rawLabel: 'Raw value of {{key}}',
  },
  preview: {
    previewAs: 'Preview as:',
    auto: 'Auto',
    detected: 'Detected: {{format}}',
    empty: 'This value is empty.',
    failed: 'This value could not be previewed; showing the raw text.',
    rawText: 'Raw text',
    textPreview: 'Text preview',
    tooLarge:
      'This value is larger than {{limit, number}} characters, so it is shown as raw text.',
  },
  formats: {
    markdown: 'Markdown',
    json: 'JSON',
    yaml: 'YAML',
    xml: 'XML',
    pem: 'PEM',
    text: 'Text',
  },
  structured: {
    invalid: 'Not valid {{format}}; showing the raw text.',
    rawLabel: 'Raw {{format}} text',
    inexactNumbers:
      'Some numbers cannot be shown exactly in this preview and appear rounded; Raw shows the exact text.',
    previewLabel: '{{format}} preview',
  },
  pem: {
    textLabel: 'PEM text',
    noBlocks: 'No PEM blocks were found.',
    blocksLabel: 'PEM blocks',
    block: 'Block {{number}}: {{type}}',
    incomplete: 'This block is incomplete.',
    unparsable: 'This block could not be parsed.',
    expired: 'Expired',
    expiring: 'Expires soon',
    notYetValid: 'Not yet valid',
    valid: 'Valid',
    subject: 'Subject',
    issuer: 'Issuer',
    empty: '(empty)',
    subjectAltNames: 'Subject alternative names',
    unreadable: 'Could not be read',
    none: 'None',
    san: '{{type}}: {{value}}',
    sanTypes: {
      dns: 'DNS',
      ip: 'IP',
      email: 'Email',
      url: 'URI',
      dn: 'DN',
      guid: 'GUID',
      upn: 'UPN',
      id: 'Registered ID',
    },
    notBefore: 'Not before',
    notAfter: 'Not after',
    unknownDate: 'unknown',
  },
} as const;

/**
 * The words of the Markdown preview.
 *
 * @public
 */
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
