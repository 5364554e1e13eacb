/** The words of the operator components; see ../translation.ts for the rules of every area. */
export const operatorMessages = {
  title: 'Storage rewrite (operators)',
  intro:
    "After an encryption-key rotation, rewrite everything Krypton labels (managed Secrets, history snapshots, and quarantined and legacy copies) so that the API server stores it with the current key. The write changes nothing else. The verdict says whether the old key can be retired as far as Krypton's objects go.",
  namespaceLabel: 'Namespace (empty: every namespace you may list)',
  run: 'Rewrite storage',
  running: 'Rewriting…',
  dryRun: 'Dry run',
  counting: 'Counting…',
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
    ready: 'ready',
    blocked: 'blocked',
    inventoryFailed: 'inventory failed',
  },
} as const;
