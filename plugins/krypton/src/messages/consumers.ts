/**
 * The words of the consumers components; see ../translation.ts for the rules of every area. The
 * words that describe a workload (`usage`, `flags`) are @krypton/plugin-krypton-react's
 * workloadMessages, and those that tell which version its pods hold (`versions`) its
 * versionMessages, which translation.ts merges into this area.
 */
export const consumersMessages = {
  tab: {
    title: 'Consuming workloads',
    subheader:
      'Deployments, StatefulSets and DaemonSets in {{namespace}} that reference this Secret. This is a dry run: nothing is changed.',
    restart: 'Restart consumers',
    restarting: 'Restarting…',
    reload: 'Reload consumers',
    cannotRestart: 'You cannot restart the consumers: {{reason}}',
    catalogFailed:
      'The catalog could not be read, so workloads are not grouped by entity',
    retryCatalog: 'Retry reading the catalog',
    listFailed: 'Could not list the consumers: {{message}}',
    retry: 'Retry',
    retryList: 'Retry listing the consumers',
    partialDiscovery:
      'Some kinds could not be listed completely. Which of their workloads use this Secret is unknown, so the list below may be missing some, and a restart would not restart them.',
    failedKinds: 'Kinds that could not be listed',
    noneOfListedKinds:
      'No workload of the kinds that could be listed references this Secret.',
    none: 'No Deployment, StatefulSet or DaemonSet in {{namespace}} references this Secret.',
    refused: 'The restart was refused: {{message}}',
    thisRestart: 'This restart',
    lastTitle: 'Last restart through Krypton',
    lastFailed: 'Could not load the last restart: {{message}}',
    retryLast: 'Retry loading the last restart',
    noLast: 'No restart requested through Krypton yet.',
    requestedBy: 'Requested by {{actor}} {{time}}.',
    lastRestart: 'Last restart',
  },
  /** Which version of the Secret the pods hold (GET .../consumers/pods). */
  pods: {
    title: 'Pods and the version they hold',
    subheader:
      'Which version of this Secret each pod of the consuming workloads holds, as its start and the history tell.',
    summaryLabel: 'Versions the pods hold',
    loadFailed: 'Could not read which version the pods hold: {{message}}',
    retry: 'Retry reading the pods',
    rereadFailed:
      'The pods could not be read again ({{message}}); this is what they held {{time}}.',
    checked: 'Checked {{time}}.',
    workloadLabel: '{{kind}} {{name}}',
    rollout: 'Rollout: {{counts}}',
    problemsTitle: 'Why the rollout may not reach every pod',
    problemPods: 'Pods: {{pods}}',
    conditionsLabel: 'Conditions of {{workload}}',
    conditionType: 'Type',
    conditionStatus: 'Status',
    conditionReason: 'Reason',
    conditionMessage: 'Message',
    podsFailed:
      'The pods of this workload could not be read, so which version they hold is unknown: {{message}}',
    podsFailedCode: 'Code {{code}}, HTTP status {{status}}',
    podsFailedCodeOnly: 'Code {{code}}',
    noPods: 'This workload has no pods.',
    group: '{{status}}: {{held}}, {{pods}}',
    showPods: 'Show pods',
    hidePods: 'Hide pods',
    tableLabel: 'Pods of {{workload}}: {{held}}',
    pod: 'Pod',
    container: 'Container',
    reads: 'Reads through',
    holds: 'Holds',
    started: 'Started',
    restarts: 'Restarts',
    waiting: 'Waiting reason',
    podState: '{{phase}}, ready',
    podStateNotReady: '{{phase}}, not ready',
    deleting: '{{state}}, being deleted',
    notStarted: 'not started',
    stoppedContainer: 'not running',
  },
  /** Following a rollout after a restart, until every pod holds the live version. */
  follow: {
    following: 'Following the rollout…',
    followingDetail:
      'Krypton reads the pods again every {{seconds}} seconds, for up to {{minutes}} minutes.',
    stop: 'Stop',
    stopLabel: 'Stop following the rollout',
    checkFailed: 'The last check failed: {{message}}',
    done: 'Every pod holds version {{version}}',
    doneUnknownVersion: 'Every pod holds the live version',
    timedOut: 'The rollout did not finish within {{minutes}} minutes',
    stuck: 'What is stuck, and why:',
    stuckNothingKnown:
      'No problem was reported: the pods may still be starting. Reload the consumers to check again.',
    stopped: 'You stopped following the rollout.',
    problemWithPods: '{{problem}} ({{pods}})',
  },
  /** A Secret's consumers at a glance, in the entity's views: a link to its Consumers tab. */
  badge: {
    allCurrent: 'All consumers current',
    stale_one: '{{count}} pod stale',
    stale_other: '{{count}} pods stale',
    unconfirmed: 'Consumers not all confirmed',
    /** The link's accessible name: its words, then the Secret they are about. */
    linkLabel: '{{label}} ({{name}})',
    failed:
      "Could not read which version the consumers' pods hold: {{message}}",
  },
  blockers: {
    unreadable:
      'The Secret could not be read, and the server restarts only the consumers of a Secret it can read.',
    checking: 'Checking what you may do with this Secret.',
    denied: 'You may not restart consuming apps.',
    loading: 'The list of consumers is loading.',
    listFailed:
      'The list of consumers could not be loaded, so there is nothing to confirm.',
    noWorkloads: 'No known workload uses this Secret.',
  },
  table: {
    label: 'Consumers',
    labelOf: 'Consumers: {{group}}',
    kind: 'Kind',
    name: 'Name',
    usage: 'Uses the Secret through',
    notes: 'Restart notes',
    code: 'Code',
    httpStatus: 'HTTP status',
    message: 'Message',
    outcome: 'Outcome',
    guidance: 'Guidance',
    failed: 'Failed',
    requested: 'Requested',
    flag: '{{label}}: {{explanation}}',
  },
  groups: {
    notInCatalog: 'Not in the catalog',
    thisEntity: '(this entity)',
  },
  dialog: {
    title: 'Restart the consumers of {{name}}?',
    body_one:
      'Krypton will ask Kubernetes to roll out this workload in {{namespace}} by adding a restart timestamp to their pod template. It finds the consumers again when you confirm, so the set can differ if workloads changed since this list was loaded.',
    body_other:
      'Krypton will ask Kubernetes to roll out these {{count}} workloads in {{namespace}} by adding a restart timestamp to their pod template. It finds the consumers again when you confirm, so the set can differ if workloads changed since this list was loaded.',
    listTitle: 'Workloads to restart:',
    stuck: 'Not every workload will roll out: {{details}}.',
    paused: '{{workload}} is paused and will not roll out until it is resumed',
    onDelete:
      '{{workload}} uses OnDelete, so its pods roll only when they are deleted',
    partialDiscovery:
      'The dry run could not list every {{kinds}}. If the restart cannot list them either, none of that kind will be restarted.',
    cancel: 'Cancel',
    confirm_one: 'Restart {{count}} workload',
    confirm_other: 'Restart {{count}} workloads',
  },
  result: {
    headlines: {
      requested: 'Rollout requested',
      no_targets: 'No workloads to restart',
      partial: 'Rollout partly requested',
      failed: 'Restart failed',
    },
    counts:
      'Known matches: {{matched}}. Requested: {{requested}}. Failed: {{failed}}.',
    troubled:
      "Review the workloads' actual state and repair the errors before retrying. A retry scans every kind again and may request another rollout for workloads that were already acknowledged.",
    discoveryFailed:
      'These kinds could not be listed completely. Which of their workloads use the Secret is unknown, and none of them was restarted.',
    tableOf: '{{label}}: {{group}}',
    discoveryFailures: '{{label}}: discovery failures',
  },
} as const;
