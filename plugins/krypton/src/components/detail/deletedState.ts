import { DeleteResult } from '@krypton/core';
import { DeletedSecretRef } from '../delete';

/**
 * What the detail view hands the list through the router's location state after a confirmed
 * delete, so that the list it returns to says whether the history was cleaned or kept.
 */
export interface DeletedState {
  deleted: { secret: DeletedSecretRef; result: DeleteResult };
}

export function deletedStateOf(state: unknown): DeletedState | undefined {
  if (typeof state !== 'object' || state === null) return undefined;
  const deleted = (state as Partial<DeletedState>).deleted;
  if (
    !deleted ||
    typeof deleted.secret?.name !== 'string' ||
    typeof deleted.secret?.namespace !== 'string' ||
    (deleted.result?.history !== 'cleaned' &&
      deleted.result?.history !== 'kept')
  ) {
    return undefined;
  }
  return { deleted };
}
