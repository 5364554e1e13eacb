import { SecretAction, SecretOwner, messages } from '@krypton/core';
import { englishT } from '../../__testUtils__/englishT';
import {
  AccessInputs,
  SECRET_ACTIONS,
  decideActions as decideActionsIn,
  limitByOwner,
  secretRole,
} from './decide';

const t = englishT();
const decideActions = (i: AccessInputs) => decideActionsIn(i, t);

const alice = {
  userEntityRef: 'user:default/alice',
  ownershipEntityRefs: ['group:default/team-a'],
};
const allPermitted = Object.fromEntries(
  SECRET_ACTIONS.map(a => [a, true]),
) as Record<SecretAction, boolean>;
const none = { owners: [], editors: [], viewers: [] };

function inputs(overrides: Partial<AccessInputs> = {}): AccessInputs {
  return {
    rules: { ...none, owners: ['group:default/team-a'] },
    principal: alice,
    identityMode: 'impersonation',
    restartEnabled: true,
    served: true,
    permitted: allPermitted,
    ...overrides,
  };
}

const allowedActions = (i: AccessInputs) =>
  SECRET_ACTIONS.filter(a => decideActions(i)[a].allowed);

describe('decideActions', () => {
  it('lets owners do everything and names the role', () => {
    expect(allowedActions(inputs())).toEqual(SECRET_ACTIONS);
    expect(secretRole(inputs())).toBe('owner');
  });

  it('gives editors and viewers their actions, with the reason for the rest', () => {
    const editor = inputs({
      rules: {
        ...none,
        owners: ['user:default/bob'],
        editors: ['group:default/team-a'],
      },
    });
    expect(allowedActions(editor)).toEqual([
      'read',
      'reveal',
      'update',
      'restore',
      'restart',
    ]);
    expect(secretRole(editor)).toBe('editor');
    expect(decideActions(editor).delete.reason).toBe(
      "Only the Secret's owners may do this.",
    );

    const viewer = inputs({
      rules: {
        ...none,
        owners: ['user:default/bob'],
        viewers: ['user:default/alice'],
      },
    });
    expect(allowedActions(viewer)).toEqual(['read', 'reveal']);
    expect(secretRole(viewer)).toBe('viewer');
    expect(decideActions(viewer).update.reason).toBe(
      "Only the Secret's editors and owners may do this.",
    );
  });

  it('names the permission the policy denies', () => {
    const decisions = decideActions(
      inputs({ permitted: { ...allPermitted, reveal: false } }),
    );
    expect(decisions.reveal).toEqual({
      allowed: false,
      reason:
        'The Backstage permission policy does not grant krypton.secret.reveal.',
    });
    expect(decisions.read.allowed).toBe(true);
  });

  it('needs the update permission for restart too, as the backend does', () => {
    const decisions = decideActions(
      inputs({ permitted: { ...allPermitted, update: false } }),
    );
    expect(decisions.restart).toEqual({
      allowed: false,
      reason:
        'The Backstage permission policy does not grant krypton.secret.update.',
    });
    expect(decisions.restore.allowed).toBe(true);
  });

  it('reports a disabled restart first, as the backend does', () => {
    const decisions = decideActions(
      inputs({
        restartEnabled: false,
        permitted: { ...allPermitted, restart: false },
      }),
    );
    expect(decisions.restart.reason).toBe(`${messages.restartDisabled}.`);
  });

  it('leaves Secrets without rules to the other gates, except in serviceAccount mode', () => {
    const open = inputs({ rules: none, served: false });
    expect(allowedActions(open)).toEqual(SECRET_ACTIONS);
    expect(secretRole(open)).toBe('no-rules');
    const closed = inputs({
      rules: none,
      served: false,
      identityMode: 'serviceAccount',
    });
    expect(allowedActions(closed)).toEqual([]);
    expect(decideActions(closed).read.reason).toMatch(/only Krypton admins/);
  });

  it('treats a served Secret whose rules deny reading as served to an admin', () => {
    const rules = { ...none, owners: ['user:default/bob'] };
    expect(allowedActions(inputs({ rules, served: true }))).toEqual(
      SECRET_ACTIONS,
    );
    expect(secretRole(inputs({ rules, served: true }))).toBe('admin');
    expect(allowedActions(inputs({ rules, served: false }))).toEqual([]);
    expect(secretRole(inputs({ rules, served: false }))).toBe('none');
    const serviceAccount = inputs({
      rules: none,
      identityMode: 'serviceAccount',
    });
    expect(secretRole(serviceAccount)).toBe('admin');
  });

  it('still applies the permission policy to admins', () => {
    const rules = { ...none, owners: ['user:default/bob'] };
    const decisions = decideActions(
      inputs({ rules, permitted: { ...allPermitted, delete: false } }),
    );
    expect(decisions.update.allowed).toBe(true);
    expect(decisions.delete.allowed).toBe(false);
  });
});

describe('limitByOwner', () => {
  const helm = (edits?: SecretOwner['edits']): SecretOwner =>
    ({
      tool: 'helm',
      kind: 'Release',
      name: 'web',
      outcome: 'reverted-at-upgrade',
      evidence: ['app.kubernetes.io/managed-by', 'meta.helm.sh/release-name'],
      ...(edits ? { edits } : {}),
    } as SecretOwner);

  it("refuses every change of a Secret whose owner's rule refuses them, with the reason", () => {
    const limited = limitByOwner(decideActions(inputs()), helm('refused'), t);
    const refused = {
      allowed: false,
      reason:
        'Helm owns this Secret, and Krypton does not change a Secret that another tool owns.',
    };
    expect(limited.update).toEqual(refused);
    expect(limited.manageAccess).toEqual(refused);
    expect(limited.restore).toEqual(refused);
    expect(limited.delete).toEqual(refused);
    // Reading, revealing and restarting the consumers change nothing of the Secret.
    expect(limited.read.allowed).toBe(true);
    expect(limited.reveal.allowed).toBe(true);
    expect(limited.restart.allowed).toBe(true);
  });

  it('reads an owner without a rule, from an older backend, as refusing', () => {
    expect(
      limitByOwner(decideActions(inputs()), helm(), t).update.allowed,
    ).toBe(false);
  });

  it.each(['reason-required', 'allowed'] as const)(
    'leaves the decisions as they are for an owner whose rule is %s',
    edits => {
      const decisions = decideActions(inputs());
      expect(limitByOwner(decisions, helm(edits), t)).toBe(decisions);
    },
  );

  it('leaves the decisions of a Secret that no tool owns as they are', () => {
    const decisions = decideActions(inputs());
    expect(limitByOwner(decisions, undefined, t)).toBe(decisions);
  });
});
