import { recognizeOwner } from './secretOwner';
import { ObjectMeta } from './types';

const meta = (extra: Partial<ObjectMeta>): ObjectMeta => ({
  name: 'db',
  namespace: 'team',
  ...extra,
});

const controlledBy = (apiVersion: string, kind: string, name = 'source') =>
  meta({
    ownerReferences: [{ apiVersion, kind, name, uid: 'u-1', controller: true }],
  });

describe('recognizeOwner', () => {
  it.each([
    [
      'external-secrets.io/v1',
      'ExternalSecret',
      'external-secrets',
      'reverted-at-once',
    ],
    ['bitnami.com/v1alpha1', 'SealedSecret', 'sealed-secrets', 'lost-later'],
    [
      'secrets.hashicorp.com/v1beta1',
      'VaultStaticSecret',
      'vault-secrets-operator',
      'reverted-at-refresh',
    ],
    [
      'secrets.hashicorp.com/v1beta1',
      'VaultDynamicSecret',
      'vault-secrets-operator',
      'reverted-at-refresh',
    ],
    [
      'secrets.infisical.com/v1alpha1',
      'InfisicalSecret',
      'infisical',
      'lost-later',
    ],
    [
      'secrets.infisical.com/v1beta1',
      'InfisicalStaticSecret',
      'infisical',
      'lost-later',
    ],
    ['cert-manager.io/v1', 'Certificate', 'cert-manager', 'replaced-at-once'],
    ['example.com/v1', 'Widget', 'controller', 'unknown'],
  ])('names the controlling owner %s %s', (apiVersion, kind, tool, outcome) => {
    expect(recognizeOwner(controlledBy(apiVersion, kind))).toEqual({
      tool,
      kind,
      name: 'source',
      outcome,
      edits: 'refused',
      evidence: ['ownerReferences'],
    });
  });

  it('takes a kind only with its own API group: a look-alike is another controller', () => {
    expect(
      recognizeOwner(controlledBy('example.com/v1', 'ExternalSecret')),
    ).toMatchObject({ tool: 'controller', outcome: 'unknown' });
  });

  it('ignores owner references that do not control the Secret', () => {
    expect(
      recognizeOwner(
        meta({
          ownerReferences: [
            {
              apiVersion: 'bitnami.com/v1alpha1',
              kind: 'SealedSecret',
              name: 's',
              uid: 'u',
            },
          ],
        }),
      ),
    ).toBeUndefined();
  });

  it('puts a controlling owner before every label and annotation', () => {
    const owned = controlledBy('bitnami.com/v1alpha1', 'SealedSecret');
    owned.labels = {
      'app.kubernetes.io/managed-by': 'Helm',
      'kustomize.toolkit.fluxcd.io/name': 'apps',
    };
    owned.annotations = { 'argocd.argoproj.io/tracking-id': 'a:/Secret:t/db' };
    expect(recognizeOwner(owned)?.tool).toBe('sealed-secrets');
  });

  it('recognises External Secrets without an owner reference by its label or its hash', () => {
    for (const extra of [
      { labels: { 'reconcile.external-secrets.io/managed': 'true' } },
      { annotations: { 'reconcile.external-secrets.io/data-hash': 'abc' } },
    ]) {
      expect(recognizeOwner(meta(extra))).toEqual({
        tool: 'external-secrets',
        kind: 'ExternalSecret',
        outcome: 'reverted-at-once-or-refresh',
        edits: 'refused',
        evidence: [
          ...Object.keys(extra.labels ?? {}),
          ...Object.keys(extra.annotations ?? {}),
        ],
      });
    }
    // The hash is evidence by its key only: its value, derived from the data, is never copied.
    expect(
      JSON.stringify(
        recognizeOwner(
          meta({
            annotations: {
              'reconcile.external-secrets.io/data-hash': 'hash-of-values',
            },
          }),
        ),
      ),
    ).not.toContain('hash-of-values');
  });

  it('recognises Sealed Secrets, Vault Secrets Operator, Argo CD, Helm and cert-manager by their keys', () => {
    expect(
      recognizeOwner(
        meta({ annotations: { 'sealedsecrets.bitnami.com/managed': 'true' } }),
      ),
    ).toMatchObject({ tool: 'sealed-secrets', outcome: 'lost-later' });
    expect(
      recognizeOwner(
        meta({ labels: { 'app.kubernetes.io/managed-by': 'hashicorp-vso' } }),
      ),
    ).toMatchObject({
      tool: 'vault-secrets-operator',
      outcome: 'reverted-at-refresh',
      edits: 'refused',
    });
    expect(
      recognizeOwner(
        meta({
          annotations: {
            'argocd.argoproj.io/tracking-id': 'payments:/Secret:team/db',
          },
        }),
      ),
    ).toEqual({
      tool: 'argocd',
      kind: 'Application',
      name: 'payments',
      outcome: 'reverted-at-sync',
      edits: 'refused',
      evidence: ['argocd.argoproj.io/tracking-id'],
    });
    expect(
      recognizeOwner(
        meta({
          labels: { 'app.kubernetes.io/managed-by': 'Helm' },
          annotations: {
            'meta.helm.sh/release-name': 'api',
            'meta.helm.sh/release-namespace': 'apps',
          },
        }),
      ),
    ).toEqual({
      tool: 'helm',
      kind: 'Release',
      name: 'api',
      namespace: 'apps',
      outcome: 'reverted-at-upgrade',
      edits: 'refused',
      evidence: ['app.kubernetes.io/managed-by', 'meta.helm.sh/release-name'],
    });
    expect(
      recognizeOwner(
        meta({ annotations: { 'cert-manager.io/certificate-name': 'web' } }),
      ),
    ).toMatchObject({
      tool: 'cert-manager',
      kind: 'Certificate',
      name: 'web',
      outcome: 'replaced-at-once',
      edits: 'refused',
    });
  });

  it("needs Helm's release name beside its managed-by label", () => {
    expect(
      recognizeOwner(
        meta({ labels: { 'app.kubernetes.io/managed-by': 'Helm' } }),
      ),
    ).toBeUndefined();
  });

  it("reads Flux's Kustomization and the settings that make it leave the Secret", () => {
    const labels = {
      'kustomize.toolkit.fluxcd.io/name': 'apps',
      'kustomize.toolkit.fluxcd.io/namespace': 'flux-system',
    };
    expect(recognizeOwner(meta({ labels }))).toEqual({
      tool: 'flux',
      kind: 'Kustomization',
      name: 'apps',
      namespace: 'flux-system',
      outcome: 'reverted-at-refresh',
      edits: 'refused',
      evidence: ['kustomize.toolkit.fluxcd.io/name'],
    });
    for (const [annotations, outcome] of [
      [{ 'kustomize.toolkit.fluxcd.io/reconcile': 'disabled' }, 'kept'],
      [{ 'kustomize.toolkit.fluxcd.io/ssa': 'IfNotPresent' }, 'kept'],
      [{ 'kustomize.toolkit.fluxcd.io/ssa': 'Ignore' }, 'kept'],
      [{ 'kustomize.toolkit.fluxcd.io/ssa': 'Merge' }, 'reverted-at-refresh'],
      [
        { 'kustomize.toolkit.fluxcd.io/ssa': 'Override' },
        'reverted-at-refresh',
      ],
    ] as const) {
      const owner = recognizeOwner(meta({ labels, annotations }));
      expect(owner?.outcome).toBe(outcome);
      expect(owner?.settings).toEqual(
        Object.entries(annotations).map(([k, v]) => `${k}=${v}`),
      );
    }
    // Only values that Flux documents are taken: free text never reaches a summary through here.
    expect(
      recognizeOwner(
        meta({
          labels,
          annotations: { 'kustomize.toolkit.fluxcd.io/ssa': 'anything else' },
        }),
      ),
    ).not.toHaveProperty('settings');
    // Flux reads its reconcile setting from a label too.
    expect(
      recognizeOwner(
        meta({
          labels: {
            ...labels,
            'kustomize.toolkit.fluxcd.io/reconcile': 'disabled',
          },
        }),
      )?.outcome,
    ).toBe('kept');
  });

  it("reads Flux's HelmRelease, whose next upgrade writes its state", () => {
    expect(
      recognizeOwner(
        meta({
          labels: {
            'helm.toolkit.fluxcd.io/name': 'api',
            'helm.toolkit.fluxcd.io/namespace': 'apps',
          },
          annotations: { 'helm.toolkit.fluxcd.io/driftDetection': 'disabled' },
        }),
      ),
    ).toEqual({
      tool: 'flux',
      kind: 'HelmRelease',
      name: 'api',
      namespace: 'apps',
      outcome: 'reverted-at-upgrade',
      edits: 'refused',
      evidence: ['helm.toolkit.fluxcd.io/name'],
      settings: ['helm.toolkit.fluxcd.io/driftDetection=disabled'],
    });
  });

  it('claims nothing for a Secret that no tool owns', () => {
    expect(recognizeOwner(meta({}))).toBeUndefined();
    expect(
      recognizeOwner(
        meta({
          labels: { app: 'db', 'app.kubernetes.io/managed-by': 'kustomize' },
          annotations: { 'sealedsecrets.bitnami.com/managed': 'false' },
          managedFields: [
            {
              manager: 'kubectl-edit',
              operation: 'Update',
              time: '2026-12-05T10:00:00Z',
            },
          ],
        }),
      ),
    ).toBeUndefined();
  });
});
