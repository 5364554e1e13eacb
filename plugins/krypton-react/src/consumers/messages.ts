/**
 * The words that describe a Secret's consuming workloads, in English: how a pod template reads
 * the Secret (`usage`), and what a restart will not do for a workload or may already have done
 * (`flags`, each a label and its explanation). The Backstage plugin puts them in its translation
 * ref under `consumers`, beside its own words of that area, so that apps can translate them; a
 * host without translations renders them with englishConsumersT.
 *
 * @public
 */
export const workloadMessages = {
  usage: {
    env: 'env',
    envIn: 'env in {{containers}}',
    envFrom: 'envFrom',
    envFromIn: 'envFrom in {{containers}}',
    volume: 'volume',
    volumeNamed: 'volume {{volume}}',
    projected: 'projected volume',
    projectedNamed: 'projected volume {{volume}}',
    // Named as in the manifest: the pod spec's field is `imagePullSecrets`.
    imagePullSecret: 'imagePullSecrets',
  },
  flags: {
    paused: 'Paused',
    pausedExplanation: 'will not roll out until it is resumed',
    onDelete: 'OnDelete',
    onDeleteExplanation: 'pods roll only when they are deleted',
    reloader: 'Reloader',
    reloaderExplanation:
      'Stakater Reloader watches it, so it may already have rolled after the last change',
  },
} as const;

/**
 * The words that tell which version of a Secret the pods of its consuming workloads hold (GET
 * .../consumers/pods): a pod's or container's claim (`held`), a group's status against the live
 * Secret (`status`, each a label and its explanation), why a rollout may not reach every pod
 * (`problems`), a rollout's counts (`rollout`), a controller's condition (`condition`), the summary
 * line and its notes (`summary`, `notes`), how long pods have been stale (`staleFor`), and how a
 * container reads the Secret (`reads`, `roles`). The Backstage plugin puts them in its translation
 * ref under `consumers.versions`; a host without translations renders them with englishConsumersT.
 *
 * @public
 */
export const versionMessages = {
  held: {
    version: 'version {{version}}',
    between: 'version {{from}}–{{to}} (it started while the Secret changed)',
    olderThan: 'a version older than {{version}}',
    expected: 'expected to hold version {{version}} by {{time}}',
    expectedUndated:
      'expected to hold version {{version}} once the kubelet updates its volume',
    overdue: 'should hold version {{version}} since {{time}}',
    notStarted: 'not started yet',
    unknown: 'unknown',
    imagePullOnly: 'used only to pull images',
    unused: "this pod's spec does not use the Secret",
  },
  status: {
    current: 'Current',
    currentExplanation: 'holds the live version',
    stale: 'Stale',
    staleExplanation: 'holds an older version until its pods are replaced',
    converging: 'Converging',
    convergingExplanation: 'waits for the kubelet to update a mounted volume',
    uncertain: 'Uncertain',
    uncertainExplanation:
      'started while the Secret changed, or its start cannot be read',
    notStarted: 'Not started',
    notStartedExplanation: 'has not read the Secret yet',
    unaffected: 'Unaffected',
    unaffectedExplanation: 'does not read the Secret while it runs',
  },
  problems: {
    paused: 'Paused: the Deployment will not roll out until it is resumed',
    onDelete: 'OnDelete: pods roll only when they are deleted',
    progressDeadline: 'The rollout exceeded its progress deadline',
    replicaFailure: 'The controller could not create pods',
    notObserved: 'The controller has not seen the newest pod template yet',
    crashLoop: 'Containers crash and restart in a loop',
    imagePull: 'An image cannot be pulled',
    pending: 'Pods are pending: not scheduled or not started',
    notReady: 'Pods are not ready',
  },
  rollout: {
    counts:
      '{{updated}} of {{desired}} updated, {{ready}} ready, {{available}} available',
    /** A count the controller has not reported: a symbol, not a word. */
    unknownCount: '?',
    notReported: 'not reported by its controller yet',
  },
  condition: {
    status: '{{type}}: {{status}}',
    statusReason: '{{type}}: {{status}} ({{reason}})',
    withMessage: '{{condition}}: {{message}}',
  },
  podCount_one: '{{count}} pod',
  podCount_other: '{{count}} pods',
  staleFor: 'stale for {{duration}}',
  staleForAtLeast: 'stale for at least {{duration}}',
  summary: {
    allCurrent_one: '{{count}} pod holds version {{version}}, the live version',
    allCurrent_other:
      'All {{count}} pods hold version {{version}}, the live version',
    staleOne_one:
      '{{count}} of {{pods}} pods still holds version {{stale}}; the live Secret is version {{version}}',
    staleOne_other:
      '{{count}} of {{pods}} pods still hold version {{stale}}; the live Secret is version {{version}}',
    staleMany_one:
      '{{count}} of {{pods}} pods still holds an older version ({{versions}}); the live Secret is version {{version}}',
    staleMany_other:
      '{{count}} of {{pods}} pods still hold older versions ({{versions}}); the live Secret is version {{version}}',
    staleOlder_one:
      '{{count}} of {{pods}} pods still holds a version older than the history tells; the live Secret is version {{version}}',
    staleOlder_other:
      '{{count}} of {{pods}} pods still hold versions older than the history tells; the live Secret is version {{version}}',
    /** The stale versions of a staleMany line when some pods hold versions older than the history. */
    andOlder: '{{versions}} and older',
    current_one:
      '{{count}} of {{pods}} pods holds version {{version}}, the live version',
    current_other:
      '{{count}} of {{pods}} pods hold version {{version}}, the live version',
    liveUnknown:
      "The live Secret's version cannot be read, so no pod can be matched to a version",
    noWorkloads: 'No workload in the namespace references this Secret',
    noReaders:
      'No running pod reads this Secret; the live Secret is version {{version}}',
    unread: 'The pods of the consuming workloads could not be read',
  },
  notes: {
    converging_one:
      '{{count}} pod waits for the kubelet to update its mounted volume.',
    converging_other:
      '{{count}} pods wait for the kubelet to update their mounted volumes.',
    uncertain_one:
      'Which version {{count}} pod holds cannot be told: it started while the Secret changed, or its start cannot be read.',
    uncertain_other:
      'Which version {{count}} pods hold cannot be told: they started while the Secret changed, or their start cannot be read.',
    notStarted_one: '{{count}} pod has not started yet.',
    notStarted_other: '{{count}} pods have not started yet.',
    unaffected_one: '{{count}} pod does not read the Secret while it runs.',
    unaffected_other: '{{count}} pods do not read the Secret while they run.',
    unreadWorkloads_one:
      'The pods of {{count}} workload could not be read, so they are not counted.',
    unreadWorkloads_other:
      'The pods of {{count}} workloads could not be read, so they are not counted.',
    discoveryFailures:
      'Some kinds of workloads could not be listed, so their pods are not counted.',
  },
  reads: {
    env: 'env',
    envFrom: 'envFrom',
    subPath: 'subPath mount',
    volume: 'volume',
    projected: 'projected volume',
  },
  roles: {
    container: 'container',
    init: 'init container',
    ephemeral: 'ephemeral container',
  },
} as const;
