import {
  FaultProxy,
  startFaultProxy,
  testClusterState,
  useTestNamespace,
  ClusterAdmin,
  eventually,
  WorkloadKind,
  container,
  createWorkload,
  readWorkload,
} from '@krypton/kube-testenv';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from '../../__testUtils__/testBackend';

const NOTE =
  'Only acknowledged pod-template patches are reported as requested. Rollout completion, readiness, and credential uptake are not verified.';
const FORBIDDEN =
  'Access denied. Check Kubernetes permissions for the effective identity and, when enabled, ServiceAccount impersonation permissions.';
const RESTARTED_AT = 'krypton.io/restarted-at';

const byName = (
  a: { kind: string; name: string },
  b: { kind: string; name: string },
) => `${a.kind}/${a.name}`.localeCompare(`${b.kind}/${b.name}`);

/** One workload per reference path that the spec lists, all of them consuming `db`. */
const CONSUMERS: Array<[WorkloadKind, string, Record<string, unknown>]> = [
  [
    'Deployment',
    'env',
    {
      containers: [
        container({
          env: [
            {
              name: 'PASSWORD',
              valueFrom: { secretKeyRef: { name: 'db', key: 'password' } },
            },
          ],
        }),
      ],
    },
  ],
  [
    'Deployment',
    'env-from',
    { containers: [container({ envFrom: [{ secretRef: { name: 'db' } }] })] },
  ],
  [
    'StatefulSet',
    'init-env',
    {
      initContainers: [
        container({
          name: 'init',
          env: [
            {
              name: 'P',
              valueFrom: { secretKeyRef: { name: 'db', key: 'password' } },
            },
          ],
        }),
      ],
    },
  ],
  [
    'DaemonSet',
    'volume',
    { volumes: [{ name: 'creds', secret: { secretName: 'db' } }] },
  ],
  [
    'Deployment',
    'projected',
    {
      volumes: [
        {
          name: 'all',
          projected: {
            sources: [
              { configMap: { name: 'cfg' } },
              { secret: { name: 'db' } },
            ],
          },
        },
      ],
    },
  ],
  ['StatefulSet', 'pull', { imagePullSecrets: [{ name: 'db' }] }],
];

/** Near misses: none of them references `db`. */
const BYSTANDERS: Array<[WorkloadKind, string, Record<string, unknown>]> = [
  [
    'Deployment',
    'other-secret',
    { containers: [container({ envFrom: [{ secretRef: { name: 'db2' } }] })] },
  ],
  [
    'Deployment',
    'prefix',
    { volumes: [{ name: 'v', secret: { secretName: 'd' } }] },
  ],
  [
    'DaemonSet',
    'configmap',
    {
      containers: [container({ envFrom: [{ configMapRef: { name: 'db' } }] })],
      volumes: [{ name: 'v', configMap: { name: 'db' } }],
    },
  ],
];

