/** The words of the detail components; see ../translation.ts for the rules of every area. */
export const detailMessages = {
  page: {
    defaultCluster: 'Default cluster',
    subtitle: '{{cluster}} / {{namespace}}',
    notAnAddress: 'Not a Secret address',
    snapshotAddress: 'History snapshots are reached through their live Secret.',
  },
  tabs: {
    label: 'Secret sections',
    values: 'Values',
    access: 'Access',
    history: 'History',
    consumers: 'Consumers',
    changes: 'Changes',
  },
  loadFailed: 'Could not load the Secret',
  identityFailed: 'Could not read your identity',
  settingsFailed: "Krypton's settings could not be read",
  restartConsumers: 'Restart consumers…',
  restored:
    'Restored: the Secret is now at version {{version}}, and the state it replaced was archived as a version. Apps that read it at start-up keep the old values until they restart.',
  elsewhere: {
    deleted: 'Changed elsewhere: this Secret was deleted outside this page.',
    deletedEditing: 'Your edit can no longer be saved.',
    changed: 'Changed elsewhere: this Secret was changed outside this page.',
    version: 'It is now version {{version}}.',
    changedEditing:
      'Your edit still starts from the version you opened: reload latest in the form to review the change before you save.',
  },
  facts: {
    /** The card's title where the page's header names the Secret already. */
    title: 'Details',
    keyFacts: 'Key facts',
    owners: 'Owners',
    /** Another tool that owns the Secret (External Secrets, Helm...), by its name. */
    owningTool: 'Owning tool',
    cluster: 'Cluster',
    namespace: 'Namespace',
    type: 'Type',
    version: 'Version',
    managed: 'Managed',
    immutable: 'Immutable',
    pendingDeletion: 'Pending deletion',
    since: 'Since {{time}}',
    created: 'Created',
    lastChange: 'Last change',
    lastChangeBy: '{{time}} by {{manager}}',
    yes: 'Yes',
    no: 'No',
    ownerReferences: 'Owner references',
    controller: '{{owner}} (controller)',
    krypton: 'Krypton',
    labels: 'Labels',
    annotations: 'Annotations',
    withheldAnnotations_one:
      '{{count}} annotation is not shown, because it may hold or reveal values.',
    withheldAnnotations_other:
      '{{count}} annotations are not shown, because they may hold or reveal values.',
    deleting:
      'Kubernetes is deleting this Secret (deletion is pending), so it cannot be restored.',
    unmanaged:
      'Krypton does not manage this Secret yet: adopt it from the Krypton page to keep its history.',
  },
  values: {
    keysTitle: 'Keys',
    valuesTitle: 'Values',
    metadataOnly:
      "You may see this Secret's metadata, but not its values. {{reason}}",
    editTitle: 'Edit Secret',
    refreshFailed:
      'The values could not be refreshed ({{message}}). Your draft is kept; reload latest in the form to try again.',
    loadFailed: 'Could not load the values',
    withheld:
      'The change was saved: the Secret is now at version {{version}}, revision {{revision}}. Its values are not shown, because you may not reveal them now. Reload values to try loading them.',
    reload: 'Reload values',
    edit: 'Edit',
    editLoading: 'Loading the values…',
    cannotEdit: 'You cannot edit this Secret: {{reason}}',
    noKeys: 'The Secret has no keys.',
    keysLabel: 'Keys',
    key: 'Key',
    kind: 'Kind',
    binary: 'binary',
    text: 'text',
  },
  access: {
    editTitle: 'Edit access and description',
    rulesTitle: 'Access rules',
    description: 'Description',
    noDescription: 'No description.',
    owners: 'Owners',
    editors: 'Editors',
    viewers: 'Viewers',
    none: 'None',
    edit: 'Edit access and description',
    cannotEdit: 'You cannot change the rules or the description: {{reason}}',
    mayDoTitle: 'What you may do',
    action: 'Action',
    allowed: 'Allowed',
    whyNot: 'Why not',
    yes: 'Yes',
    no: 'No',
    rbacNote:
      'Kubernetes RBAC is not visible here: when you act, Krypton shows its refusal if it denies you.',
    roles: {
      admin:
        "Krypton admin: you pass this Secret's access rules (the permission policy and Kubernetes RBAC still apply).",
      owner: 'Owner: you may do everything with this Secret.',
      editor: 'Editor: you may read, reveal, update, restore and restart.',
      viewer: 'Viewer: you may read and reveal.',
      none: "You are not named in this Secret's access rules.",
      noRules:
        'This Secret has no access rules: the permission policy and Kubernetes RBAC decide alone.',
    },
  },
  cancelEditing: 'Cancel editing',
} as const;
