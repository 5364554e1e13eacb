import { KryptonError } from '../errors';
import {
  CHANGE_REQUEST_MESSAGES as M,
  ChangeActor,
  ChangeRequest,
  admitBypass,
  admitWithdrawal,
  countedApprovals,
  decide,
  describeApproval,
  freezePolicy,
  parseChangeText,
  splitChangeReason,
} from './changeRequest';
import { ApprovalPolicy } from './policy';
import { parseChangeTextBody } from '../validation';

const NOW = new Date('2026-12-06T08:00:00.000Z');
const alice: ChangeActor = {
  ref: 'user:default/alice',
  ownership: ['user:default/alice', 'group:default/payments'],
};
const bob: ChangeActor = {
  ref: 'user:default/bob',
  ownership: ['user:default/bob', 'group:default/payments'],
};
const carol: ChangeActor = {
  ref: 'user:default/carol',
  ownership: ['user:default/carol', 'group:default/sre'],
};
const erin: ChangeActor = {
  ref: 'user:default/erin',
  ownership: ['user:default/erin', 'group:default/oncall'],
};

function request(overrides: Partial<ChangeRequest> = {}): ChangeRequest {
  return {
    id: '0b6f3c1e-2a4d-4c8e-9f10-3d5a7b9c1e2f',
    cluster: 'prod',
    namespace: 'payments',
    name: 'db',
    uid: 'uid-1',
    baseRevision: '41',
    change: { operation: 'update', values: true },
    reason: 'rotate the password',
    requestedBy: alice.ref,
    requestedAt: '2026-12-06T07:00:00.000Z',
    expiresAt: '2026-12-07T07:00:00.000Z',
    policy: {
      requiredApprovals: 1,
      approvers: ['group:default/payments', 'group:default/sre'],
      allowSelfApproval: false,
      enforcement: 'hard',
      bypassGroups: [],
    },
    state: 'pending',
    decisions: [],
    ...overrides,
  };
}

const approval = (by: string) => ({
  by,
  decision: 'approve' as const,
  comment: '',
  at: '2026-12-06T07:30:00.000Z',
});

