import { ChangeRequest } from '@krypton/core';
import { alice, secretDto } from './krypton';

export const REQUEST_ID = '0b6f3c1e-2a4d-4c8e-9f10-3d5a7b9c1e2f';

/**
 * A pending change request of demo/db (secretDto's Secret, at its revision): alice asks to replace
 * its values, and one approval of team-a applies it.
 */
export function changeRequest(
  overrides: Partial<ChangeRequest> = {},
): ChangeRequest {
  const { uid, resourceVersion } = secretDto();
  return {
    id: REQUEST_ID,
    cluster: 'local',
    namespace: 'demo',
    name: 'db',
    uid,
    baseRevision: resourceVersion,
    change: { operation: 'update', values: true },
    reason: 'Rotate: the password was in a build log.',
    requestedBy: alice.userEntityRef,
    requestedAt: '2026-12-06T09:00:00.000Z',
    expiresAt: '2099-12-07T09:00:00.000Z',
    policy: {
      requiredApprovals: 1,
      approvers: ['group:default/team-a'],
      allowSelfApproval: false,
      enforcement: 'hard',
      bypassGroups: [],
    },
    state: 'pending',
    decisions: [],
    ...overrides,
  };
}
