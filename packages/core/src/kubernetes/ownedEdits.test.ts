import { KryptonError } from '../errors';
import { ownedEditReasonProblem, parseOwnedEditReason } from '../validation';
import { admitOwnedEdit, describeOwner } from './ownedEdits';
import { dataAppliedBy } from './secretFacts';
import { recognizeOwner } from './secretOwner';
import { ObjectMeta } from './types';

const ESO: ObjectMeta = {
  name: 'db',
  namespace: 'team',
  ownerReferences: [
    {
      apiVersion: 'external-secrets.io/v1',
      kind: 'ExternalSecret',
      name: 'db-source',
      uid: 'u-1',
      controller: true,
    },
  ],
};

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(KryptonError);
    return err as KryptonError;
  }
  throw new Error('expected a refusal');
};

describe('the rule for edits of owned Secrets', () => {
  it('refuses every edit of an owned Secret by default, naming the owner and what it would do', () => {
    for (const operation of ['update', 'restore', 'adopt', 'delete'] as const) {
      const err = refusal(() => admitOwnedEdit(ESO, operation, 'why', {}));
      expect(err.status).toBe(409);
      expect(err.message).toBe(
        `This Secret is owned by External Secrets (ExternalSecret db-source), which writes its own data back within seconds. Krypton does not ${operation} a Secret that another tool owns on this deployment: change it at its source.`,
      );
    }
  });

  it("asks for a reason where the installation allows the owner's edits, and returns it with the owner", () => {
    const err = refusal(() =>
      admitOwnedEdit(ESO, 'update', undefined, {
        allowEdits: ['external-secrets'],
      }),
    );
    expect(err.status).toBe(409);
    expect(err.message).toBe(
      'This Secret is owned by External Secrets (ExternalSecret db-source), which writes its own data back within seconds. To update it through Krypton anyway, give your reason ("ownedEditReason").',
    );
    expect(
      admitOwnedEdit(ESO, 'update', 'store is down', {
        allowEdits: ['external-secrets'],
      }),
    ).toEqual({
      owner: expect.objectContaining({
        tool: 'external-secrets',
        edits: 'reason-required',
      }),
      reason: 'store is down',
    });
    // Allowing another tool changes nothing for this one.
    expect(
      refusal(() =>
        admitOwnedEdit(ESO, 'delete', 'why', { allowEdits: ['helm'] }),
      ).message,
    ).toContain('Krypton does not delete');
  });

  it('lets through an edit that lasts, and a Secret that no tool owns', () => {
    const kept: ObjectMeta = {
      name: 'cfg',
      labels: { 'kustomize.toolkit.fluxcd.io/name': 'apps' },
      annotations: { 'kustomize.toolkit.fluxcd.io/reconcile': 'disabled' },
    };
    expect(recognizeOwner(kept)?.edits).toBe('allowed');
    expect(admitOwnedEdit(kept, 'update', undefined, {})).toBeUndefined();
    expect(admitOwnedEdit({ name: 'plain' }, 'delete', undefined, {})).toBe(
      undefined,
    );
  });

  it("takes Argo CD's instance label only where the installation says Argo CD tracks by it", () => {
    const labelled: ObjectMeta = {
      name: 'db',
      labels: {
        'app.kubernetes.io/instance': 'payments',
        'app.kubernetes.io/managed-by': 'Helm',
      },
      annotations: { 'meta.helm.sh/release-name': 'payments' },
    };
    // Helm charts set the same label: without the setting it is Helm's.
    expect(recognizeOwner(labelled)?.tool).toBe('helm');
    expect(
      recognizeOwner(labelled, {
        argoCdInstanceLabel: 'app.kubernetes.io/instance',
      }),
    ).toEqual({
      tool: 'argocd',
      kind: 'Application',
      name: 'payments',
      outcome: 'reverted-at-sync',
      evidence: ['app.kubernetes.io/instance'],
      edits: 'refused',
    });
    // The tracking annotation still wins, and a Secret without the label is not Argo CD's.
    expect(
      recognizeOwner(
        {
          ...labelled,
          annotations: {
            'argocd.argoproj.io/tracking-id': 'orders:/Secret:team/db',
          },
        },
        { argoCdInstanceLabel: 'app.kubernetes.io/instance' },
      )?.name,
    ).toBe('orders');
    expect(
      recognizeOwner({ name: 'plain' }, { argoCdInstanceLabel: 'team' }),
    ).toBeUndefined();
  });

  it('names an owner only by a name an object can have', () => {
    const helm = (release: string): ObjectMeta => ({
      name: 'api',
      labels: { 'app.kubernetes.io/managed-by': 'Helm' },
      annotations: { 'meta.helm.sh/release-name': release },
    });
    expect(recognizeOwner(helm('api'))?.name).toBe('api');
    const odd = recognizeOwner(helm('see https://x.example/?q=1 now'));
    expect(odd).toMatchObject({ tool: 'helm', kind: 'Release' });
    expect(odd).not.toHaveProperty('name');
    expect(describeOwner(odd!)).toBe('Helm (Release)');
    expect(recognizeOwner(helm('x'.repeat(254)))).not.toHaveProperty('name');
    // Argo CD's apps in any namespace: <namespace>_<app>.
    expect(
      recognizeOwner({
        name: 's',
        annotations: {
          'argocd.argoproj.io/tracking-id': 'team_payments:/Secret:team/s',
        },
      })?.name,
    ).toBe('team_payments');
  });
});

