/**
 * Every word the plugin draws inside Headlamp, in one place. The plugin has no Backstage
 * translation ref to key them into; the API's fixed messages (`messages` of
 * @krypton/core) are shown verbatim, as in the Backstage plugin. The words of the value views,
 * those that describe a consuming workload and those of owned Secrets are
 * @krypton/plugin-krypton-react's, shared with the Backstage plugin and rendered in English
 * (englishValuesT, englishConsumersT, englishOwnerT).
 */

/** Why the engines refuse to start in an insecure context; also the error they throw. */
export const WEB_CRYPTO_MISSING =
  "Krypton needs the browser's Web Crypto, which only a secure context has: open Headlamp over HTTPS or on localhost.";

export const text = {
  section: {
    title: 'Krypton',
    historyTitle: 'History',
    consumersTitle: 'Consumers',
    webCryptoTitle: 'Krypton is unavailable here',
    limitsTitle: 'What Krypton can and cannot see here',
    rbacOnly:
      "Your Kubernetes RBAC is the only gate: Krypton's access-rule annotations on this Secret are advisory inside Headlamp.",
    outsideEdits:
      "Edits made outside Krypton, with Headlamp's own editor or kubectl, are not captured in history. Headlamp's Edit action is hidden on Krypton-managed Secrets for that reason.",
    snapshot:
      'This Secret is a version that Krypton saved of another Secret: its history is shown on that Secret.',
    proposal:
      'This Secret holds the values that a change request proposes for another Secret.',
    notManaged: (label: string) =>
      `This Secret is not managed by Krypton (it has no ${label} label), so Krypton keeps no history of it and does not restart its consumers.`,
  },
  values: {
    title: 'Values',
    intro:
      "Masked until you reveal them; binary values are shown as base64. On Krypton-managed Secrets this section replaces Headlamp's Data section, whose Save would change the values without keeping a version.",
  },
  history: {
    loading: 'Loading the history…',
    empty:
      'No versions yet. Krypton saves a version each time it changes or restores the values.',
    deniedTitle: 'You may not read this history',
    denied:
      'Your Kubernetes RBAC refused reading this Secret or the Secrets that hold its history.',
    unavailableTitle: 'The history is unavailable',
    unavailable: (message: string) =>
      `The history could not be read: ${message} An unavailable history is not an empty one.`,
    unreachable: 'no answer came from the API server.',
    retry: 'Retry',
    reload: 'Reload',
    intro:
      'Versions are saved states of this Secret, newest first. Open one to see what restoring it would change.',
    retention: (limit: number, removes: readonly number[]) =>
      removes.length === 0
        ? `Krypton keeps the last ${limit} versions.`
        : `Krypton keeps the last ${limit} versions: the next change of the values removes ${versionList(
            removes,
          )}.`,
    tableLabel: 'Versions',
    columns: {
      version: 'Version',
      snapshotBy: 'Saved by',
      snapshotAt: 'Saved at',
      sourceType: 'Type',
      actions: 'Actions',
    },
    versionName: (version: number) => `v${version}`,
    fromLiveRevision: 'from the live revision',
    showChanges: 'Changes',
    hideChanges: 'Hide changes',
    showChangesOf: (version: number) =>
      `Show what restoring v${version} changes`,
    hideChangesOf: (version: number) => `Hide the changes of v${version}`,
    restore: 'Restore',
    restoreVersion: (version: number) => `Restore v${version}`,
    restoreBlocked: (reason: string) => `Restore is not offered: ${reason}`,
  },
  approval: {
    title: 'Changes need approval',
    block: (approvals: number, annotation: string) =>
      `its ${annotation} annotation asks ${approvals} ${
        approvals === 1 ? 'approval' : 'approvals'
      } for every change, which Krypton's portal requests and applies once approved; Headlamp writes at once, with your own identity.`,
    notice: (block: string) =>
      `Krypton in Headlamp does not restore this Secret: ${block}`,
    rulesUnseen:
      "Krypton's backend may also require approval by its own rules, which Headlamp cannot read.",
  },
  owner: {
    /** The rule of an owner that asks for a reason, which this plugin has no field for. */
    needsReason: (tool: string) =>
      `${tool} owns this Secret, and changes of it need a reason, which Krypton in Headlamp does not ask for: change it at its source, or through the Krypton portal.`,
    editLabel: 'Edit',
    editRefused: (reason: string) =>
      `Headlamp's Edit is off on this Secret: ${reason} An edit here would not last.`,
  },
  blocks: {
    pendingDeletion: 'the Secret is being deleted.',
    immutable: 'the Secret is immutable.',
    liveUnreadable: 'the live Secret could not be read.',
    denied: 'you may not restore it.',
  },
  diff: {
    title: (version: number) => `What restoring v${version} changes`,
    loading: (version: number) => `Loading the values of v${version}…`,
    failed: (version: number, message: string) =>
      `The values of v${version} could not be read: ${message}`,
    live: 'Live',
    version: (version: number) => `v${version}`,
    keysOnly:
      "Only key names are compared: Krypton never shows a service-account token's values.",
    counts: (added: number, removed: number, changed: number, same: number) =>
      `${added} added, ${removed} removed, ${changed} changed, ${same} unchanged.`,
    countsKeys: (added: number, removed: number, present: number) =>
      `${added} added, ${removed} removed, ${present} on both sides.`,
    noKeys: 'Neither side has keys.',
    columns: { key: 'Key', change: 'Change' },
    changes: {
      added: 'added',
      removed: 'removed',
      changed: 'changed',
      unchanged: 'unchanged',
      present: 'on both sides',
    },
    none: '—',
    mask: '••••••••',
    hidden: 'hidden',
    binary: 'binary, not shown',
    same: 'same value',
    unknown: 'value not available',
    reveal: 'Reveal',
    hide: 'Hide',
    revealValue: (key: string, side: string) => `Reveal ${key} (${side})`,
    hideValue: (key: string, side: string) => `Hide ${key} (${side})`,
  },
  restore: {
    title: (version: number) => `Restore v${version}?`,
    body: (version: number, resourceVersion: string) =>
      `Krypton first saves the live values as a version, then replaces them with those of v${version}. It restores only if the Secret is still at revision ${resourceVersion}, the one on screen.`,
    cancel: 'Cancel',
    confirm: 'Restore',
    restoring: 'Restoring…',
    restored: (version: number, saved: number | null) =>
      saved === null
        ? `Restored v${version}.`
        : `Restored v${version}. The values it replaced are saved as v${saved}.`,
    unchanged: (version: number) =>
      `v${version} holds the live values already: nothing was written.`,
    conflictTitle: 'The Secret changed',
    conflict: (message: string) =>
      `${message} Headlamp shows the new revision as soon as it sees it; review the changes again before restoring.`,
    deniedTitle: 'Restore refused',
    denied:
      'Your Kubernetes RBAC refused the restore. Nothing was changed by this request.',
    failedTitle: 'Restore failed',
    failed: (message: string) => `The restore did not complete: ${message}`,
  },
  consumers: {
    intro: (namespace: string) =>
      `The Deployments, StatefulSets and DaemonSets in ${namespace} that reference this Secret. A restart annotates each one's pod template, which makes Kubernetes roll it out.`,
    loading: 'Loading the workloads that use this Secret…',
    empty: (namespace: string) =>
      `No workload references this Secret: no Deployment, StatefulSet or DaemonSet in ${namespace} uses it.`,
    noneOfListed:
      'No workload of the kinds that could be listed references this Secret.',
    deniedTitle: 'You may not list the workloads',
    denied: (kinds: string) =>
      `Your Kubernetes RBAC refused listing ${kinds} in this namespace, so it is not known which of them use this Secret.`,
    deniedSecret:
      'Your Kubernetes RBAC refused reading this Secret, so its consumers are not listed.',
    unavailableTitle: 'The workloads are unavailable',
    unavailable: (message: string) =>
      `The workloads could not be listed: ${message} An unavailable list is not an empty one.`,
    partialDiscovery:
      'Some kinds of workload could not be listed: a restart will not touch them, and whether they use this Secret is not known.',
    failedKinds: 'Kinds not listed',
    retry: 'Retry',
    tableLabel: 'Workloads that use this Secret',
    columns: {
      kind: 'Kind',
      name: 'Name',
      usage: 'Uses the Secret through',
      notes: 'Restart notes',
      outcome: 'Outcome',
      code: 'Code',
      httpStatus: 'HTTP status',
      message: 'Guidance',
    },
    /** A workload's flag (krypton-react's workloadFlags), as the Backstage plugin writes it. */
    flag: (label: string, explanation: string) => `${label}: ${explanation}`,
    none: '—',
    restart: 'Restart consumers',
    restarting: 'Restarting…',
    cannotRestart: 'No workload to restart.',
    dialog: {
      title: (name: string) => `Restart the consumers of ${name}?`,
      body: (count: number) =>
        `Krypton requests a rollout of ${
          count === 1 ? 'this workload' : `these ${count} workloads`
        } by annotating the pod template. It finds the workloads again when you confirm, so the set may differ if they changed meanwhile. Your Kubernetes RBAC decides which of them you may patch.`,
      listTitle: 'Workloads found now:',
      paused: (workload: string) => `${workload} is paused`,
      onDelete: (workload: string) => `${workload} uses OnDelete`,
      stuck: (details: string) =>
        `These will not roll out on their own: ${details}.`,
      partialDiscovery: (kinds: string) =>
        `${kinds} could not be listed: no workload of those kinds will be restarted.`,
      cancel: 'Cancel',
      confirm: 'Restart',
    },
    result: {
      label: 'Restart result',
      headlines: {
        requested: 'Rollout requested',
        no_targets: 'No workloads to restart',
        partial: 'Rollout partly requested',
        failed: 'No rollout requested',
      },
      outcomes: {
        requested: 'restart requested',
        skipped: 'skipped, not patched',
        forbidden: 'forbidden by your RBAC',
        failed: 'failed',
      },
      kindsSkipped:
        'No workload of these kinds was restarted, because they could not be listed:',
      kindsLabel: 'Kinds skipped',
      refusedTitle: 'Restart refused',
      refused:
        'Your Kubernetes RBAC refused the restart before any workload was patched.',
      failedTitle: 'Restart failed',
      failed: (message: string) =>
        `The restart did not complete: ${message} Check the workloads before retrying.`,
    },
    /**
     * Which version of the Secret the consumers' pods hold (the core's ConsumerVersions). The
     * words of a claim, a status, a problem, the rollout's counts, the summary line and how long
     * pods have been stale are @krypton/plugin-krypton-react's (englishConsumersT); these place them.
     */
    pods: {
      title: 'Pods and the version they hold',
      intro:
        'Which version of this Secret each pod of the consuming workloads holds, as its start and the history tell. Your Kubernetes RBAC must let you list pods and ReplicaSets.',
      loading: 'Reading which version the pods hold…',
      summaryLabel: 'Versions the pods hold',
      checked: 'Checked',
      rereadFailed: (message: string) =>
        `The pods could not be read again (${message}); this is what they held`,
      checkAgain: 'Check again',
      checkAgainLabel: 'Read the pods again',
      loadFailedTitle: 'Which version the pods hold is unknown',
      loadFailed: (message: string) =>
        `The pods could not be read: ${message} The list of workloads and the restart do not depend on it.`,
      deniedTitle: 'You may not read the pods',
      denied:
        'Your Kubernetes RBAC refused reading this Secret, so which version its consumers hold is unknown.',
      retry: 'Retry',
      retryLabel: 'Retry reading the pods',
      workloadLabel: (kind: string, name: string) => `${kind} ${name}`,
      rollout: (counts: string) => `Rollout: ${counts}`,
      problemsTitle: 'Why the rollout may not reach every pod',
      problemPods: (pods: string) => `Pods: ${pods}`,
      conditionsLabel: (workload: string) => `Conditions of ${workload}`,
      conditionType: 'Type',
      conditionStatus: 'Status',
      conditionReason: 'Reason',
      conditionMessage: 'Message',
      podsFailed: (message: string) =>
        `The pods of this workload could not be read, so which version they hold is unknown: ${message}`,
      podsFailedCode: (code: string, status?: number) =>
        status === undefined
          ? `Code ${code}`
          : `Code ${code}, HTTP status ${status}`,
      noPods: 'This workload has no pods.',
      groupsLabel: (workload: string) => `Pods of ${workload} by version`,
      group: (status: string, held: string, pods: string) =>
        `${status}: ${held}, ${pods}`,
      /** A group's line beside its status label. */
      groupDetail: (held: string, pods: string) => `${held}, ${pods}`,
      showPods: 'Show pods',
      hidePods: 'Hide pods',
      tableLabel: (workload: string, held: string) =>
        `Pods of ${workload}: ${held}`,
      pod: 'Pod',
      container: 'Container',
      reads: 'Reads through',
      holds: 'Holds',
      started: 'Started',
      restarts: 'Restarts',
      waiting: 'Waiting reason',
      podState: (phase: string, ready: boolean, deleting: boolean) =>
        `${phase}, ${ready ? 'ready' : 'not ready'}${
          deleting ? ', being deleted' : ''
        }`,
      notStarted: 'not started',
      stoppedContainer: 'not running',
    },
    /** Following a rollout after a restart, until every pod holds the live version. */
    follow: {
      following: 'Following the rollout…',
      followingDetail: (seconds: number, minutes: number) =>
        `Krypton reads the pods again every ${seconds} seconds, for up to ${minutes} minutes.`,
      stop: 'Stop',
      stopLabel: 'Stop following the rollout',
      checkFailed: (message: string) => `The last check failed: ${message}`,
      done: (version: number | null) =>
        version === null
          ? 'Every pod holds the live version'
          : `Every pod holds version ${version}`,
      timedOut: (minutes: number) =>
        `The rollout did not finish within ${minutes} minutes`,
      stuck: 'What is stuck, and why:',
      stuckNothingKnown:
        'No problem was reported: the pods may still be starting. Check again later.',
      stopped: 'You stopped following the rollout.',
      problemWithPods: (problem: string, pods: string) =>
        `${problem} (${pods})`,
    },
  },
} as const;

function versionList(versions: readonly number[]): string {
  const names = versions.map(v => `v${v}`);
  if (names.length === 1) return names[0];
  if (names.length > 5)
    return `the ${names.length} oldest versions (${names[0]} to ${
      names[names.length - 1]
    })`;
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