describe('restart-consumers against a real kube-apiserver', () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  let proxy: FaultProxy;
  let krypton: KryptonTestBackend;
  let dbDir: string;
  const base = () => `/api/krypton/namespaces/${ns.name}/secrets`;
  const restart = (name: string, user = 'root', server = krypton.server) =>
    request(server)
      .post(`${base()}/${name}/restart-consumers`)
      .set('Authorization', as(user));
  const bystanderVersions = async () =>
    Promise.all(
      BYSTANDERS.map(
        async ([kind, name]) =>
          (await readWorkload(admin, ns.name, kind, name)).metadata
            .resourceVersion,
      ),
    );

  beforeAll(async () => {
    const state = testClusterState();
    proxy = await startFaultProxy({
      target: state.server,
      caFile: state.caFile || undefined,
    });
    dbDir = mkdtempSync(join(tmpdir(), 'krypton-db-'));
    krypton = await startKryptonBackend(
      { restart: { enabled: true }, kubernetes: { identity: 'hybrid' } },
      { clusterUrl: proxy.url, databaseDirectory: dbDir },
    );
    await admin.grantSecrets(ns.name, {
      kind: 'User',
      name: 'user:default/root',
    });
    for (const name of ['db', 'unused', 'quiet']) {
      await admin.createSecret(ns.name, {
        metadata: {
          name,
          labels: { 'krypton.io/managed-by': 'krypton' },
          annotations: { 'krypton.io/owners': 'user:default/root' },
        },
        data: { password: 'cA==' },
      });
    }
    for (const [kind, name, spec] of [...CONSUMERS, ...BYSTANDERS]) {
      await createWorkload(admin, ns.name, kind, name, spec);
    }
    await eventually(
      () =>
        request(krypton.server)
          .get(`${base()}/db`)
          .set('Authorization', as('root')),
      r => r.status === 200,
    );
  });
  afterEach(() => proxy.clear());
  afterAll(async () => {
    await krypton.stop();
    await proxy.close();
    admin.close();
    rmSync(dbDir, { recursive: true, force: true });
  });

  it('lists every consumer with how it uses the Secret, and no near miss', async () => {
    const res = await request(krypton.server)
      .get(`${base()}/db/consumers`)
      .set('Authorization', as('root'));
    expect(res.status).toBe(200);
    expect(res.body.discoveryFailures).toEqual([]);
    expect(
      res.body.workloads.map(
        (w: { kind: string; name: string; usages: unknown }) => [
          w.kind,
          w.name,
          w.usages,
        ],
      ),
    ).toEqual([
      ['DaemonSet', 'volume', [{ type: 'volume', volume: 'creds' }]],
      ['Deployment', 'env', [{ type: 'env', containers: ['app'] }]],
      ['Deployment', 'env-from', [{ type: 'envFrom', containers: ['app'] }]],
      ['Deployment', 'projected', [{ type: 'projected', volume: 'all' }]],
      ['StatefulSet', 'init-env', [{ type: 'env', containers: ['init'] }]],
      ['StatefulSet', 'pull', [{ type: 'imagePullSecret' }]],
    ]);
  });

  it('requests a rollout of every consumer, and leaves the others unchanged', async () => {
    const before = await bystanderVersions();
    proxy.resetRecordings();
    const res = await restart('db');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      status: 'requested',
      matched: 6,
      requested: expect.any(Array),
      failures: [],
      discoveryFailures: [],
      message: 'Rollout requested for 6 of 6 matched workloads.',
      note: NOTE,
    });
    expect([...res.body.requested].sort(byName)).toEqual(
      CONSUMERS.map(([kind, name]) => ({ kind, name })).sort(byName),
    );
    for (const [kind, name] of CONSUMERS) {
      const workload = await readWorkload(admin, ns.name, kind, name);
      expect(
        Date.parse(
          workload.spec.template.metadata?.annotations?.[RESTARTED_AT] ?? '',
        ),
      ).not.toBeNaN();
    }
    expect(await bystanderVersions()).toEqual(before);
    // Every page and patch ran as Krypton (hybrid mode), after the live read as the user.
    const patches = proxy.requests.filter(r => r.method === 'PATCH');
    expect(patches).toHaveLength(6);
    for (const p of patches) {
      expect(p.headers['content-type']).toEqual([
        'application/json-patch+json',
      ]);
      expect(p.headers['impersonate-user']).toBeUndefined();
    }
  });

  it('answers no_targets when nothing references the Secret', async () => {
    const res = await restart('unused');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'no_targets',
      matched: 0,
      requested: [],
      failures: [],
      discoveryFailures: [],
    });
    expect(res.body.error).toBeUndefined();
  });

  it('reports a workload changed between discovery and patch as a conflict, patched once', async () => {
    proxy.inject({
      method: 'PATCH',
      path: /\/deployments\/env$/,
      action: { delayMs: 1500 },
      times: 1,
    });
    proxy.resetRecordings();
    const pending = restart('db');
    const started = pending.then(r => r);
    // While the patch is held at the proxy, another client edits the Deployment.
    await new Promise(r => setTimeout(r, 500));
    const current = await readWorkload(admin, ns.name, 'Deployment', 'env');
    const edit = await admin.request({
      method: 'PATCH',
      path: `/apis/apps/v1/namespaces/${ns.name}/deployments/env`,
      body: { metadata: { annotations: { edited: 'yes' } } },
      contentType: 'application/merge-patch+json',
    });
    expect(edit.status).toBe(200);
    const res = await started;
    expect(res.status).toBe(207);
    expect(res.body.status).toBe('partial');
    expect(res.body.failures).toEqual([
      {
        kind: 'Deployment',
        name: 'env',
        code: 'conflict',
        httpStatus: 422,
        message: expect.stringMatching(
          /changed or was replaced after discovery/,
        ),
      },
    ]);
    expect(
      proxy.seen.filter(
        r => r.startsWith('PATCH') && r.endsWith('/deployments/env'),
      ),
    ).toHaveLength(1);
    const after = await readWorkload(admin, ns.name, 'Deployment', 'env');
    expect(after.spec.template.metadata?.annotations?.[RESTARTED_AT]).toBe(
      current.spec.template.metadata?.annotations?.[RESTARTED_AT],
    );
  });

  it('refuses when restart is disabled, with the exact message and no workload touched', async () => {
    const disabled = await startKryptonBackend();
    try {
      const res = await restart('db', 'root', disabled.server);
      expect(res.status).toBe(403);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({
        error: 'Restarting apps is disabled on this deployment',
      });
    } finally {
      await disabled.stop();
    }
  });

  it('answers 404 for snapshot names and 400 for a body', async () => {
    const snap = await restart('krypton-h-0123456789abcdef0123456789abcdef-v1');
    expect(snap.status).toBe(404);
    const body = await restart('db').send({ all: true });
    expect(body.status).toBe(400);
  });

  it('audits each attempt with its status and matches, and the requested one as succeeded', () => {
    const events = krypton.sink.audits.concat();
    expect(events).toContainEqual(
      expect.objectContaining({
        eventId: 'secret-restart',
        status: 'succeeded',
        meta: expect.objectContaining({ status: 'requested', matched: 6 }),
      }),
    );
  });
  it('keeps the last result across a backend restart, and only for those who may read the Secret', async () => {
    const res = await restart('db');
    expect(res.status).toBe(200);
    await krypton.stop();
    krypton = await startKryptonBackend(
      { restart: { enabled: true }, kubernetes: { identity: 'hybrid' } },
      { clusterUrl: proxy.url, databaseDirectory: dbDir },
    );
    const last = await request(krypton.server)
      .get(`${base()}/db/restart-consumers/last`)
      .set('Authorization', as('root'));
    expect(last.status).toBe(200);
    expect(last.body.last).toEqual({
      result: res.body,
      requestedBy: 'user:default/root',
      requestedAt: expect.any(String),
    });
    const stranger = await request(krypton.server)
      .get(`${base()}/db/restart-consumers/last`)
      .set('Authorization', as('alice'));
    expect(stranger.status).toBe(403);
    const none = await request(krypton.server)
      .get(`${base()}/quiet/restart-consumers/last`)
      .set('Authorization', as('root'));
    expect(none.body).toEqual({ last: null });
  });
});

