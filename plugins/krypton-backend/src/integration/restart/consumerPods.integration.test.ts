import {
  ConsumerVersionsResult,
  ConsumerWorkloadVersions,
  ConsumerPod,
} from '@krypton/core';
import {
  ClusterAdmin,
  FaultProxy,
  StoredObject,
  container,
  createPod,
  createReplicaSet,
  createWorkload,
  eventually,
  runningContainer,
  runningPod,
  setPodStatus,
  setWorkloadStatus,
  startFaultProxy,
  startedAt,
  testClusterState,
  useTestNamespace,
} from '@krypton/kube-testenv';
import request from 'supertest';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from '../../__testUtils__/testBackend';

const FORBIDDEN =
  'Access denied. Check Kubernetes permissions for the effective identity and, when enabled, ServiceAccount impersonation permissions.';
const INCOMPLETE =
  'The pods could not be read completely (over budget, or a continuation that was invalid, repeated or expired), so the versions they hold are unknown.';

/**
 * The version each consuming pod holds, against the real apiserver. No kubelet or controller runs
 * there, so the test stands in for both: it creates ReplicaSets and Pods as API objects, owned as
 * controllers own them, and writes their status through the status subresource. The Secret's
 * versions are made through Krypton a few seconds apart, so that a start between two changes
 * holds one version for certain.
 */
