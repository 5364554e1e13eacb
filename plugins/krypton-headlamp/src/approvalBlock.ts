import { NativeSecret, kryptonKeys, ownApprovalPolicy } from '@krypton/core';
import { text } from './messages';

/**
 * Why Krypton does not change this Secret inside Headlamp because its changes need approval, or
 * undefined where they do not as far as Headlamp can tell. Approval is asked for through
 * Krypton's backend, which keeps the request and applies it once approved; Headlamp writes with
 * the user's own identity and can only write at once. It sees the Secret's own
 * `required-approvals` annotation, never the backend's `krypton.approval.rules` (its config), so
 * the section says that a Secret may be covered without it.
 */
export function approvalBlock(
  secret: NativeSecret,
  annotationPrefix: string,
): string | undefined {
  const policy = ownApprovalPolicy(secret, annotationPrefix);
  if (!policy) return undefined;
  return text.approval.block(
    policy.requiredApprovals,
    kryptonKeys(annotationPrefix).requiredApprovals,
  );
}
