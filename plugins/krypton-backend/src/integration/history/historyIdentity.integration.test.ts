import {
  FaultProxy,
  startFaultProxy,
  testClusterState,
  useTestNamespace,
  ClusterAdmin,
  eventually,
} from '@krypton/kube-testenv';
import request from 'supertest';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from '../../__testUtils__/testBackend';
import { b64 } from '../../__testUtils__/history';

// alice may read and update exactly one Secret, by name, and nothing else: she cannot write
// history herself. hybrid mode writes history as Krypton after her live checks pass;
// impersonation mode writes it as her, so Kubernetes refuses it and the live write never happens.
describe.each([
  {
    identity: 'impersonation',
    status: 403,
    historyAs: ['user:default/alice'],
    liveAs: ['user:default/alice'],
    data: 'v1',
    snapshots: 0,
    versionsStatus: 403,
  },
  {
    identity: 'hybrid',
    status: 200,
    historyAs: ['krypton', 'krypton'],
    liveAs: ['user:default/alice', 'user:default/alice'],
    data: 'v2',
    snapshots: 1,
    versionsStatus: 200,
  },
])(
  'history calls in $identity mode',
  ({
    identity,
    status,
    historyAs,
    liveAs,
    data,
    snapshots,
    versionsStatus,
  }) => {
    const ns = useTestNamespace();
    const admin = new ClusterAdmin();
    let proxy: FaultProxy;
    let krypton: KryptonTestBackend;
    const path = () => `/api/krypton/namespaces/${ns.name}/secrets/only-live`;

    beforeAll(async () => {
      const state = testClusterState();
      proxy = await startFaultProxy({
        target: state.server,
        caFile: state.caFile || undefined,
      });
      krypton = await startKryptonBackend(
        { kubernetes: { identity } },
        { clusterUrl: proxy.url },
      );
      await admin.createSecret(ns.name, {
        metadata: {
          name: 'only-live',
          labels: { 'krypton.io/managed-by': 'krypton' },
          annotations: { 'krypton.io/owners': 'user:default/alice' },
        },
        data: { k: b64('v1') },
      });
      await admin.grant(
        ns.name,
        'alice-one-secret',
        { kind: 'User', name: 'user:default/alice' },
        [
          {
            apiGroups: [''],
            resources: ['secrets'],
            resourceNames: ['only-live'],
            verbs: ['get', 'update'],
          },
        ],
      );
      await eventually(
        () =>
          request(krypton.server).get(path()).set('Authorization', as('alice')),
        r => r.status === 200,
      );
    });
    afterAll(async () => {
      await krypton.stop();
      await proxy.close();
      admin.close();
    });

    it('writes history with the identity of the mode, after the live checks as the user', async () => {
      const live = await request(krypton.server)
        .get(path())
        .set('Authorization', as('alice'));
      proxy.resetRecordings();
      const res = await request(krypton.server)
        .put(path())
        .set('Authorization', as('alice'))
        .send({
          resourceVersion: live.body.resourceVersion,
          data: { k: 'v2' },
        });
      const impersonated = (p: RegExp) =>
        proxy.requests
          .filter(r => p.test(r.path))
          .map(r => r.headers['impersonate-user']?.[0] ?? 'krypton');
      expect(res.status).toBe(status);
      expect(impersonated(/\/secrets\/only-live$/)).toEqual(liveAs);
      expect(impersonated(/\/secrets(\?|$)/)).toEqual(historyAs);
      expect((await admin.secret(ns.name, 'only-live')).data).toEqual({
        k: b64(data),
      });
      expect(await admin.snapshots(ns.name)).toHaveLength(snapshots);
      const versions = await request(krypton.server)
        .get(`${path()}/versions`)
        .set('Authorization', as('alice'));
      expect(versions.status).toBe(versionsStatus);
    });
  },
);

