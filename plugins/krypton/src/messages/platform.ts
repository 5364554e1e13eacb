/** The words of the platform components; see ../translation.ts for the rules of every area. */
export const platformMessages = {
  home: {
    title: 'Krypton',
    subtitle: 'Versioned Kubernetes Secrets',
    noAnswer: 'Krypton did not answer.',
    settingsFailed: "Could not read Krypton's settings",
    configInvalid: "Krypton's configuration is invalid",
    chooseNamespace: 'Choose a namespace to list its Secrets.',
  },
  picker: {
    formLabel: 'Choose a namespace',
    cluster: 'Cluster',
    namespace: 'Namespace',
    hint: 'A Kubernetes namespace',
    pickHint: 'Pick a namespace, or type its name',
    refused: 'You may not list namespaces here; type a name.',
    failed: 'Krypton could not list the namespaces here; type a name.',
    empty: 'Enter a namespace.',
    show: 'Show Secrets',
  },
  namespace: {
    create: 'Create Secret',
    adopt: 'Adopt a Secret',
    createDenied:
      'The Backstage permission policy does not grant krypton.secret.create.',
    created: 'Created {{name}}.',
    adopted: 'Adopted {{name}}.',
    open: 'Open {{name}}',
    listFailed: 'Could not list the Secrets',
    tableTitle: 'Secrets in {{namespace}}',
    empty: 'Krypton serves no Secrets in {{namespace}} to you.',
  },
  create: {
    title: 'Create a Secret in {{namespace}}',
    cancel: 'Cancel',
  },
  adopt: {
    title: 'Adopt a Secret in {{namespace}}',
    formLabel: 'Adopt a Secret',
    none: 'There are no unmanaged Secrets in {{namespace}} that you may adopt.',
    secret: 'Secret to adopt',
    choose: 'Choose a Secret',
    option: '{{name}} ({{type}})',
    facts_one:
      '{{count}} key. Revision {{revision}}: adopting is refused if the Secret changes meanwhile.',
    facts_other:
      '{{count}} keys. Revision {{revision}}: adopting is refused if the Secret changes meanwhile.',
    description: 'Description',
    pick: 'Pick a Secret to adopt.',
    checking: 'Checking your permissions…',
    fixFields: 'Fix the fields marked above.',
    reloadList: 'Reload list',
    cancel: 'Cancel',
    adopt: 'Adopt',
    adopting: 'Adopting…',
  },
} as const;
