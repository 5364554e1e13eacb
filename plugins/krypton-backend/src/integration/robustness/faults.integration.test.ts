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
  testPolicy,
} from '../../__testUtils__/testBackend';

// Upstream failure bodies can quote anything; none of it may reach a client, a log or an audit.
const UPSTREAM_CANARY = 'upstream-canary-41c9';

describe('Kubernetes failures, through a fault-injecting proxy', () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
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

  it('reports a reset after the write reached Kubernetes as unavailable; a reload shows the real outcome', async () => {
    const before = await get();
    proxy.inject({
      method: 'PUT',
      path: /\/secrets\/target$/,
      action: { resetAfterForward: true },
      times: 1,
    });
    const res = await request(krypton.server)
      .put(secretPath())
      .set('Authorization', as('root'))
      .send({
        resourceVersion: before.body.resourceVersion,
        data: { k: 'landed' },
      });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      error: 'Kubernetes is unavailable. Try again later.',
    });
    // The write took effect although the client could not know: reload before retrying.
    const after = await get();
    expect(after.body.data).toEqual({ k: 'landed' });
    expect(after.body.version).toBe(before.body.version + 1);
    const retry = await request(krypton.server)
      .put(secretPath())
      .set('Authorization', as('root'))
      .send({
        resourceVersion: before.body.resourceVersion,
        data: { k: 'again' },
      });
    expect(retry.status).toBe(409);
    rv = after.body.resourceVersion;
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

  it.each([
    ['GET', 500, 503],
    ['GET', 403, 403],
    ['PUT', 409, 409],
    ['PUT', 422, 422],
    ['GET', 401, 503],
  ])(
    'keeps upstream payloads out of responses, logs and audit events (%s answered %i)',
    async (method, upstream, status) => {
      const current = await get();
      proxy.inject({
        method,
        path: /\/secrets\/target$/,
        action: {
          respond: {
            status: upstream,
            body: JSON.stringify({
              kind: 'Status',
              reason: UPSTREAM_CANARY,
              message: UPSTREAM_CANARY,
              details: { causes: [{ message: UPSTREAM_CANARY }] },
            }),
          },
        },
      });
      const res =
        method === 'GET'
          ? await get()
          : await request(krypton.server)
              .put(secretPath())
              .set('Authorization', as('root'))
              .send({
                resourceVersion: current.body.resourceVersion,
                data: { k: 'x' },
              });
      expect(res.status).toBe(status);
      expect(Object.keys(res.body)).toEqual(['error']);
      expect(JSON.stringify(res.body)).not.toContain(UPSTREAM_CANARY);
      expect(krypton.sink.audits.length).toBeGreaterThan(0);
      expect(krypton.sink.text()).not.toContain(UPSTREAM_CANARY);
    },
  );

  it('logs refused credentials and outages with the status and a fixed reason, never the body', async () => {
    krypton.sink.lines.length = 0;
    proxy.inject({
      path: /\/secrets\/target$/,
      action: {
        respond: {
          status: 401,
          body: JSON.stringify({
            kind: 'Status',
            reason: 'Unauthorized',
            message: UPSTREAM_CANARY,
          }),
        },
      },
      times: 1,
    });
    await get();
    proxy.inject({
      path: /\/secrets\/target$/,
      action: {
        respond: { status: 503, body: `{"reason":"${UPSTREAM_CANARY}"}` },
      },
      times: 1,
    });
    await get();
    const errors = krypton.sink.lines.filter(l => l.startsWith('error '));
    expect(errors).toEqual([
      expect.stringContaining(
        "Krypton's Kubernetes credentials were refused: GET secrets answered 401 (Unauthorized)",
      ),
      expect.stringContaining(
        'Kubernetes is unavailable: GET secrets answered 503 (Unknown)',
      ),
    ]);
    expect(krypton.sink.text()).not.toContain(UPSTREAM_CANARY);
  });
});

