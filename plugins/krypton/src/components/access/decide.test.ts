import { SecretAction, messages } from '@krypton/core';
import { englishT } from '../../__testUtils__/englishT';
import {
  AccessInputs,
  SECRET_ACTIONS,
  decideActions as decideActionsIn,
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
