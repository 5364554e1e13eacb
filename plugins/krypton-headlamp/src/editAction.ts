// Type only: the processor runs inside Headlamp, whose action ids are plain strings at run time.
// eslint-disable-next-line @backstage/no-undeclared-imports
import type { DetailsViewDefaultHeaderActions } from '@kinvolk/headlamp-plugin/lib';
import { recognizeOwner } from '@krypton/core';
import { DEFAULT_HEADLAMP_SETTINGS } from './engines';
import { ownedChangeBlock } from './owner/ownedBlock';
import { ownedEditHeaderAction } from './owner/OwnedEditAction';
import { HeadlampResource, isManaged, shownSecret } from './shownSecret';

/** Headlamp's id of its raw Edit action, checked against its declarations. */
export const EDIT_ACTION: `${(typeof DetailsViewDefaultHeaderActions)['EDIT']}` =
  'EDIT';

/**
 * Krypton's say on Headlamp's raw Edit action of a Krypton-managed Secret: an edit made there
 * bypasses Krypton, so it would keep no history. It is hidden, or where another tool owns the
 * Secret and would write back over an edit (its rule is not `allowed`), kept in place but off
 * with the owner's reason, since Krypton's own edit is refused too. A Secret that Krypton does not
 * manage keeps Headlamp's Edit: it is not Krypton's to refuse, and the section's banner already
 * says what the owner will do. Every other action, and every other object, is untouched. This is
 * a convenience, not a gate: kubectl, or anyone with the same RBAC, can still edit.
 */
export function editActionOnSecrets<Action extends { id: string }>(
  resource: HeadlampResource | null,
  actions: Action[],
): Array<Action | ReturnType<typeof ownedEditHeaderAction>> {
  const secret = shownSecret(resource);
  if (!secret || !isManaged(secret, DEFAULT_HEADLAMP_SETTINGS.annotationPrefix))
    return actions;
  // Headlamp has no installation settings, so the owner's rule is the default one.
  const owned = ownedChangeBlock(recognizeOwner(secret.native.metadata));
  if (owned !== undefined) {
    return actions.map(action =>
      action.id === EDIT_ACTION ? ownedEditHeaderAction(owned) : action,
    );
  }
  return actions.filter(action => action.id !== EDIT_ACTION);
}