describe('two backend instances racing on one Secret', () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
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

describe('what goes upstream in each identity mode', () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  let proxy: FaultProxy;

  beforeAll(async () => {
    const state = testClusterState();
    proxy = await startFaultProxy({
      target: state.server,
      caFile: state.caFile || undefined,
    });
    await admin.grantSecrets(ns.name, {
      kind: 'Group',
      name: 'group:default/team-c',
    });
    await admin.createSecret(ns.name, {
      metadata: {
        name: 'shared',
        labels: { 'krypton.io/managed-by': 'krypton' },
        annotations: { 'krypton.io/viewers': 'group:default/team-c' },
      },
      data: { k: 'dg==' },
    });
  });
  afterAll(async () => {
    await proxy.close();
    admin.close();
  });

  it.each([
    [
      'impersonation',
      ['user:default/bob'],
      ['group:default/team-b', 'group:default/team-c'],
    ],
    [
      'hybrid',
      ['user:default/bob'],
      ['group:default/team-b', 'group:default/team-c'],
    ],
    ['serviceAccount', undefined, undefined],
  ])('%s mode', async (identity, user, groups) => {
    const krypton = await startKryptonBackend(
      { kubernetes: { identity } },
      { clusterUrl: proxy.url },
    );
    try {
      proxy.resetRecordings();
      testPolicy.reset();
      const res = await eventually(
        () =>
          request(krypton.server)
            .get(`/api/krypton/namespaces/${ns.name}/secrets/shared`)
            .set('Authorization', as('bob'))
            .set('Impersonate-User', 'system:admin')
            .set('Impersonate-Group', 'system:masters'),
        r => r.status === 200,
      );
      expect(res.status).toBe(200);
      const upstream = proxy.requests.filter(r =>
        r.path.endsWith(`/namespaces/${ns.name}/secrets/shared`),
      );
      expect(upstream.length).toBeGreaterThan(0);
      for (const r of upstream) {
        expect(r.headers['impersonate-user']).toEqual(user);
        expect(r.headers['impersonate-group']).toEqual(groups);
        expect(
          Object.keys(r.headers)
            .filter(h => h.startsWith('impersonate-'))
            .sort(),
        ).toEqual(user ? ['impersonate-group', 'impersonate-user'] : []);
      }
      expect(testPolicy.requests.slice(-2)).toEqual([
        {
          permission: 'krypton.secret.read',
          user: 'user:default/bob',
        },
        {
          permission: 'krypton.secret.reveal',
          user: 'user:default/bob',
        },
      ]);
    } finally {
      await krypton.stop();
    }
  });
});

describe('listing a namespace in pages', () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  let proxy: FaultProxy;
  let krypton: KryptonTestBackend;
  const list = () =>
    request(krypton.server)
      .get(`/api/krypton/namespaces/${ns.name}/secrets`)
      .set('Authorization', as('root'));

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
    const managed = { 'krypton.io/managed-by': 'krypton' };
    for (let i = 0; i < 650; i += 25) {
      await Promise.all(
        Array.from({ length: 25 }, (_, j) =>
          admin.createSecret(ns.name, {
            metadata: {
              name: `s-${String(i + j).padStart(3, '0')}`,
              labels: managed,
            },
            data: { k: 'dg==' },
          }),
        ),
      );
    }
    await admin.createSecret(ns.name, {
      metadata: {
        name: 'krypton-h-0123456789abcdef0123456789abcdef-v1',
        labels: { ...managed, 'krypton.io/kind': 'history' },
      },
      data: { k: 'dg==' },
    });
  });
  afterAll(async () => {
    await krypton.stop();
    await proxy.close();
    admin.close();
  });

  it('follows continuation tokens in Table pages of 500 and never asks for history', async () => {
    proxy.resetRecordings();
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(650);
    expect(res.body.items[649].name).toBe('s-649');
    const pages = proxy.requests
      .filter(r => r.path.startsWith(`/api/v1/namespaces/${ns.name}/secrets?`))
      .map(r => new URL(r.path, 'http://x').searchParams);
    expect(pages).toHaveLength(2);
    for (const page of pages) {
      expect(page.get('limit')).toBe('500');
      expect(page.get('includeObject')).toBe('Metadata');
      expect(page.get('labelSelector')).toBe(
        'krypton.io/managed-by=krypton,krypton.io/kind!=history,krypton.io/kind!=proposal',
      );
    }
    expect(pages[0].get('continue')).toBeNull();
    expect(pages[1].get('continue')).toBeTruthy();
  });

  it('answers 503 rather than a partial list when a continuation repeats', async () => {
    proxy.inject({
      method: 'GET',
      path: new RegExp(`^/api/v1/namespaces/${ns.name}/secrets\\?`),
      action: {
        respond: {
          status: 200,
          body: JSON.stringify({
            kind: 'Table',
            apiVersion: 'meta.k8s.io/v1',
            metadata: { continue: 'same-token' },
            columnDefinitions: ['Name', 'Type', 'Data', 'Age'].map(name => ({
              name,
              type: 'string',
            })),
            rows: [],
          }),
        },
      },
    });
    const res = await list();
    proxy.clear();
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      error: 'Kubernetes is unavailable. Try again later.',
    });
  });
});
