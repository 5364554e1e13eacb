import {
  KryptonError,
  NativeSecret,
  OwnedOperation,
  RestoreBlock,
  kryptonKeys,
  messages,
  ownApprovalPolicy,
  restoreBlockOf,
} from '@krypton/core';
import { CliError } from '../cli/errors';
import { Session } from '../session';

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
 * Refuses a Secret whose own `required-approvals` annotation asks for approval. Approval is
 * asked for through Krypton's backend, which keeps the request and applies it once approved; the
 * terminal writes with the user's identity at once, so it writes nothing there, as Headlamp does.
 * It never sees the backend's `krypton.approval.rules` (its config).
 */
function refuseApproval(live: NativeSecret, annotationPrefix: string): void {
  const policy = ownApprovalPolicy(live, annotationPrefix);
  if (!policy) return;
  const annotation = kryptonKeys(annotationPrefix).requiredApprovals;
  throw new CliError(
    'refused',
    `Changes to this Secret need approval (its ${annotation} annotation asks for ${policy.requiredApprovals}): request the change in the Krypton portal, where approvers review it. kubectl krypton writes at once, so it writes nothing here.`,
  );
}

/**
 * The refusals a change can see coming, checked before the user is asked to confirm or to edit:
 * the same rules as the portal's (restoreBlockOf, and the owner's rule of admitOwned), and the
 * Secret's own approval annotation. The engine checks again when it writes.
 */
export function refuseBeforeAsking(
  { krypton, settings }: Pick<Session, 'krypton' | 'settings'>,
  live: NativeSecret,
  operation: Exclude<OwnedOperation, 'adopt'>,
): void {
  refuseApproval(live, settings.annotationPrefix);
  if (operation !== 'delete') {
    const block = restoreBlockOf(krypton.live.toSummary(live), true);
    const refusal = block === undefined ? undefined : BLOCKED[block];
    if (refusal) throw refusal;
  }
  krypton.live.admitOwned(live, operation, undefined);
}
