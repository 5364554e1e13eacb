import {
  ClusterAdmin,
  eventually,
  useTestNamespace,
} from '@krypton/kube-testenv';
import request from 'supertest';
import { b64 } from '../../__testUtils__/history';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from '../../__testUtils__/testBackend';

const MANAGED = { 'krypton.io/managed-by': 'krypton' };
/** Stands for External Secrets' hash of the data: its key is evidence, its value never shown. */
const DATA_HASH = 'owner-datahash-91c2';

const controller = (apiVersion: string, kind: string) => ({
  ownerReferences: [
    {
      apiVersion,
      kind,
      name: 'source',
      uid: '6f1c2a3b-4d5e-4f60-8a1b-2c3d4e5f6a7b',
      controller: true,
    },
  ],
});

/** Each tool's exact metadata on a Secret, and the owner that Krypton serves for it. */
const OWNED: Array<[string, Record<string, unknown>, Record<string, unknown>]> =
  [
    [
      'eso-owned',
      controller('external-secrets.io/v1', 'ExternalSecret'),
      {
        tool: 'external-secrets',
        kind: 'ExternalSecret',
        name: 'source',
        outcome: 'reverted-at-once',
      },
    ],
    [
      'eso-merged',
      {
        labels: { 'reconcile.external-secrets.io/managed': 'true' },
        annotations: { 'reconcile.external-secrets.io/data-hash': DATA_HASH },
      },
      {
        tool: 'external-secrets',
        outcome: 'reverted-at-once-or-refresh',
        evidence: [
          'reconcile.external-secrets.io/managed',
          'reconcile.external-secrets.io/data-hash',
        ],
      },
    ],
    [
      'sealed',
      controller('bitnami.com/v1alpha1', 'SealedSecret'),
      { tool: 'sealed-secrets', outcome: 'lost-later' },
    ],
    [
      'vault',
      {
        labels: { 'app.kubernetes.io/managed-by': 'hashicorp-vso' },
      },
      { tool: 'vault-secrets-operator', outcome: 'reverted-at-refresh' },
    ],
    [
      'infisical',
      controller('secrets.infisical.com/v1alpha1', 'InfisicalSecret'),
      { tool: 'infisical', outcome: 'lost-later' },
    ],
    [
      'argo',
      {
        annotations: {
          'argocd.argoproj.io/tracking-id': 'payments:/Secret:apps/argo',
        },
      },
      {
        tool: 'argocd',
        kind: 'Application',
        name: 'payments',
        outcome: 'reverted-at-sync',
      },
    ],
    [
      'flux',
      {
        labels: {
          'kustomize.toolkit.fluxcd.io/name': 'apps',
          'kustomize.toolkit.fluxcd.io/namespace': 'flux-system',
        },
        annotations: { 'kustomize.toolkit.fluxcd.io/ssa': 'IfNotPresent' },
      },
      {
        tool: 'flux',
        kind: 'Kustomization',
        name: 'apps',
        namespace: 'flux-system',
        outcome: 'kept',
        settings: ['kustomize.toolkit.fluxcd.io/ssa=IfNotPresent'],
      },
    ],
    [
      'helm',
      {
        labels: { 'app.kubernetes.io/managed-by': 'Helm' },
        annotations: {
          'meta.helm.sh/release-name': 'api',
          'meta.helm.sh/release-namespace': 'apps',
        },
      },
      {
        tool: 'helm',
        kind: 'Release',
        name: 'api',
        namespace: 'apps',
        outcome: 'reverted-at-upgrade',
      },
    ],
    [
      'tls',
      { annotations: { 'cert-manager.io/certificate-name': 'web' } },
      {
        tool: 'cert-manager',
        kind: 'Certificate',
        name: 'web',
        outcome: 'replaced-at-once',
      },
    ],
    [
      'widget',
      controller('example.com/v1', 'Widget'),
      { tool: 'controller', kind: 'Widget', outcome: 'unknown' },
    ],
  ];

describe('the owner of a Secret, served from its metadata', () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  let krypton: KryptonTestBackend;
  const secrets = () => `/api/krypton/namespaces/${ns.name}/secrets`;
  const get = (path: string) =>
    request(krypton.server).get(path).set('Authorization', as('alice'));

  beforeAll(async () => {
    krypton = await startKryptonBackend();
    await admin.grantSecrets(ns.name, {
      kind: 'User',
      name: 'user:default/alice',
    });
    for (const [name, metadata] of OWNED) {
      const extra = metadata as { labels?: object };
      await admin.createSecret(ns.name, {
        metadata: {
          ...metadata,
          name,
          labels: { ...MANAGED, ...extra.labels },
        },
        data: { k: b64('v') },
      });
    }
    await admin.createSecret(ns.name, {
      metadata: { name: 'plain', labels: MANAGED },
      data: { k: b64('v') },
    });
    await eventually(
      () => get(secrets()),
      r => r.status === 200,
    );
  });
  afterAll(async () => {
    await krypton.stop();
    admin.close();
  });

  it.each(OWNED)(
    'names the owner of %s in the summary, the list item and the answer with the values',
    async (name, _metadata, owner) => {
      const summary = await get(`${secrets()}/${name}/summary`);
      expect(summary.status).toBe(200);
      expect(summary.body.owner).toMatchObject(owner);
      const full = await get(`${secrets()}/${name}`);
      expect(full.body.owner).toEqual(summary.body.owner);
      const list = await get(secrets());
      const item = list.body.items.find(
        (i: { name: string }) => i.name === name,
      );
      expect(item.owner).toEqual(summary.body.owner);
    },
  );

  it('tells an agent the owner through the get-secret-summary and list-secrets actions', async () => {
    const actions = '/api/krypton/.backstage/actions/v1/actions';
    const invoke = (action: string, input: object) =>
      request(krypton.server)
        .post(`${actions}/krypton:${action}/invoke`)
        .set('Authorization', as('alice'))
        .send(input);
    const summary = await invoke('get-secret-summary', {
      namespace: ns.name,
      name: 'flux',
    });
    expect(summary.status).toBe(200);
    expect(summary.body.output.secret.owner).toEqual({
      tool: 'flux',
      kind: 'Kustomization',
      name: 'apps',
      namespace: 'flux-system',
      outcome: 'kept',
      evidence: ['kustomize.toolkit.fluxcd.io/name'],
      settings: ['kustomize.toolkit.fluxcd.io/ssa=IfNotPresent'],
      edits: 'allowed',
    });
    const listed = await invoke('list-secrets', { namespace: ns.name });
    expect(listed.status).toBe(200);
    const sealed = listed.body.output.items.find(
      (i: { name: string }) => i.name === 'sealed',
    );
    expect(sealed.owner).toMatchObject({
      tool: 'sealed-secrets',
      outcome: 'lost-later',
    });
  });

  it('claims no owner for a Secret that no tool owns, and never shows the data hash', async () => {
    const summary = await get(`${secrets()}/plain/summary`);
    expect(summary.status).toBe(200);
    expect(summary.body).not.toHaveProperty('owner');
    const list = await get(secrets());
    expect(JSON.stringify(list.body)).not.toContain(DATA_HASH);
    const eso = await get(`${secrets()}/eso-merged/summary`);
    expect(JSON.stringify(eso.body)).not.toContain(DATA_HASH);
  });
});