describe('the versions that consumers pods hold, against a real kube-apiserver', () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  let proxy: FaultProxy;
  let krypton: KryptonTestBackend;
  const api = () => request(krypton.server);
  const base = () => `/api/krypton/namespaces/${ns.name}/secrets`;
  const podsOf = (name: string, user = 'root') =>
    api()
      .get(`${base()}/${name}/consumers/pods`)
      .set('Authorization', as(user));
  /** When each version began: [creation, version 2, version 3]. */
  let began: Date[];
  const after = (version: number, seconds: number) =>
    new Date(began[version - 1].getTime() + seconds * 1000);

  const env = (name = 'app') =>
    container({
      name,
      env: [
        { name: 'P', valueFrom: { secretKeyRef: { name: 'db', key: 'p' } } },
      ],
    });

  async function edit(name: string, value: string) {
    const live = await api()
      .get(`${base()}/${name}`)
      .set('Authorization', as('root'));
    const res = await api()
      .put(`${base()}/${name}`)
      .set('Authorization', as('root'))
      .send({ resourceVersion: live.body.resourceVersion, data: { p: value } });
    expect(res.status).toBe(200);
  }

  const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

  /** A pod of `controller` with the given spec, running since `started`. */
  async function runningPodOf(
    name: string,
    controller: Parameters<typeof createPod>[3],
    spec: Record<string, unknown>,
    started: Date,
    status: Record<string, unknown> = {},
  ) {
    await createPod(admin, ns.name, name, controller, spec);
    const containers = (spec.containers as Array<{ name: string }>).map(
      c => c.name,
    );
    await setPodStatus(admin, ns.name, name, {
      ...runningPod(containers, started),
      ...status,
    });
  }

  beforeAll(async () => {
    const state = testClusterState();
    proxy = await startFaultProxy({
      target: state.server,
      caFile: state.caFile || undefined,
    });
    krypton = await startKryptonBackend(
      { restart: { enabled: true } },
      { clusterUrl: proxy.url },
    );
    const root = { kind: 'User' as const, name: 'user:default/root' };
    const bob = { kind: 'User' as const, name: 'user:default/bob' };
    for (const subject of [root, bob]) {
      await admin.grantSecrets(ns.name, subject);
      await admin.grantWorkloads(ns.name, subject);
    }
    // bob may list the workloads but not their pods.
    await admin.grantPods(ns.name, root);
    await admin.untilAllowed(
      { user: 'user:default/root' },
      { namespace: ns.name, resource: 'pods', verb: 'list' },
    );
    await eventually(
      () => api().get(base()).set('Authorization', as('root')),
      r => r.status === 200,
    );
    // Three versions of two Secrets, 6 s apart: a start reported 4 s after a change (3 to 4 s,
    // as starts are reported to the second) is past the change's 3 s of uncertainty and more than
    // the second's 1 s of slack before the next change.
    for (const name of ['db', 'pruned']) {
      const res = await api()
        .post(base())
        .set('Authorization', as('root'))
        .send({ name, data: { p: 'one' } });
      if (res.status !== 201) throw new Error(`create ${name}: ${res.status}`);
    }
    await sleep(6000);
    for (const name of ['db', 'pruned']) await edit(name, 'two');
    await sleep(6000);
    for (const name of ['db', 'pruned']) await edit(name, 'three');
    const created = await admin.secret(ns.name, 'db');
    const versions = await api()
      .get(`${base()}/db/versions`)
      .set('Authorization', as('root'));
    const snapshotAt = (v: number) =>
      new Date(
        versions.body.items.find(
          (i: { version: number }) => i.version === v,
        ).snapshotAt,
      );
    began = [
      new Date(created.metadata.creationTimestamp!),
      snapshotAt(1),
      snapshotAt(2),
    ];
  }, 60_000);
  afterEach(() => proxy.clear());
  afterAll(async () => {
    await krypton.stop();
    await proxy.close();
    admin.close();
  });

  describe('every way of consuming, and workloads in every state', () => {
    let body: ConsumerVersionsResult;
    const workload = (name: string) =>
      body.workloads.find(w => w.name === name) as ConsumerWorkloadVersions;
    const pod = (w: string, p: string) =>
      workload(w).pods.find(x => x.name === p) as ConsumerPod;

    beforeAll(async () => {
      // A Deployment mid-rollout: an old ReplicaSet's pod from version 1; the new one's pods hold
      // version 3, crash-loop or wait to be scheduled.
      const api1 = await createWorkload(admin, ns.name, 'Deployment', 'api', {
        containers: [env()],
      });
      await setWorkloadStatus(admin, ns.name, 'Deployment', 'api', {
        observedGeneration: 1,
        replicas: 4,
        updatedReplicas: 3,
        readyReplicas: 2,
        availableReplicas: 2,
        conditions: [
          {
            type: 'Progressing',
            status: 'True',
            reason: 'ReplicaSetUpdated',
            message: 'ReplicaSet "api-new" is progressing.',
          },
        ],
      });
      const podSpec = { containers: [env()] };
      const oldRs = await createReplicaSet(
        admin,
        ns.name,
        api1,
        'old',
        podSpec,
      );
      const newRs = await createReplicaSet(
        admin,
        ns.name,
        api1,
        'new',
        podSpec,
      );
      const rs = (object: StoredObject) => ({
        kind: 'ReplicaSet' as const,
        object,
      });
      await runningPodOf('api-old-1', rs(oldRs), podSpec, after(1, 2));
      await runningPodOf('api-new-1', rs(newRs), podSpec, after(3, 4));
      await createPod(admin, ns.name, 'api-new-2', rs(newRs), podSpec);
      await setPodStatus(admin, ns.name, 'api-new-2', { phase: 'Pending' });
      await createPod(admin, ns.name, 'api-new-3', rs(newRs), podSpec);
      await setPodStatus(admin, ns.name, 'api-new-3', {
        phase: 'Running',
        conditions: [{ type: 'Ready', status: 'False' }],
        containerStatuses: [
          runningContainer('app', after(3, 4), {
            ready: false,
            restartCount: 5,
            state: { waiting: { reason: 'CrashLoopBackOff' } },
            lastState: {
              terminated: { startedAt: startedAt(after(3, 5)), exitCode: 1 },
            },
          }),
        ],
      });
      // Near misses: a pod with the Deployment's labels that nothing controls, and a ReplicaSet
      // of the same labels that another Deployment controls.
      await admin.expect(201, {
        method: 'POST',
        path: `/api/v1/namespaces/${ns.name}/pods`,
        body: {
          metadata: { name: 'api-stray', labels: { app: 'api' } },
          spec: podSpec,
        },
      }); // After createPod above, the namespace's default ServiceAccount exists.
      const other = await createWorkload(
        admin,
        ns.name,
        'Deployment',
        'other',
        {
          containers: [container()],
        },
      );
      const foreign = await admin.expect<StoredObject>(201, {
        method: 'POST',
        path: `/apis/apps/v1/namespaces/${ns.name}/replicasets`,
        body: {
          metadata: {
            name: 'api-foreign',
            labels: { app: 'api' },
            ownerReferences: [
              {
                apiVersion: 'apps/v1',
                kind: 'Deployment',
                name: 'other',
                uid: other.metadata.uid,
                controller: true,
              },
            ],
          },
          spec: {
            selector: { matchLabels: { app: 'api' } },
            template: { metadata: { labels: { app: 'api' } }, spec: podSpec },
          },
        },
      });
      await runningPodOf('api-foreign-1', rs(foreign), podSpec, after(1, 2));

      // A paused Deployment, reading through envFrom, whose pod started under version 2.
      const paused = await createWorkload(
        admin,
        ns.name,
        'Deployment',
        'paused',
        {
          containers: [container({ envFrom: [{ secretRef: { name: 'db' } }] })],
        },
        { spec: { paused: true } },
      );
      const pausedSpec = {
        containers: [container({ envFrom: [{ secretRef: { name: 'db' } }] })],
      };
      const pausedRs = await createReplicaSet(
        admin,
        ns.name,
        paused,
        'p',
        pausedSpec,
      );
      await runningPodOf('paused-1', rs(pausedRs), pausedSpec, after(2, 4));

      // An OnDelete StatefulSet whose init container read version 1.
      const stsSpec = {
        initContainers: [env('init')],
        containers: [container()],
      };
      const sts = await createWorkload(
        admin,
        ns.name,
        'StatefulSet',
        'sts',
        stsSpec,
        {
          spec: { updateStrategy: { type: 'OnDelete' } },
        },
      );
      await createPod(
        admin,
        ns.name,
        'sts-0',
        { kind: 'StatefulSet', object: sts },
        stsSpec,
      );
      await setPodStatus(admin, ns.name, 'sts-0', {
        ...runningPod(['app'], after(1, 3)),
        initContainerStatuses: [
          {
            name: 'init',
            image: 'example.invalid/app:1',
            imageID: '',
            ready: true,
            restartCount: 0,
            state: {
              terminated: { startedAt: startedAt(after(1, 2)), exitCode: 0 },
            },
          },
        ],
      });

      // A DaemonSet that mounts the Secret twice: a volume the kubelet updates, and a subPath copy.
      const agentSpec = {
        volumes: [{ name: 'creds', secret: { secretName: 'db' } }],
        containers: [
          container({
            name: 'follows',
            volumeMounts: [{ name: 'creds', mountPath: '/creds' }],
          }),
          container({
            name: 'copied',
            volumeMounts: [{ name: 'creds', mountPath: '/p', subPath: 'p' }],
          }),
        ],
      };
      const agent = await createWorkload(
        admin,
        ns.name,
        'DaemonSet',
        'agent',
        agentSpec,
      );
      await runningPodOf(
        'agent-a',
        { kind: 'DaemonSet', object: agent },
        agentSpec,
        after(1, 2),
      );
      const followsOnly = {
        ...agentSpec,
        containers: [agentSpec.containers[0]],
      };
      await runningPodOf(
        'agent-b',
        { kind: 'DaemonSet', object: agent },
        followsOnly,
        after(1, 2),
      );

      // A projected volume started under the live version; a pod that reads only to pull.
      const projSpec = {
        volumes: [
          { name: 'all', projected: { sources: [{ secret: { name: 'db' } }] } },
        ],
        containers: [
          container({ volumeMounts: [{ name: 'all', mountPath: '/all' }] }),
        ],
      };
      const proj = await createWorkload(
        admin,
        ns.name,
        'StatefulSet',
        'proj',
        projSpec,
      );
      await runningPodOf(
        'proj-0',
        { kind: 'StatefulSet', object: proj },
        projSpec,
        after(3, 5),
      );
      const pullSpec = {
        imagePullSecrets: [{ name: 'db' }],
        containers: [container()],
      };
      const pull = await createWorkload(
        admin,
        ns.name,
        'StatefulSet',
        'pull',
        pullSpec,
      );
      await runningPodOf(
        'pull-0',
        { kind: 'StatefulSet', object: pull },
        pullSpec,
        after(1, 2),
      );

      const res = await podsOf('db');
      if (res.status !== 200) throw new Error(`consumers/pods: ${res.status}`);
      body = res.body;
    }, 60_000);

    it('names the live version and since when it has been live', () => {
      expect(body.live).toEqual({ version: 3, since: began[2].toISOString() });
      expect(body.discoveryFailures).toEqual([]);
      expect(body.workloads.map(w => `${w.kind}/${w.name}`)).toEqual([
        'DaemonSet/agent',
        'Deployment/api',
        'Deployment/paused',
        'StatefulSet/proj',
        'StatefulSet/pull',
        'StatefulSet/sts',
      ]);
    });

    it("finds a Deployment's pods through its ReplicaSets, and no other pod", () => {
      expect(workload('api').pods.map(p => p.name)).toEqual([
        'api-new-1',
        'api-new-2',
        'api-new-3',
        'api-old-1',
      ]);
    });

    it('gives each environment reader the version live when it started', () => {
      expect(pod('api', 'api-old-1').holds).toEqual({
        state: 'version',
        version: 1,
      });
      expect(pod('api', 'api-new-1').holds).toEqual({
        state: 'version',
        version: 3,
      });
      expect(pod('paused', 'paused-1').holds).toEqual({
        state: 'version',
        version: 2,
      });
      // An init container read at its start; the app container does not read the Secret.
      expect(pod('sts', 'sts-0').containers).toEqual([
        expect.objectContaining({
          name: 'init',
          role: 'init',
          reads: ['env'],
          holds: { state: 'version', version: 1 },
        }),
      ]);
    });

    it('groups a mid-rollout Deployment by version, with how long each group has been stale', () => {
      expect(workload('api').groups).toEqual([
        {
          holds: { state: 'version', version: 1 },
          status: 'stale',
          pods: ['api-old-1'],
          staleSince: began[1].toISOString(),
        },
        {
          holds: { state: 'notStarted' },
          status: 'notStarted',
          pods: ['api-new-2'],
        },
        {
          holds: { state: 'version', version: 3 },
          status: 'current',
          pods: ['api-new-1', 'api-new-3'],
        },
      ]);
      expect(workload('api').rollout).toEqual({
        desired: 1,
        updated: 3,
        ready: 2,
        available: 2,
        observed: true,
        conditions: [
          {
            type: 'Progressing',
            status: 'True',
            reason: 'ReplicaSetUpdated',
            message: 'ReplicaSet "api-new" is progressing.',
          },
        ],
      });
      expect(workload('api').problems).toEqual([
        { reason: 'crash-loop', pods: ['api-new-3'] },
        { reason: 'pending', pods: ['api-new-2'] },
      ]);
      expect(pod('api', 'api-new-3').containers[0]).toMatchObject({
        running: false,
        restarts: 5,
        waitingReason: 'CrashLoopBackOff',
      });
    });

    it('expects a mounted volume to follow, but holds a subPath copy to its start', () => {
      const agentA = pod('agent', 'agent-a');
      expect(agentA.containers.map(c => [c.name, c.reads, c.holds])).toEqual([
        [
          'follows',
          ['volume'],
          {
            state: 'expected',
            version: 3,
            by: new Date(began[2].getTime() + 90_000).toISOString(),
          },
        ],
        ['copied', ['subPath'], { state: 'version', version: 1 }],
      ]);
      expect(agentA.holds).toEqual({ state: 'version', version: 1 });
      expect(pod('agent', 'agent-b').holds.state).toBe('expected');
      expect(pod('proj', 'proj-0').holds).toEqual({
        state: 'version',
        version: 3,
      });
      expect(pod('pull', 'pull-0').holds).toEqual({ state: 'imagePullOnly' });
    });

    it('says why a rollout waits: paused, OnDelete, a controller that has not reported', () => {
      expect(workload('paused').problems).toEqual([
        { reason: 'paused' },
        { reason: 'not-observed' },
      ]);
      expect(workload('sts').problems).toEqual([
        { reason: 'on-delete' },
        { reason: 'not-observed' },
      ]);
    });

    it('sums every pod into one line', () => {
      expect(body.summary).toMatchObject({
        pods: 10,
        stale: 4,
        current: 3,
        converging: 1,
        notStarted: 1,
        unaffected: 1,
        staleVersions: [1, 2],
        unreadWorkloads: 0,
        allCurrent: false,
      });
      expect(body.summary.message).toBe(
        '4 of 9 pods still hold older versions; the live Secret is version 3. 1 pod waits for the kubelet to update a mounted volume. 1 pod has not started yet.',
      );
    });

    it('says "older than" where pruned history cannot tell', async () => {
      // Retention removes the oldest snapshot first: version 1's is gone, so version 2's start
      // is unknown.
      const snapshots = await admin.snapshots(ns.name);
      const first = snapshots.find(
        s =>
          s.metadata.annotations?.['krypton.io/history-of'] === 'pruned' &&
          s.metadata.annotations?.['krypton.io/version'] === '1',
      );
      await admin.expect(200, {
        method: 'DELETE',
        path: `/api/v1/namespaces/${ns.name}/secrets/${first!.metadata.name}`,
      });
      const spec = {
        containers: [
          container({
            env: [
              {
                name: 'P',
                valueFrom: { secretKeyRef: { name: 'pruned', key: 'p' } },
              },
            ],
          }),
        ],
      };
      const old = await createWorkload(
        admin,
        ns.name,
        'StatefulSet',
        'old',
        spec,
      );
      await runningPodOf(
        'old-0',
        { kind: 'StatefulSet', object: old },
        spec,
        after(1, 2),
      );
      const res = await podsOf('pruned');
      expect(res.status).toBe(200);
      const kept = await api()
        .get(`${base()}/pruned/versions`)
        .set('Authorization', as('root'));
      expect(
        kept.body.items.map((i: { version: number }) => i.version),
      ).toEqual([2]);
      expect(res.body.workloads[0].groups).toEqual([
        {
          holds: { state: 'olderThan', version: 3 },
          status: 'stale',
          pods: ['old-0'],
          staleSince: new Date(kept.body.items[0].snapshotAt).toISOString(),
        },
      ]);
      expect(res.body.summary.message).toBe(
        '1 of 1 pod still holds a version older than version 3; the live Secret is version 3.',
      );
    });

    it('reads the pods as the user: one who may list workloads but not pods learns nothing of them', async () => {
      const res = await podsOf('db', 'bob');
      expect(res.status).toBe(200);
      expect(res.body.workloads).toHaveLength(6);
      for (const w of res.body.workloads as ConsumerWorkloadVersions[]) {
        expect(w.pods).toEqual([]);
        expect(w.groups).toEqual([]);
        expect(w.podsFailure).toEqual({
          code: 'forbidden',
          message: FORBIDDEN,
          httpStatus: 403,
        });
      }
      expect(res.body.summary).toMatchObject({
        pods: 0,
        unreadWorkloads: 6,
        allCurrent: false,
      });
    });

    it('reports a pod list over budget as unknown, not as no pods', async () => {
      let page = 0;
      proxy.inject({
        method: 'GET',
        path: new RegExp(
          `/namespaces/${ns.name}/pods\\?.*labelSelector=app%3Dagent`,
        ),
        action: {
          respondAfterForward: {
            status: 200,
            body: () =>
              JSON.stringify({
                kind: 'PodList',
                apiVersion: 'v1',
                metadata: { resourceVersion: '1', continue: `t${++page}` },
                items: Array.from({ length: 100 }, (_, i) => ({
                  metadata: { name: `p-${page}-${i}` },
                })),
              }),
          },
        },
      });
      const res = await podsOf('db');
      expect(res.status).toBe(200);
      const agent = (res.body as ConsumerVersionsResult).workloads.find(
        w => w.name === 'agent',
      )!;
      expect(agent.podsFailure).toEqual({
        code: 'incomplete_list',
        message: INCOMPLETE,
        httpStatus: 503,
      });
      expect(agent.pods).toEqual([]);
      // The budget is 2,000 objects: the 21st page of 100 went over it, and no page followed.
      expect(page).toBe(21);
      expect(res.body.summary.unreadWorkloads).toBe(1);
      // The other workloads were read.
      expect(
        (res.body as ConsumerVersionsResult).workloads.filter(
          w => w.podsFailure,
        ),
      ).toHaveLength(1);
    });
  });

  it('follows a restart: once the new pods run, every pod holds the live version', async () => {
    const spec = {
      containers: [
        container({
          env: [
            {
              name: 'P',
              valueFrom: { secretKeyRef: { name: 'solo', key: 'p' } },
            },
          ],
        }),
      ],
    };
    const created = await api()
      .post(base())
      .set('Authorization', as('root'))
      .send({ name: 'solo', data: { p: 'one' } });
    expect(created.status).toBe(201);
    const solo = await createWorkload(
      admin,
      ns.name,
      'Deployment',
      'solo',
      spec,
    );
    const first = await createReplicaSet(admin, ns.name, solo, 'a', spec);
    const rs = (object: StoredObject) => ({
      kind: 'ReplicaSet' as const,
      object,
    });
    await runningPodOf('solo-a', rs(first), spec, new Date(Date.now() + 1000));
    await sleep(6000);
    await edit('solo', 'two');
    const stale = await podsOf('solo');
    expect(stale.body.summary).toMatchObject({ stale: 1, allCurrent: false });
    expect(stale.body.summary.message).toBe(
      '1 of 1 pod still holds version 1; the live Secret is version 2.',
    );
    const restarted = await api()
      .post(`${base()}/solo/restart-consumers`)
      .set('Authorization', as('root'));
    expect(restarted.body).toMatchObject({
      status: 'requested',
      requested: [{ kind: 'Deployment', name: 'solo' }],
    });
    // The controller's part after a restart: a new ReplicaSet's pod, the old one gone.
    const second = await createReplicaSet(admin, ns.name, solo, 'b', spec);
    await runningPodOf('solo-b', rs(second), spec, new Date(Date.now() + 4000));
    await admin.expect(200, {
      method: 'DELETE',
      path: `/api/v1/namespaces/${ns.name}/pods/solo-a`,
      query: { gracePeriodSeconds: '0' },
    });
    await setWorkloadStatus(admin, ns.name, 'Deployment', 'solo', {
      observedGeneration: 1,
      replicas: 1,
      updatedReplicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
    });
    const current = await podsOf('solo');
    expect(current.body.summary).toMatchObject({
      pods: 1,
      current: 1,
      allCurrent: true,
    });
    expect(current.body.summary.message).toBe(
      'The pod that reads it holds version 2, the live version.',
    );
  });
});