describe('dataAppliedBy', () => {
  const entry = (manager: string, operation: string, fieldsV1: object) => ({
    manager,
    operation,
    fieldsV1,
  });

  it('names the managers that server-side apply data fields, other than Krypton, once each', () => {
    expect(
      dataAppliedBy({
        name: 's',
        managedFields: [
          entry('helm', 'Apply', { 'f:data': { 'f:password': {} } }),
          entry('argocd-controller', 'Apply', { 'f:stringData': {} }),
          entry('helm', 'Apply', { 'f:data': {} }),
          entry('krypton', 'Apply', { 'f:data': {} }),
          entry('kubectl-edit', 'Update', { 'f:data': {} }),
          entry('labeller', 'Apply', { 'f:metadata': { 'f:labels': {} } }),
          'not an entry',
          entry('', 'Apply', { 'f:data': {} }),
        ],
      }),
    ).toEqual(['argocd-controller', 'helm']);
    expect(dataAppliedBy({ name: 's' })).toEqual([]);
  });
});

describe('parseOwnedEditReason', () => {
  it('takes one line of 1 to 500 characters', () => {
    expect(parseOwnedEditReason(undefined)).toBeUndefined();
    expect(parseOwnedEditReason('Vault is down; INC-42')).toBe(
      'Vault is down; INC-42',
    );
    expect(parseOwnedEditReason('é'.repeat(500))).toHaveLength(500);
    for (const bad of [
      '',
      '   ',
      'x'.repeat(501),
      'two\nlines',
      'tab\there',
      'nul\u0000',
      'c1\u0085',
      'sep\u2028',
      '\ud800 lone surrogate',
      42,
      ['a'],
    ]) {
      expect(() => parseOwnedEditReason(bad)).toThrow(
        '"ownedEditReason" must be a reason of 1 to 500 characters, on one line.',
      );
    }
  });
});

describe('ownedEditReasonProblem', () => {
  it.each<[string, string, string | undefined]>([
    ['empty', '', 'required'],
    ['blank', '   ', 'required'],
    [
      'a sentence',
      'Rotating the leaked key now; ESO sync is broken',
      undefined,
    ],
    ['500 characters', 'x'.repeat(500), undefined],
    ['501 characters', 'x'.repeat(501), 'tooLong'],
    ['two lines', 'two\nlines', 'oneLine'],
    ['a control character', 'a\u0007bell', 'oneLine'],
    ['a line separator', 'a\u2028break', 'oneLine'],
    ['half a surrogate pair', 'half \uD800 pair', 'oneLine'],
    ['an emoji', 'emoji 🔑 is text', undefined],
  ])('%s', (_label, reason, problem) => {
    expect(ownedEditReasonProblem(reason)).toBe(problem);
  });
});