describe('restart-consumers with the RBAC of an impersonated user', () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  let krypton: KryptonTestBackend;
  const base = () => `/api/krypton/namespaces/${ns.name}/secrets`;
  const restart = (user: string) =>
    request(krypton.server)
      .post(`${base()}/db/restart-consumers`)
      .set('Authorization', as(user));

  beforeAll(async () => {
    krypton = await startKryptonBackend({
      restart: { enabled: true },
      kubernetes: { identity: 'impersonation' },
    });
    await admin.createSecret(ns.name, {
      metadata: { name: 'db', labels: { 'krypton.io/managed-by': 'krypton' } },
      data: { password: 'cA==' },
    });
    for (const [kind, name, spec] of CONSUMERS) {
      await createWorkload(admin, ns.name, kind, name, spec);
    }
    const read = { apiGroups: [''], resources: ['secrets'], verbs: ['get'] };
    // alice may list every kind but patch only Deployments and DaemonSets.
    await admin.grant(
      ns.name,
      'alice',
      { kind: 'User', name: 'user:default/alice' },
      [
        read,
        {
          apiGroups: ['apps'],
          resources: ['deployments', 'statefulsets', 'daemonsets'],
          verbs: ['list'],
        },
        {
          apiGroups: ['apps'],
          resources: ['deployments', 'daemonsets'],
          verbs: ['patch'],
        },
      ],
    );
    // bob (through team-c) may list and patch Deployments, and nothing else.
    await admin.grant(
      ns.name,
      'bob',
      { kind: 'Group', name: 'group:default/team-c' },
      [
        read,
        {
          apiGroups: ['apps'],
          resources: ['deployments'],
          verbs: ['list', 'patch'],
        },
      ],
    );
    // carol may read the Secret but list no workloads at all.
    await admin.grant(
      ns.name,
      'carol',
      { kind: 'User', name: 'user:default/carol' },
      [read],
    );
    const readable = (user: string) =>
      eventually(
        () =>
          request(krypton.server)
            .get(`${base()}/db`)
            .set('Authorization', as(user)),
        r => r.status === 200,
      );
    await readable('alice');
    await readable('bob');
    await readable('carol');
  });
  afterAll(async () => {
    await krypton.stop();
    admin.close();
  });

  it('is partial when RBAC stops the user from patching StatefulSets', async () => {
    const res = await restart('alice');
    expect(res.status).toBe(207);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.status).toBe('partial');
    expect(res.body.matched).toBe(6);
    expect([...res.body.failures].sort(byName)).toEqual([
      {
        kind: 'StatefulSet',
        name: 'init-env',
        code: 'forbidden',
        message: FORBIDDEN,
        httpStatus: 403,
      },
      {
        kind: 'StatefulSet',
        name: 'pull',
        code: 'forbidden',
        message: FORBIDDEN,
        httpStatus: 403,
      },
    ]);
    expect(res.body.message).toBe(
      'Rollout requested for 4 of 6 matched workloads. 2 patch requests failed.',
    );
  });

  it('is partial when one kind cannot be listed, and patches nothing of that kind', async () => {
    const before = await readWorkload(admin, ns.name, 'StatefulSet', 'pull');
    const res = await restart('bob');
    expect(res.status).toBe(207);
    expect(res.body.requested.map((w: { kind: string }) => w.kind)).toEqual([
      'Deployment',
      'Deployment',
      'Deployment',
    ]);
    expect(res.body.discoveryFailures).toEqual([
      {
        kind: 'StatefulSet',
        code: 'forbidden',
        message: FORBIDDEN,
        httpStatus: 403,
      },
      {
        kind: 'DaemonSet',
        code: 'forbidden',
        message: FORBIDDEN,
        httpStatus: 403,
      },
    ]);
    expect(res.body.matched).toBe(3);
    const after = await readWorkload(admin, ns.name, 'StatefulSet', 'pull');
    expect(after.metadata.resourceVersion).toBe(
      before.metadata.resourceVersion,
    );
  });

  it('fails with 503 when the user may list nothing: unknown matches are not zero', async () => {
    const res = await restart('carol');
    expect(res.status).toBe(503);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.status).toBe('failed');
    expect(res.body.matched).toBe(0);
    expect(res.body.discoveryFailures).toHaveLength(3);
    expect(res.body.error).toBe(res.body.message);
    expect(res.body.message).toBe(
      'No rollout was requested. Discovery failed for 3 workload kinds.',
    );
    expect(krypton.sink.audits).toContainEqual(
      expect.objectContaining({
        eventId: 'secret-restart',
        status: 'failed',
        meta: expect.objectContaining({ status: 'failed', matched: 0 }),
      }),
    );
  });
});
