import {
  KryptonEngines,
  KryptonError,
  NativeSecret,
  OwnedOperation,
  RestoreBlock,
  messages,
  restoreBlockOf,
} from '@krypton/core';

const BLOCKED: Partial<Record<RestoreBlock, KryptonError>> = {
  pendingDeletion: new KryptonError('conflict', messages.pendingDeletion),
  immutable: new KryptonError('unprocessable', messages.immutableData),
  serviceAccountToken: new KryptonError(
    'unprocessable',
    messages.serviceAccountToken,
  ),
  invalidCounter: new KryptonError('conflict', messages.invalidCounter),
};

/**
 * The refusals a change can see coming, checked before the user is asked to confirm or to edit:
 * the same rules as the portal's (restoreBlockOf, and the owner's rule of admitOwned). The engine
 * checks again when it writes.
 */
export function refuseBeforeAsking(
  krypton: KryptonEngines,
  live: NativeSecret,
  operation: Exclude<OwnedOperation, 'adopt'>,
): void {
  if (operation !== 'delete') {
    const block = restoreBlockOf(krypton.live.toSummary(live), true);
    const refusal = block === undefined ? undefined : BLOCKED[block];
    if (refusal) throw refusal;
  }
  krypton.live.admitOwned(live, operation, undefined);
}
