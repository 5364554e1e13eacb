import { ConsumerWorkload, RestartStatus, SecretUsage } from '@krypton/core';
import { KryptonT } from '../../translation';

/** How one pod template reads the Secret, in the manifest's own terms. */
export function describeUsage(usage: SecretUsage, t: KryptonT): string {
  const containers = usage.containers?.length
    ? usage.containers.join(', ')
    : undefined;
  switch (usage.type) {
    case 'env':
      return containers
        ? t('consumers.usage.envIn', { containers })
        : t('consumers.usage.env');
    case 'envFrom':
      return containers
        ? t('consumers.usage.envFromIn', { containers })
        : t('consumers.usage.envFrom');
    case 'volume':
      return usage.volume
        ? t('consumers.usage.volumeNamed', { volume: usage.volume })
        : t('consumers.usage.volume');
    case 'projected':
      return usage.volume
        ? t('consumers.usage.projectedNamed', { volume: usage.volume })
        : t('consumers.usage.projected');
    case 'imagePullSecret':
      return t('consumers.usage.imagePullSecret');
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
export function workloadFlags(
  workload: ConsumerWorkload,
  t: KryptonT,
): WorkloadFlag[] {
  const flags: WorkloadFlag[] = [];
  if (workload.paused) {
    flags.push({
      label: t('consumers.flags.paused'),
      explanation: t('consumers.flags.pausedExplanation'),
    });
  }
  if (workload.onDelete) {
    flags.push({
      label: t('consumers.flags.onDelete'),
      explanation: t('consumers.flags.onDeleteExplanation'),
    });
  }
  if (workload.reloader) {
    flags.push({
      label: t('consumers.flags.reloader'),
      explanation: t('consumers.flags.reloaderExplanation'),
    });
  }
  return flags;
}

/** The headline of a restart's status, in the user's words. */
export const statusHeadline = (status: RestartStatus, t: KryptonT): string =>
  t(`consumers.result.headlines.${status}`);
