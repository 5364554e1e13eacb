import {
  FaultProxy,
  startFaultProxy,
  testClusterState,
  useTestNamespace,
} from '@krypton/kube-testenv';
import request from 'supertest';
import { AdminClient } from './__testUtils__/rbac';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from './__testUtils__/testBackend';

// Upstream failure bodies can quote anything; none of it may reach a client, a log or an audit.
const UPSTREAM_CANARY = 'upstream-canary-41c9';

describe('Kubernetes failures, through a fault-injecting proxy', () => {
  const ns = useTestNamespace();
  const admin = new AdminClient();
  let proxy: FaultProxy;
  let krypton: KryptonTestBackend;
  const secretPath = () => `/api/krypton/namespaces/${ns.name}/secrets/target`;
  const secretsApiPath = () => `/api/v1/namespaces/${ns.name}/secrets/target`;
  let rv: string;

  beforeAll(async () => {
    const state = testClusterState();
    proxy = await startFaultProxy({
      target: state.server,
      caFile: state.caFile || undefined,
    });
    krypton = await startKryptonBackend(
      { kubernetes: { identity: 'serviceAccount' } },
      { clusterUrl: proxy.url },
    );
    rv = (
      await admin.createSecret(ns.name, {
        metadata: {
          name: 'target',
          labels: { 'krypton.io/managed-by': 'krypton' },
        },
        data: { k: 'dg==' },
      })
    ).metadata.resourceVersion;
  });
  afterEach(() => proxy.clear());
  afterAll(async () => {
    await krypton.stop();
    await proxy.close();
    admin.close();
  });

  const get = () =>
    request(krypton.server).get(secretPath()).set('Authorization', as('root'));

  it('passes requests through when no fault is injected', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(proxy.seen).toContain(`GET ${secretsApiPath()}`);
  });

  it.each([
    [500, 503, 'Kubernetes is unavailable. Try again later.'],
    [502, 503, 'Kubernetes is unavailable. Try again later.'],
    [401, 503, 'Kubernetes is unavailable. Try again later.'],
    [429, 429, 'Kubernetes is rate-limiting requests. Try again later.'],
  ])(
    'maps an upstream %i to %i with a fixed message',
    async (upstream, status, error) => {
      proxy.inject({
        method: 'GET',
        path: /\/secrets\/target$/,
        action: {
          respond: {
            status: upstream,
            body: JSON.stringify({
              kind: 'Status',
              message: `boom ${UPSTREAM_CANARY}`,
            }),
          },
        },
      });
      const res = await get();
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ error });
    },
  );

  it('treats a malformed success body as unavailable, not as data', async () => {
    proxy.inject({
      method: 'GET',
      path: /\/secrets\/target$/,
      action: { respond: { status: 200, body: `not json ${UPSTREAM_CANARY}` } },
    });
    const res = await get();
    expect(res.status).toBe(503);
  });

  it('reports a connection reset during a write as unavailable and leaves the object as it was', async () => {
    proxy.inject({
      method: 'PUT',
      path: /\/secrets\/target$/,
      action: { reset: true },
    });
    const res = await request(krypton.server)
      .put(secretPath())
      .set('Authorization', as('root'))
      .send({ resourceVersion: rv, data: { k: 'changed' } });
    expect(res.status).toBe(503);
    const native = await admin.getSecret(ns.name, 'target');
    expect(
      (native.body as { metadata: { resourceVersion: string } }).metadata
        .resourceVersion,
    ).toBe(rv);
  });

  it('keeps upstream payloads out of responses, logs and audit events', async () => {
    proxy.inject({
      path: /\/secrets/,
      action: {
        respond: {
          status: 500,
          body: JSON.stringify({ message: UPSTREAM_CANARY }),
        },
      },
    });
    const res = await get();
    expect(JSON.stringify(res.body)).not.toContain(UPSTREAM_CANARY);
    expect(krypton.sink.audits.length).toBeGreaterThan(0);
    expect(krypton.sink.text()).not.toContain(UPSTREAM_CANARY);
  });
});

describe('two backend instances racing on one Secret', () => {
  const ns = useTestNamespace();
  const admin = new AdminClient();
  let first: KryptonTestBackend;
  let second: KryptonTestBackend;

  beforeAll(async () => {
    const config = { kubernetes: { identity: 'serviceAccount' } };
    [first, second] = await Promise.all([
      startKryptonBackend(config),
      startKryptonBackend(config),
    ]);
  });
  afterAll(async () => {
    await Promise.all([first.stop(), second.stop()]);
    admin.close();
  });

  it('lets exactly one of two updates from the same revision win; the other gets 409', async () => {
    const native = await admin.createSecret(ns.name, {
      metadata: {
        name: 'contended',
        labels: { 'krypton.io/managed-by': 'krypton' },
      },
      data: { k: 'dg==' },
    });
    const rv = native.metadata.resourceVersion;
    const path = `/api/krypton/namespaces/${ns.name}/secrets/contended`;
    const results = await Promise.all(
      [first, second].map((b, i) =>
        request(b.server)
          .put(path)
          .set('Authorization', as('root'))
          .send({ resourceVersion: rv, data: { k: `from-${i}` } }),
      ),
    );
    expect(results.map(r => r.status).sort()).toEqual([200, 409]);
    const winner = results.find(r => r.status === 200)!;
    const final = await request(first.server)
      .get(path)
      .set('Authorization', as('root'));
    expect(final.body.data.k).toBe(winner.body.data.k);
    expect(final.body.version).toBe(2);
  });
});
