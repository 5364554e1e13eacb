/** The words of the delete components; see ../translation.ts for the rules of every area. */
export const deleteMessages = {
  button: {
    delete: 'Delete…',
    alreadyDeleting:
      'Kubernetes is already deleting this Secret (pending since {{since}}).',
    denied: 'You cannot delete this Secret: {{reason}}',
    lacksRight: 'you lack the delete right.',
  },
  dialog: {
    formLabel: 'Delete Secret {{name}}',
    title: 'Delete Secret {{name}}?',
    body: 'This deletes {{where}} on cluster {{cluster}} from Kubernetes. Krypton deletes it only while it is still at revision {{revision}}, the state you loaded; if anyone has changed it since, the delete is refused.',
    factsLabel: 'Secret to delete',
    facts: {
      secret: 'Secret',
      cluster: 'Cluster',
      expectedRevision: 'Expected revision',
      version: 'Version',
    },
    keepHistory: 'Keep history',
    keepHistoryHelp:
      "The Secret's history snapshots stay in the namespace as ordinary Secrets that still hold its earlier values, for an operator's forensics or reviewed recovery with kubectl. Krypton no longer lists or restores them, not even through a new Secret of the same name, which starts a separate history.",
    cleanHistoryHelp:
      'Krypton first deletes the history snapshots it finds for this Secret, then the Secret. They cannot be restored afterwards, and cleanup that happened is not undone if the delete then fails. Legacy copies from older Krypton versions are left for an operator.',
    confirmLabel: 'Type {{name}} to confirm',
    superseded:
      'A newer revision ({{revision}}) has been loaded since you opened this confirmation. Reload latest to review it before deleting.',
    reloadFailedTitle: 'Could not reload the Secret',
    reloadFailed: '{{message}} Reload latest never sends the delete.',
    unreachable: 'Krypton could not be reached.',
    cancel: 'Cancel',
    reloadLatest: 'Reload latest',
    reloading: 'Reloading…',
    delete: 'Delete',
    deleting: 'Deleting…',
  },
  blocked: {
    denied: 'You may not delete this Secret.',
    alreadyDeleting: 'Kubernetes is already deleting this Secret.',
    failed: 'Reload latest before trying again.',
    superseded: 'A newer revision was loaded: Reload latest to review it.',
    unconfirmed: 'Type {{name}} to enable Delete.',
  },
  failure: {
    unconfirmed:
      'The delete did not complete, and it may or may not have been applied. Reload latest to check before trying again.',
    titles: {
      refused: 'The Secret was not deleted',
      uncertain: 'The outcome of the delete is unknown',
      stale: 'This Secret changed since you loaded it',
      conflict: 'The delete was refused',
    },
    conflictAdvice:
      'Reload latest to review the current Secret, then decide again.',
    refusedAdvice:
      'Reload latest to review the current Secret before trying again.',
    cleanupKept:
      'History snapshots removed before the failure are not restored.',
  },
  notices: {
    dismiss: 'Dismiss',
    deletedTitle: 'Deleted {{namespace}}/{{name}}',
    deleted: 'Kubernetes confirmed that {{where}} no longer exists.',
    where: '{{namespace}}/{{name}}',
    whereOnCluster: '{{namespace}}/{{name}} on cluster {{cluster}}',
    historyCleaned:
      'Its history was cleaned: the snapshots Krypton found for it were deleted before the Secret, so its earlier versions cannot be restored. A write already in progress may still have left a snapshot behind, and legacy copies from older Krypton versions are not touched; an operator removes such leftovers with kubectl.',
    historyKept:
      "Its history was kept: the snapshots stay in the namespace as ordinary Secrets that still hold its earlier values, for an operator's forensics or reviewed recovery with kubectl. Krypton no longer lists or restores them, not even through a new Secret of the same name, which starts a separate history; they remain until an operator deletes them.",
    pendingTitle: 'Deletion of {{namespace}}/{{name}} is pending',
    pending:
      'Kubernetes accepted the delete of {{where}} but has not removed it yet: it is finalizing the Secret, commonly because finalizers must be cleared first. It is not deleted until then, stays listed with its pending deletion, and cannot be restored meanwhile. Reload to see its current state.',
    pendingKept: 'Its history was kept.',
    pendingCleaned:
      'Its history snapshots were cleaned before the delete request.',
  },
} as const;
