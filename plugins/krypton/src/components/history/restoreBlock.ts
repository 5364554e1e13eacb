import { SecretSummary, messages } from '@krypton/plugin-krypton-common';
import { ActionDecisions, SERVICE_ACCOUNT_TOKEN_TYPE } from '../access/decide';

/**
 * Why no version of this Secret can be restored now, or undefined when restore is offered. The
 * backend decides in the end; these are the refusals the UI can see coming, so that it does not
 * offer a button that can only fail.
 */
export function restoreBlock(
  summary: SecretSummary | undefined,
  decisions: ActionDecisions | undefined,
): string | undefined {
  if (!summary || !decisions) {
    return 'The live Secret could not be read, so nothing can be restored from here: a restore needs its current revision.';
  }
  if (summary.deletionTimestamp) {
    return 'The Secret is being deleted (deletion is pending), so it cannot be restored. Reload it to see whether it is gone.';
  }
  if (summary.immutable) {
    return 'The Secret is immutable: its data cannot be changed, so no version can be restored.';
  }
  if (summary.type === SERVICE_ACCOUNT_TOKEN_TYPE) {
    return messages.serviceAccountToken;
  }
  if (summary.version === null) {
    return messages.invalidCounter;
  }
  if (!decisions.restore.allowed) {
    return `You may not restore versions of this Secret. ${
      decisions.restore.reason ?? ''
    }`.trim();
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
