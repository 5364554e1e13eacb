import type { ConsumerWorkload, SecretUsage } from '@krypton/core';
import { englishT, MessageKeyOf, WithoutPluralSuffix } from '../texts';
import { versionMessages, workloadMessages } from './messages';

/**
 * The messages that describe consuming workloads and the versions their pods hold, under the area
 * they have in Krypton's translation ref.
 *
 * @public
 */
export const consumerViewMessages = {
  consumers: { ...workloadMessages, versions: versionMessages },
} as const;

/**
 * A message key of the words that describe consuming workloads (`consumers.usage.env`...), with
 * plural forms under their common key, as i18next has it.
 *
 * @public
 */
export type ConsumersTextKey = WithoutPluralSuffix<
  MessageKeyOf<typeof consumerViewMessages>
>;

/**
 * Interpolation values by name: the containers or the volume of a usage, a version; a numeric
 * `count` picks the plural form.
 *
 * @public
 */
export interface ConsumersTextParams {
  [name: string]: string | number;
}

/**
 * How a host turns a key of the consumers' words into words: Backstage's translation `t` is one.
 *
 * @public
 */
export type ConsumersT = (
  key: ConsumersTextKey,
  params?: ConsumersTextParams,
) => string;

/**
 * The English words of the consumers with i18next's interpolation, for a host that has no
 * translation system of its own (Headlamp's plugins have none for a plugin's texts).
 *
 * @public
 */
export const englishConsumersT: ConsumersT = englishT<
  ConsumersTextKey,
  ConsumersTextParams
>(consumerViewMessages);

/**
 * How one pod template reads the Secret, in the manifest's own terms.
 *
 * @public
 */
export function describeUsage(usage: SecretUsage, t: ConsumersT): string {
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
      // A usage type from a newer core is still worth naming.
      return (usage as SecretUsage).type;
  }
}

/**
 * Something a restart will not do for a workload, or may already have done: a short label and
 * the sentence that explains it.
 *
 * @public
 */
export interface WorkloadFlag {
  /** The flag's short name: `Paused`, `OnDelete`, `Reloader`. */
  label: string;
  /** What it means for a restart. */
  explanation: string;
}

/**
 * What a restart will not do for this workload, or may already have done, in a fixed order:
 * paused, OnDelete, Reloader.
 *
 * @public
 */
export function workloadFlags(
  workload: ConsumerWorkload,
  t: ConsumersT,
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