// Admission may change what is stored: a MutatingAdmissionPolicy on this control plane makes
// every history snapshot created in the namespace mutable. Krypton verifies the create answer,
// so it refuses to replace the live Secret behind a snapshot that is not what it asked for.
describe('a snapshot altered by admission', () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  let krypton: KryptonTestBackend;
  const policy = () => `krypton-test-${ns.name}`;
  const admission = '/apis/admissionregistration.k8s.io/v1';

  beforeAll(async () => {
    krypton = await startKryptonBackend({
      kubernetes: {
        identity: 'serviceAccount',
        serviceAccountMode: { namespaces: [ns.name] },
      },
    });
    const created = await admin.request({
      method: 'POST',
      path: `${admission}/mutatingadmissionpolicies`,
      body: {
        metadata: { name: policy() },
        spec: {
          failurePolicy: 'Fail',
          reinvocationPolicy: 'Never',
          matchConstraints: {
            resourceRules: [
              {
                apiGroups: [''],
                apiVersions: ['v1'],
                operations: ['CREATE'],
                resources: ['secrets'],
              },
            ],
          },
          matchConditions: [
            {
              name: 'history-only',
              expression:
                "has(object.metadata.labels) && 'krypton.io/kind' in object.metadata.labels",
            },
          ],
          mutations: [
            {
              patchType: 'ApplyConfiguration',
              applyConfiguration: { expression: 'Object{ immutable: false }' },
            },
          ],
        },
      },
    });
    if (created.status !== 201)
      throw new Error(`policy create failed: ${created.status}`);
    const bound = await admin.request({
      method: 'POST',
      path: `${admission}/mutatingadmissionpolicybindings`,
      body: {
        metadata: { name: policy() },
        spec: {
          policyName: policy(),
          matchResources: {
            namespaceSelector: {
              matchLabels: { 'kubernetes.io/metadata.name': ns.name },
            },
          },
        },
      },
    });
    if (bound.status !== 201)
      throw new Error(`binding create failed: ${bound.status}`);
    // Policies reach the admission chain through a watch: probe until this one applies.
    let probe = 0;
    const applied = await eventually(
      async () => {
        const name = `probe-${probe++}`;
        const res = await admin.request({
          method: 'POST',
          path: `/api/v1/namespaces/${ns.name}/secrets`,
          body: {
            metadata: { name, labels: { 'krypton.io/kind': 'probe' } },
            immutable: true,
          },
        });
        return (res.body as { immutable?: boolean }).immutable;
      },
      immutable => immutable === false,
      100,
    );
    if (applied !== false)
      throw new Error('the admission policy never applied');
  });
  afterAll(async () => {
    for (const kind of [
      'mutatingadmissionpolicybindings',
      'mutatingadmissionpolicies',
    ]) {
      await admin.request({
        method: 'DELETE',
        path: `${admission}/${kind}/${policy()}`,
      });
    }
    await krypton.stop();
    admin.close();
  });

  it('answers 409 and leaves the live Secret as it was', async () => {
    const base = `/api/krypton/namespaces/${ns.name}/secrets`;
    const created = await request(krypton.server)
      .post(base)
      .set('Authorization', as('root'))
      .send({ name: 'watched', data: { k: 'v1' } });
    expect(created.status).toBe(201);
    const res = await request(krypton.server)
      .put(`${base}/watched`)
      .set('Authorization', as('root'))
      .send({
        resourceVersion: created.body.resourceVersion,
        data: { k: 'v2' },
      });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(
      /already holds this version with other content/,
    );
    const live = await admin.secret(ns.name, 'watched');
    expect(live.metadata.resourceVersion).toBe(created.body.resourceVersion);
    expect(live.data).toEqual({ k: b64('v1') });
    // The altered snapshot is there, for an operator to review; Krypton never trusts it.
    const [snapshot] = await admin.snapshots(ns.name);
    expect(snapshot.immutable).toBe(false);
  });
});
