import { outsideChange } from '@krypton/core';
import { englishT, MessageKeyOf } from '../texts';

/**
 * How a version's change made outside Krypton reads, in English: the tool and the writer
 * ("kubectl edit by admin"), a controller's re-sync, or a delete. The Backstage plugin puts them
 * in its translation ref under `history.outside`; Headlamp renders them with englishHistoryT.
 *
 * @public
 */
export const outsideChangeMessages = {
  toolBy: '{{tool}} by {{user}}',
  resyncedBy: 're-synced by {{user}}',
  resyncedWithBy: 're-synced with {{tool}} by {{user}}',
  changedBy: 'changed by {{user}}',
  deletedBy: 'deleted by {{user}}',
} as const;

/**
 * The history words under the area they have in Krypton's translation ref.
 *
 * @public
 */
export const historyViewMessages = {
  history: { outside: outsideChangeMessages },
} as const;

/**
 * A message key of the history's shared words (`history.outside.toolBy`...).
 *
 * @public
 */
export type HistoryTextKey = MessageKeyOf<typeof historyViewMessages>;

/**
 * How a host turns a key of the history's shared words into words.
 *
 * @public
 */
export type HistoryT = (
  key: HistoryTextKey,
  params?: { [name: string]: string },
) => string;

/**
 * The English history words, for a host without translations.
 *
 * @public
 */
export const englishHistoryT: HistoryT = englishT<
  HistoryTextKey,
  { [name: string]: string }
>(historyViewMessages);

/**
 * Who made a version's change and with what, when it was made outside Krypton; undefined for a
 * change through Krypton, which each host shows in its own way (a catalog link in Backstage).
 *
 * @public
 */
export function describeOutsideChange(
  version: { snapshotBy: string; snapshotVia?: string; finalState?: boolean },
  t: HistoryT,
): string | undefined {
  const change = outsideChange(version);
  if (!change) return undefined;
  const { user, tool } = change;
  if (change.deleted) return t('history.outside.deletedBy', { user });
  if (change.serviceAccount) {
    // A controller's tool is its own name; kubectl run by a pipeline's ServiceAccount is a write.
    if (tool?.startsWith('kubectl'))
      return t('history.outside.toolBy', { tool, user });
    return tool
      ? t('history.outside.resyncedWithBy', { tool, user })
      : t('history.outside.resyncedBy', { user });
  }
  return tool
    ? t('history.outside.toolBy', { tool, user })
    : t('history.outside.changedBy', { user });
}
