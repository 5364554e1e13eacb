import { ConsumerWorkload, SecretUsage } from '@krypton/core';
import { text } from '../messages';

const usageText = text.consumers.usage;

/** How one pod template reads the Secret, in the manifest's own terms. */
export function describeUsage(usage: SecretUsage): string {
  const containers = usage.containers?.length
    ? usage.containers.join(', ')
    : undefined;
  switch (usage.type) {
    case 'env':
      return containers ? usageText.envIn(containers) : usageText.env;
    case 'envFrom':
      return containers ? usageText.envFromIn(containers) : usageText.envFrom;
    case 'volume':
      return usage.volume
        ? usageText.volumeNamed(usage.volume)
        : usageText.volume;
    case 'projected':
      return usage.volume
        ? usageText.projectedNamed(usage.volume)
        : usageText.projected;
    case 'imagePullSecret':
      return usageText.imagePullSecret;
    default:
      // A usage type from a newer common is still worth naming.
      return usage.type;
  }
}

/** What a restart will not do for this workload, or may already have done. */
export function workloadFlags(workload: ConsumerWorkload): string[] {
  const flags: string[] = [];
  if (workload.paused) flags.push(text.consumers.flags.paused);
  if (workload.onDelete) flags.push(text.consumers.flags.onDelete);
  if (workload.reloader) flags.push(text.consumers.flags.reloader);
  return flags;
}
