import {
  ConsumerWorkload,
  RestartStatus,
  SecretUsage,
  WorkloadKind,
} from '@krypton/plugin-krypton-common';

/** How one pod template reads the Secret, in the manifest's own terms. */
export function describeUsage(usage: SecretUsage): string {
  const containers = usage.containers?.length
    ? ` in ${usage.containers.join(', ')}`
    : '';
  switch (usage.type) {
    case 'env':
      return `env${containers}`;
    case 'envFrom':
      return `envFrom${containers}`;
    case 'volume':
      return usage.volume ? `volume ${usage.volume}` : 'volume';
    case 'projected':
      return usage.volume
        ? `projected volume ${usage.volume}`
        : 'projected volume';
    case 'imagePullSecret':
      return 'imagePullSecret';
    default:
      // A usage type from a newer backend is still worth naming.
      return usage.type;
  }
}

export interface WorkloadFlag {
  label: string;
  explanation: string;
}

/** What a restart will not do for this workload, or may already have done. */
export function workloadFlags(workload: ConsumerWorkload): WorkloadFlag[] {
  const flags: WorkloadFlag[] = [];
  if (workload.paused) {
    flags.push({
      label: 'Paused',
      explanation: 'will not roll out until it is resumed',
    });
  }
  if (workload.onDelete) {
    flags.push({
      label: 'OnDelete',
      explanation: 'pods roll only when they are deleted',
    });
  }
  if (workload.reloader) {
    flags.push({
      label: 'Reloader',
      explanation:
        'Stakater Reloader watches it, so it may already have rolled after the last change',
    });
  }
  return flags;
}

export const STATUS_HEADLINES: Record<RestartStatus, string> = {
  requested: 'Rollout requested',
  no_targets: 'No workloads to restart',
  partial: 'Rollout partly requested',
  failed: 'Restart failed',
};

/**
 * Even "requested" is not a success colour: the server only saw its patches acknowledged, and
 * the rollouts themselves may still fail.
 */
export const STATUS_SEVERITY: Record<
  RestartStatus,
  'info' | 'warning' | 'error'
> = {
  requested: 'info',
  no_targets: 'info',
  partial: 'warning',
  failed: 'error',
};

export const workloadLabel = (ref: { kind: WorkloadKind; name: string }) =>
  `${ref.kind}/${ref.name}`;