function refused(call: () => unknown): KryptonError {
  try {
    call();
  } catch (e) {
    if (e instanceof KryptonError) return e;
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('change request rules', () => {
  it('freezes the policy with its groups, or the owners of the moment, and refuses one that leaves nobody to approve', () => {
    const base: ApprovalPolicy = {
      requiredApprovals: 2,
      approvers: { kind: 'owners' },
      allowSelfApproval: false,
      expiresAfterHours: 24,
      enforcement: 'soft',
      bypassGroups: ['group:default/oncall'],
      source: 0,
    };
    expect(freezePolicy(base, ['user:default/dora'])).toEqual({
      requiredApprovals: 2,
      approvers: ['user:default/dora'],
      allowSelfApproval: false,
      enforcement: 'soft',
      bypassGroups: ['group:default/oncall'],
    });
    expect(
      freezePolicy(
        {
          ...base,
          approvers: { kind: 'groups', groups: ['group:default/sre'] },
        },
        ['user:default/dora'],
      ).approvers,
    ).toEqual(['group:default/sre']);
    const none = refused(() => freezePolicy(base, []));
    expect([none.code, none.message]).toEqual(['conflict', M.noApprovers]);
  });

  it('reaches the quorum with the last approval it needs', () => {
    const two = request({
      policy: { ...request().policy, requiredApprovals: 2 },
    });
    expect(decide(two, bob, 'approve', NOW)).toBe('pending');
    expect(
      decide({ ...two, decisions: [approval(bob.ref)] }, carol, 'approve', NOW),
    ).toBe('approved');
  });

  it('ends with one rejection', () => {
    expect(decide(request(), carol, 'reject', NOW)).toBe('rejected');
  });

  it('refuses the requester’s own approval unless the policy allows it, and then counts it', () => {
    const own = refused(() => decide(request(), alice, 'approve', NOW));
    expect([own.code, own.message]).toEqual(['forbidden', M.selfApproval]);
    const reject = refused(() => decide(request(), alice, 'reject', NOW));
    expect([reject.code, reject.message]).toEqual([
      'conflict',
      M.selfRejection,
    ]);

    const allowed = request({
      policy: { ...request().policy, allowSelfApproval: true },
    });
    expect(decide(allowed, alice, 'approve', NOW)).toBe('approved');
    expect(
      countedApprovals({ ...allowed, decisions: [approval(alice.ref)] }),
    ).toBe(1);
    expect(
      countedApprovals({ ...request(), decisions: [approval(alice.ref)] }),
    ).toBe(0);
  });

  it('refuses someone who is no approver, and a second decision by the same person', () => {
    const outsider = refused(() => decide(request(), erin, 'approve', NOW));
    expect([outsider.code, outsider.message]).toEqual([
      'forbidden',
      M.notApprover,
    ]);
    const two = request({
      policy: { ...request().policy, requiredApprovals: 2 },
      decisions: [approval(bob.ref)],
    });
    const again = refused(() => decide(two, bob, 'approve', NOW));
    expect([again.code, again.message]).toEqual(['conflict', M.alreadyDecided]);
    expect(refused(() => decide(two, bob, 'reject', NOW)).message).toBe(
      M.alreadyDecided,
    );
  });

  it('approves by a user named among the approvers too, not only through a group', () => {
    const named = request({
      policy: { ...request().policy, approvers: [erin.ref] },
    });
    expect(decide(named, erin, 'approve', NOW)).toBe('approved');
  });

  it('takes no decision once the request is being applied, has ended or has expired', () => {
    const applying = refused(() =>
      decide(request({ state: 'approved' }), bob, 'approve', NOW),
    );
    expect([applying.code, applying.message]).toEqual([
      'conflict',
      M.notPending,
    ]);
    for (const state of [
      'applied',
      'rejected',
      'withdrawn',
      'expired',
      'stale',
      'bypassed',
    ] as const) {
      expect(
        refused(() => decide(request({ state }), bob, 'approve', NOW)).message,
      ).toBe(M.notOpen);
    }
    const late = refused(() =>
      decide(request({ expiresAt: NOW.toISOString() }), bob, 'approve', NOW),
    );
    expect([late.code, late.message]).toEqual(['conflict', M.expired]);
  });

  it('lets the requester or an administrator withdraw a waiting request, nobody else', () => {
    expect(() => admitWithdrawal(request(), alice, false)).not.toThrow();
    expect(() => admitWithdrawal(request(), carol, true)).not.toThrow();
    const other = refused(() => admitWithdrawal(request(), bob, false));
    expect([other.code, other.message]).toEqual(['forbidden', M.notRequester]);
    expect(
      refused(() =>
        admitWithdrawal(request({ state: 'applied' }), alice, false),
      ).message,
    ).toBe(M.notOpen);
  });

  it('lets only the bypass groups of a soft policy bypass', () => {
    const soft = request({
      policy: {
        ...request().policy,
        enforcement: 'soft',
        bypassGroups: ['group:default/oncall'],
      },
    });
    expect(() => admitBypass(soft, erin, NOW)).not.toThrow();
    const notOncall = refused(() => admitBypass(soft, bob, NOW));
    expect([notOncall.code, notOncall.message]).toEqual([
      'forbidden',
      M.notBypasser,
    ]);
    const hard = refused(() => admitBypass(request(), erin, NOW));
    expect([hard.code, hard.message]).toEqual(['forbidden', M.hardPolicy]);
    expect(
      refused(() =>
        admitBypass({ ...soft, expiresAt: NOW.toISOString() }, erin, NOW),
      ).message,
    ).toBe(M.expired);
  });

  it('takes reasons and comments of at most 1,000 characters without control characters', () => {
    expect(parseChangeText('  rotate\nnow  ', 'reason', true)).toBe(
      'rotate\nnow',
    );
    expect(parseChangeText(undefined, 'comment', false)).toBe('');
    expect(parseChangeText('x'.repeat(1000), 'comment', false)).toHaveLength(
      1000,
    );
    for (const [raw, message] of [
      [undefined, '"reason" is required.'],
      ['   ', '"reason" is required.'],
      [7, '"reason" must be text.'],
      ['x'.repeat(1001), '"reason" must be at most 1000 characters.'],
      ['x'.repeat(5_000_000), '"reason" must be at most 1000 characters.'],
      ['a\u0000b', '"reason" must not hold control characters.'],
      ['a\rb', '"reason" must not hold control characters.'],
      ['a\u2028b', '"reason" must not hold control characters.'],
    ] as const) {
      const err = refused(() => parseChangeText(raw, 'reason', true));
      expect([err.code, err.message]).toEqual(['invalid_request', message]);
    }
  });

  it('takes a change reason out of a body, leaving the body its own parser knows', () => {
    expect(
      splitChangeReason({ version: 3, changeReason: ' undo the rotation ' }),
    ).toEqual({ body: { version: 3 }, changeReason: 'undo the rotation' });
    const plain = { version: 3 };
    expect(splitChangeReason(plain)).toEqual({ body: plain, changeReason: '' });
    // What is not an object is left to the write's parser, which refuses it as it always has.
    for (const raw of [undefined, null, 'text', [1]])
      expect(splitChangeReason(raw)).toEqual({ body: raw, changeReason: '' });
    const err = refused(() => splitChangeReason({ changeReason: 'a\u0000b' }));
    expect(err.message).toBe(
      '"changeReason" must not hold control characters.',
    );
  });

  it('describes a policy for a summary, with nobody to approve where nobody may', () => {
    const owners: ApprovalPolicy = {
      requiredApprovals: 2,
      approvers: { kind: 'owners' },
      allowSelfApproval: false,
      expiresAfterHours: 24,
      enforcement: 'hard',
      bypassGroups: [],
      source: 'annotation',
      annotationProblem: 'bad value',
    };
    expect(describeApproval(owners, [bob.ref])).toEqual({
      requiredApprovals: 2,
      approvers: [bob.ref],
      allowSelfApproval: false,
      enforcement: 'hard',
      bypassGroups: [],
      expiresAfterHours: 24,
      annotationProblem: 'bad value',
    });
    expect(describeApproval(owners, []).approvers).toEqual([]);
  });

  it('reads a decision body: the one text field it names, nothing else', () => {
    expect(parseChangeTextBody(undefined, 'comment', false)).toBe('');
    expect(parseChangeTextBody({ comment: ' fine ' }, 'comment', false)).toBe(
      'fine',
    );
    for (const [raw, message] of [
      [{}, '"reason" is required.'],
      [[], 'The request body must be a JSON object.'],
      [
        { reason: 'x', comment: 'y' },
        'Unknown field "comment" in the request body.',
      ],
      [
        { reason: 'x', ['k'.repeat(100)]: 1 },
        `Unknown field "${'k'.repeat(64)}" in the request body.`,
      ],
    ] as const) {
      const err = refused(() => parseChangeTextBody(raw, 'reason', true));
      expect([err.code, err.message]).toEqual(['invalid_request', message]);
    }
  });
});
