import {
  SecretListItem,
  SecretSummary,
  isSecretSummary,
  messages,
} from '@krypton/plugin-krypton-common';
import { ActionDecisions, SERVICE_ACCOUNT_TOKEN_TYPE } from '../access/decide';
import { KryptonT } from '../../translation';

/**
 * Why no version of this Secret can be restored now, in the user's words, or undefined when
 * restore is offered. The backend decides in the end; these are the refusals the UI can see
 * coming, so that it does not offer a button that can only fail. The API's fixed messages are
 * shown as the server would send them. A list item does not know immutability (lists never read
 * the full object), so an immutable Secret from a list is offered, and its History tab, which
 * reads the summary, gives the reason.
 */
export function restoreBlock(
  summary: SecretSummary | SecretListItem | undefined,
  decisions: ActionDecisions | undefined,
  t: KryptonT,
): string | undefined {
  if (!summary || !decisions) {
    return t('history.blocks.liveUnreadable');
  }
  if (summary.deletionTimestamp) {
    return t('history.blocks.pendingDeletion');
  }
  if (isSecretSummary(summary) && summary.immutable) {
    return t('history.blocks.immutable');
  }
  if (summary.type === SERVICE_ACCOUNT_TOKEN_TYPE) {
    return messages.serviceAccountToken;
  }
  if (summary.version === null) {
    return messages.invalidCounter;
  }
  if (!decisions.restore.allowed) {
    return t('history.blocks.restoreDenied', {
      reason: decisions.restore.reason ?? '',
    }).trim();
  }
  return undefined;
}

/**
 * The version a "Roll back…" means: the newest one that is not the live revision itself. A
 * snapshot taken from the live resourceVersion holds the live state (a write after it failed), so
 * restoring it would change nothing.
 */
export function newestRestorable<T extends { sourceResourceVersion: string }>(
  items: readonly T[],
  liveResourceVersion: string,
): T | undefined {
  return items.find(v => v.sourceResourceVersion !== liveResourceVersion);
}
