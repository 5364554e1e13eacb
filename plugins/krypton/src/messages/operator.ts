/** The words of the operator components; see ../translation.ts for the rules of every area. */
export const operatorMessages = {
  page: {
    title: 'Storage rewrite',
    subtitle:
      'Re-encrypt what Krypton stores after an encryption-key rotation (operators)',
    parent: 'Secrets',
  },
  denied: {
    title: 'Only for operators',
    message:
      'Only operators who hold the krypton.storage.rewrite permission can rewrite storage. The Backstage permission policy does not grant it to you; ask the people who run Backstage if you need it.',
  },
  intro:
    "After an encryption-key rotation, rewrite everything Krypton labels (managed Secrets, history snapshots, and quarantined and legacy copies) so that the API server stores it with the current key. The write changes nothing else. The verdict says whether the old key can be retired as far as Krypton's objects go.",
  namespaceLabel: 'Namespace',
  namespaceHelp: 'Empty: every namespace you may list',
  run: 'Rewrite storage',
  dryRun: 'Dry run',
  starting: 'Starting…',
  scope: {
    namespace: 'namespace {{namespace}}',
    all: 'all namespaces',
  },
  shown: {
    heading: 'Rewrite of {{scope}}, requested by {{by}} {{time}}',
    dryHeading: 'Dry run of {{scope}}, requested by {{by}} {{time}}',
  },
  progress: {
    label: 'Progress of the storage rewrite',
    passFirst: 'First pass.',
    passRecheck: 'Second pass over the namespaces where the first one wrote.',
    namespace: 'Now in namespace {{namespace}}.',
    namespaces: 'Namespaces done: {{done}} of {{total}}.',
    namespacesUncounted: 'Namespaces done: {{done}}.',
    counts:
      'Seen {{seen}}, rewritten {{rewritten}}, already current {{alreadyCurrent}}, failed {{failed}}, gone {{gone}}.',
    cancel: 'Cancel run',
    cancelling: 'Cancelling…',
    cancellingNote:
      'Cancel requested: the run stops before its next page of objects.',
    cancellingNoteBy:
      'Cancel requested by {{by}}: the run stops before its next page of objects.',
    pollFailed:
      'Could not read the progress ({{message}}). Trying again in {{seconds}} s; the run itself goes on.',
    pollStopped: 'Could not read the progress ({{message}}).',
    cancelFailed: 'Could not cancel the run ({{message}}).',
  },
  cancelDialog: {
    title: 'Cancel this storage rewrite?',
    body: 'The run stops before its next page of objects. Objects it has already rewritten stay rewritten; the rest keep the key they are stored with until a new run. A cancelled run never says the old key can be retired.',
    keep: 'Keep running',
    confirm: 'Cancel the run',
  },
  ended: {
    failed: 'The run failed: {{message}}',
    failedNoMessage: 'The run failed before it produced a result.',
    cancelled:
      'Cancelled on request before it covered its scope. Objects rewritten until then stay rewritten; start a new run to cover the rest.',
    cancelledBy:
      'Cancelled by {{by}} before it covered its scope. Objects rewritten until then stay rewritten; start a new run to cover the rest.',
    interrupted:
      'Interrupted: the backend replica that ran it stopped before the run ended. Start it again: objects already rewritten count as current at once, so the new run catches up quickly.',
  },
  result: {
    counts:
      'Seen {{seen}}, rewritten {{rewritten}}, already current {{alreadyCurrent}}, conflicts resolved {{conflictsResolved}}, gone {{gone}}, failed {{failed}}.',
    dryCounts:
      'Dry run: {{seen}} objects in scope ({{quarantined}} quarantined, {{legacy}} legacy). Nothing was written.',
    recheck:
      'Second pass over the namespaces where the first one wrote: rewritten {{rewritten}}, already current {{alreadyCurrent}}, failed {{failed}}.',
    namespaces_one: 'Covered {{count}} namespace.',
    namespaces_other: 'Covered {{count}} namespaces.',
    listRestarts_one:
      'A list was started again once after its continuation expired.',
    listRestarts_other:
      'Lists were started again {{count}} times after their continuation expired.',
    stopped: 'The run reached its time limit before it covered its scope.',
    truncated: 'Some lists below are cut short; the counts above are complete.',
  },
  verdict: {
    ready: 'Old key: ready to retire (for the Secrets Krypton labels)',
    blocked: 'Old key: not ready to retire',
    reason: '{{number}} × {{message}}',
    readyShort: 'ready',
    blockedShort: 'blocked',
  },
  groups: {
    flagged: 'Quarantined and legacy objects (re-encoded, still to review)',
    failed: 'Failed',
    gone: 'Gone meanwhile',
    namespaceFailures: 'Namespaces not read to the end',
    allNamespaces: '(the namespace list)',
    columns: {
      namespace: 'Namespace',
      name: 'Name',
      kind: 'Kind',
      reason: 'Reason',
      outcome: 'Outcome',
      code: 'Code',
      message: 'Message',
    },
  },
  migrations: {
    list: 'Cluster StorageVersionMigrations of Secrets: {{list}}.',
    none: 'none',
    item: '{{name}} ({{phase}})',
    notServed: 'This cluster does not serve storagemigration.k8s.io.',
    succeededSince:
      'A migration of secrets created after the last run has succeeded.',
    notSucceededSince:
      'No migration of secrets created after the last run has succeeded yet. Create one for every Secret Krypton does not label:',
  },
  runs: {
    title: 'Runs',
    columns: {
      scope: 'Scope',
      by: 'Requested by',
      requested: 'Requested',
      finished: 'Finished',
      dryRun: 'Dry run',
      state: 'State',
      verdict: 'Old key',
      open: 'Result',
    },
    dryRun: 'dry run',
    state: {
      running: 'running',
      cancelling: 'cancelling',
      succeeded: 'succeeded',
      failed: 'failed',
      cancelled: 'cancelled',
      interrupted: 'interrupted',
    },
    open: 'Show',
    openLabel: 'Show the run of {{scope}} requested at {{time}}',
    shown: 'shown above',
    none: 'No runs yet.',
  },
  perNamespace: {
    title: 'Last run per namespace',
    columns: {
      namespace: 'Namespace',
      lastRun: 'Last run',
      by: 'By',
      verdict: 'Old key',
      seen: 'Seen',
      rewritten: 'Rewritten',
      alreadyCurrent: 'Already current',
      failed: 'Failed',
      flagged: 'Quarantined / legacy',
    },
    inventoryFailed: 'inventory failed',
    none: 'No rewrite has covered a namespace yet.',
  },
} as const;
