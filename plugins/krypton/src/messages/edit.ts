/** The words of the edit components; see ../translation.ts for the rules of every area. */
export const editMessages = {
  form: {
    createName: 'Create Secret',
    editName: 'Edit Secret {{name}}',
    metadataName: 'Edit access and description of {{name}}',
    facts:
      'Namespace {{namespace}}, type {{type}}, version {{version}}, loaded revision {{revision}}',
    loadFailed: 'Could not load the Secret: {{reason}}',
    reloadFailed:
      'Could not reload the Secret: {{reason}} Your draft and the revision it started from are kept.',
    unreachable: 'Krypton could not be reached.',
    saveUnconfirmed:
      'The save did not complete, and it may or may not have been applied. Reload latest to check before trying again.',
    tryAgain: 'Try again',
    newerAvailable:
      'Changed elsewhere. A newer version of this Secret exists. Reload latest to review it.',
    pendingDeletion:
      'Kubernetes is deleting this Secret (deletion is pending).',
    name: 'Name',
    nameHint: 'Lowercase letters, digits, "-" and "."',
    type: 'Type',
    description: 'Description',
    descriptionOwnersOnly: 'Only owners change the description.',
    metadataOnly:
      'Saving changes the description and the access rules only: the values stay exactly as they are.',
    values: 'Values',
    valuesWithheld:
      "This Secret's values are not shown or kept here, because you may not reveal them. Saving changes the metadata only and leaves every value as it is.",
    valuesWithheldReload:
      ' If you may reveal them now, Reload latest loads them.',
    immutableLocked: 'The Secret is immutable: its values cannot be changed.',
    binaryFile: 'Binary file',
    addBinaryFile: 'Add binary file',
    pasteHeading: 'Paste .env lines',
    immutableFixed:
      'Immutable: Kubernetes cannot make this Secret mutable again.',
    makeImmutable: 'Make immutable (this cannot be undone)',
    immutableOnCreate: 'Immutable: values can never change after creation',
    immutableOwnersOnly:
      'Only owners make a Secret immutable, because it can never be changed or restored afterwards.',
    save: 'Save',
    create: 'Create',
    saving: 'Saving…',
    reloadLatest: 'Reload latest',
    reloading: 'Reloading…',
    reloadNote:
      'Reload latest discards this draft and loads the live Secret. Drafts are kept in this page only, never in browser storage.',
    blocked: {
      fixFields: 'Fix the fields marked above.',
      applyPaste: 'Apply or clear the pasted lines first.',
      tooLarge: 'The Secret is too large: the estimate is over 1 MiB.',
      noChanges: 'No changes to save.',
    },
    notTextHint: {
      edit: 'Binary values are changed with Kubernetes tooling.',
      create: 'Add it with "Add binary file" instead.',
    },
  },
  file: {
    tooLarge:
      '"{{file}}" is {{size}}, over the {{limit}} that a whole Secret may hold.',
    unreadable: '"{{file}}" could not be read.',
    notText:
      '"{{file}}" is not UTF-8 text, so it cannot fill a text value. {{hint}}',
  },
  validation: {
    enterName: 'Enter a name.',
    reservedName:
      'Names starting with "{{prefix}}" are reserved for Krypton\'s history snapshots.',
    reservedProposalName:
      'Names starting with "{{prefix}}" are reserved for Krypton\'s change requests.',
    invalidName: 'Invalid Secret name.',
    enterType: 'Enter a type such as Opaque.',
    serviceAccountToken:
      'Service-account token Secrets cannot be created through Krypton.',
    descriptionTooLong: 'Use at most {{max}} characters.',
    descriptionNotText: 'The description holds characters that are not text.',
    enterKey: 'Enter a key for this value.',
    invalidKey: 'Invalid key.',
    duplicateKey: 'This key is used more than once.',
    binaryKey:
      'This is a binary key: it is kept as is and cannot be set as text.',
    valueNotText: 'The value holds characters that are not text.',
    binaryOnCreateOnly: 'Binary values are added only when creating a Secret.',
    notARef:
      '"{{ref}}" is not a user or group entity ref such as user:default/alice.',
    tooManyRefs: 'List at most {{max}} entity refs.',
  },
  rows: {
    key: 'Key',
    keyOf: 'Key {{index}}',
    value: 'Value',
    valueLabel: 'Value of {{name}}',
    rowName: 'row {{index}}',
    carriageReturns:
      'Contains carriage returns, which the browser would rewrite: shown read-only.',
    multiLineMask: 'multi-line value',
    multiLineHint: 'Multi-line value: show it to edit.',
    show: 'Show value of {{name}}',
    hide: 'Hide value of {{name}}',
    loadFile: 'Load value of {{name}} from a file',
    loadFileTitle: 'Load the value from a text file',
    remove: 'Remove {{name}}',
    add: 'Add key',
    binaryKeyOf: 'Key of binary file {{file}}',
    binaryValue:
      'Binary value from {{file}} ({{size}}), sent as base64 and never shown',
    removeBinary: 'Remove binary value {{name}}',
    binaryKeys: 'Binary keys',
    binaryKeysNote:
      'These values are not text. Saving keeps them as they are; change them with Kubernetes tooling.',
    binaryKept: '(binary, kept as is)',
    binaryEditIntro:
      'To edit a binary-containing Secret, update metadata in Krypton or use Kubernetes tooling to change bytes. For example:',
    binaryEditOutro:
      'A change made that way is not kept as a version by Krypton.',
  },
  bulk: {
    label: 'Paste KEY=value lines',
    hint: 'One KEY=value per line, as in a .env file. Blank lines and # comments are ignored; export and quotes are allowed.',
    modeLabel: 'How to apply the pasted lines',
    merge: 'Merge: keep keys not in the paste',
    replace: 'Replace all: remove text keys not in the paste',
    preview: 'Preview of the pasted lines',
    previewTitle: 'Preview (values are not shown)',
    fixLines: 'Fix these lines before applying',
    line: 'Line {{line}}: ',
    added: 'Added ({{total}})',
    changed: 'Changed ({{total}})',
    removed: 'Removed ({{total}})',
    unchanged_one: '{{count}} key unchanged.',
    unchanged_other: '{{count}} keys unchanged.',
    nothing: 'Nothing to change.',
    apply: 'Apply pasted lines',
    clear: 'Clear',
    expected: 'Expected KEY=value.',
    emptyKey: 'The key is empty.',
    invalidKey: '"{{key}}": {{reason}}',
    unclosedQuote: '"{{key}}": the value opens a quote that it does not close.',
    duplicate: '"{{key}}" is given more than once.',
    binaryKey:
      '"{{key}}" is a binary key: it is kept as is and cannot be set as text.',
  },
  size: {
    byte_one: '{{count}} byte',
    byte_other: '{{count}} bytes',
    kib: '{{size}} KiB',
    mib: '{{size}} MiB',
    summary: '{{size}} of {{limit}} (estimated)',
    label: 'Estimated size',
    formula:
      '{{bytes}} of {{limit}} bytes: (the UTF-8 bytes of all keys and text values, plus the decoded bytes of binary values) × 1.4.',
    tooLarge: 'The Secret is too large to save. Remove or shorten values.',
    overButKept:
      'The estimate is over the limit, but this edit keeps the data as it is, so it can still be saved.',
  },
  conflict: {
    staleTitle: 'This Secret changed since you loaded it.',
    otherTitle: 'The Secret could not be saved.',
    body: 'Reload latest replaces your draft with the live Secret. Note your changes first, then review the current state and re-apply them.',
    keepEditing: 'Keep editing',
    reloadLatest: 'Reload latest',
  },
  discard: {
    title: 'Discard your changes?',
    body: 'The draft has changes that are not saved. Drafts are kept in this page only, so discarding them cannot be undone.',
    discard: 'Discard changes',
    keepEditing: 'Keep editing',
  },
  access: {
    heading: 'Access',
    owners: 'Owners',
    editors: 'Editors',
    viewers: 'Viewers',
    typedHint:
      'Comma-separated user or group refs, such as user:default/alice, group:default/team-a',
    pickerHint:
      'Search the catalog for users and groups. Refs it does not know are marked unknown.',
    notARef: '{{ref}} (not a user or group ref)',
    unknown: '{{ref}} (unknown)',
    catalogFailed:
      'The catalog could not be searched, so type the refs instead.',
  },
} as const;
