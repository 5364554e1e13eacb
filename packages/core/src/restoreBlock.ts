import { SecretListItem, SecretSummary, isSecretSummary } from './dto';
import { SERVICE_ACCOUNT_TOKEN_TYPE } from './secretTraits';

/**
 * Why no version of a Secret can be restored now. The API's fixed messages name the last two:
 * `messages.serviceAccountToken` and `messages.invalidCounter`.
 *
 * @public
 */
export type RestoreBlock =
  | 'liveUnreadable'
  | 'pendingDeletion'
  | 'immutable'
  | 'serviceAccountToken'
  | 'invalidCounter'
  | 'denied';

/**
 * Why no version of this Secret can be restored now, or undefined when restore is offered. The
 * engine decides in the end; these are the refusals a view can see coming, so that it does not
 * offer a button that can only fail. A list item does not know immutability (lists never read
 * the full object), so an immutable Secret from a list is offered.
 *
 * @param restoreAllowed - whether the user may restore (the host's gates); undefined when unknown,
 *   which blocks like an unreadable Secret.
 *
 * @public
 */
export function restoreBlockOf(
  summary: SecretSummary | SecretListItem | undefined,
  restoreAllowed: boolean | undefined,
): RestoreBlock | undefined {
  if (!summary || restoreAllowed === undefined) return 'liveUnreadable';
  if (summary.deletionTimestamp) return 'pendingDeletion';
  if (isSecretSummary(summary) && summary.immutable) return 'immutable';
  if (summary.type === SERVICE_ACCOUNT_TOKEN_TYPE) return 'serviceAccountToken';
  if (summary.version === null) return 'invalidCounter';
  if (!restoreAllowed) return 'denied';
  return undefined;
}

/**
 * The version a "Roll back…" means: the newest one that is not the live revision itself. A
 * snapshot taken from the live resourceVersion holds the live state (a write after it failed), so
 * restoring it would change nothing.
 *
 * @public
 */
export function newestRestorable<T extends { sourceResourceVersion: string }>(
  items: readonly T[],
  liveResourceVersion: string,
): T | undefined {
  return items.find(v => v.sourceResourceVersion !== liveResourceVersion);
}
