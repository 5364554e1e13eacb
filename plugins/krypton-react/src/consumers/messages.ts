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
