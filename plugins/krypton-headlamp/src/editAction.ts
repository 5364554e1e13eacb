// Type only: the processor runs inside Headlamp, whose action ids are plain strings at run time.
// eslint-disable-next-line @backstage/no-undeclared-imports
import type { DetailsViewDefaultHeaderActions } from '@kinvolk/headlamp-plugin/lib';
import { DEFAULT_HEADLAMP_SETTINGS } from './engines';
import { HeadlampResource, isManaged, shownSecret } from './shownSecret';

/** Headlamp's id of its raw Edit action, checked against its declarations. */
export const EDIT_ACTION: `${(typeof DetailsViewDefaultHeaderActions)['EDIT']}` =
  'EDIT';

/**
 * Hides Headlamp's raw Edit action on Krypton-managed Secrets: an edit made there bypasses
 * Krypton, so it would keep no history. Every other action, and every other object, is untouched.
 * This is a convenience, not a gate: kubectl, or anyone with the same RBAC, can still edit.
 */
export function hideEditOnManaged<Action extends { id: string }>(
  resource: HeadlampResource | null,
  actions: Action[],
): Action[] {
  const secret = shownSecret(resource);
  if (!secret || !isManaged(secret, DEFAULT_HEADLAMP_SETTINGS.annotationPrefix))
    return actions;
  return actions.filter(action => action.id !== EDIT_ACTION);
}
