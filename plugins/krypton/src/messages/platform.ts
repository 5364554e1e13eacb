/** The words of the platform components; see ../translation.ts for the rules of every area. */
export const platformMessages = {
  home: {
    title: 'Krypton',
    subtitle: 'Versioned Kubernetes Secrets',
    noAnswer: 'Krypton did not answer.',
    settingsFailed: "Could not read Krypton's settings",
    configInvalid: "Krypton's configuration is invalid",
    storageRewrite: 'Storage rewrite (operators)',
  },
  managed: {
    title: 'Namespaces with Krypton Secrets',
    columns: {
      namespace: 'Namespace',
      secrets: 'Krypton Secrets',
    },
    secrets_one: '{{count, number}} Secret',
    secrets_other: '{{count, number}} Secrets',
    uncounted:
      'Not counted: the namespace holds more than {{max, number}} Secrets',
    notLookedIn_one:
      'Krypton looked in the first {{max, number}} namespaces you may list, by name. {{count, number}} more namespace is not shown here: type its name above to open it.',
    notLookedIn_other:
      'Krypton looked in the first {{max, number}} namespaces you may list, by name. {{count, number}} more namespaces are not shown here: type a name above to open one.',
    emptyTitle: 'No Krypton-managed Secrets in the namespaces you may list',
    emptyTitlePartial:
      'No Krypton-managed Secrets in the first {{max, number}} namespaces you may list',
    emptyDescription:
      "To start, choose or type a namespace above and select “{{show}}”. There, “{{create}}” makes a new Secret, and “{{adopt}}” takes a Secret that already exists into Krypton's management.",
    refused:
      'You may not list the namespaces here, so Krypton cannot show which of them hold its Secrets. Type a namespace name above to list its Secrets.',
    failed: 'Could not list the namespaces with Krypton Secrets',
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
    optionOwned: '{{name}} ({{type}}), owned by {{tool}}',
    optionRefused:
      '{{name}} ({{type}}), owned by {{tool}}: Krypton does not adopt it',
    ownedCount_one:
      '{{count}} of these Secrets is owned by a tool whose Secrets Krypton does not change, so it cannot be adopted; pick it to see why and what to do instead.',
    ownedCount_other:
      '{{count}} of these Secrets are owned by tools whose Secrets Krypton does not change, so they cannot be adopted; pick one to see why and what to do instead.',
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
  deleted: {
    title: 'Deleted Secrets in {{namespace}}',
    intro:
      'Secrets that are gone while Krypton keeps their history. Recreating one starts a new Secret of that name from a kept version.',
    reload: 'Reload deleted Secrets',
    loading: 'Loading deleted Secrets…',
    empty: 'No deleted Secrets with kept history in {{namespace}}.',
    deniedTitle: 'You may not list the deleted Secrets in {{namespace}}',
    failedTitle: 'Could not list the deleted Secrets',
    tableLabel: 'Deleted Secrets',
    name: 'Name',
    description: 'Description',
    lastVersion: 'Last kept version',
    deleted: 'Deleted',
    actions: 'Actions',
    versionName: 'Version {{version}}',
    noVersions: 'None',
    unknownDeleter: 'Unknown: no final state was kept at the delete.',
    nameTaken: 'A Secret named {{name}} exists now, so it cannot be recreated.',
    createDenied:
      'The Backstage permission policy does not grant krypton.secret.create.',
    recreateDenied:
      'The Backstage permission policy does not grant krypton.secret.recreate.',
    recreate: 'Recreate…',
    recreateName: 'Recreate {{name}}…',
    recreated: 'Recreated {{name}}.',
    dialog: {
      title: 'Recreate {{name}}',
      body: "This creates a new Secret named {{name}} with the chosen version's values, type, description and access rules. The new Secret starts a new history at version 1; the kept versions stay where they are.",
      versions: 'Version to recreate from',
      finalState: 'Final state at the delete',
      keys: 'Keys: {{keys}}',
      noKeys: 'No keys',
      keysUnknown: 'Key names not recorded',
      failedTitle: 'Could not recreate {{name}}',
      cancel: 'Cancel',
      recreate: 'Recreate',
      recreating: 'Recreating…',
    },
  },
} as const;
