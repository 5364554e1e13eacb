import http from 'node:http';
import {
  FaultProxy,
  RecordedRequest,
  startFaultProxy,
  testClusterState,
  useTestNamespace,
  ClusterAdmin,
  eventually,
  WorkloadKind,
  container,
  createWorkload,
} from '@krypton/kube-testenv';
import { hash32 } from '@krypton/plugin-krypton-backend/src/__testUtils__/history';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from '@krypton/plugin-krypton-backend/src/__testUtils__/testBackend';
import { bounded, sendJson } from './clients';
import { formatColumns } from './measure';

/*
 * Kubernetes requests per Krypton operation, counted at a pass-through fault proxy (no faults)
 * between the backend and the apiserver, in the default impersonation mode and in serviceAccount
 * mode. Each count stands beside the fewest requests the spec allows for the operation and the
 * requests a plain Kubernetes client needs for the same change without history; every request
 * beyond the plain ones is named with its reason. Nothing here asserts a count: the figures are
 * the output.
 */

type Mode = 'impersonation' | 'serviceAccount';
const MODES: Mode[] = ['impersonation', 'serviceAccount'];
/** Snapshots of the Secret that is deleted. */
const N = 3;
/** The limited backend's history limit. */
const LIMIT = 2;

/** The workloads that reference `db`, one per reference path (M = 5), and two near misses. */
const CONSUMERS: Array<[WorkloadKind, string, Record<string, unknown>]> = [
  [
    'Deployment',
    'env',
    {
      containers: [
        container({
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
    'Deployment',
    'env-from',
    { containers: [container({ envFrom: [{ secretRef: { name: 'db' } }] })] },
  ],
  [
    'StatefulSet',
    'volume',
    { volumes: [{ name: 'v', secret: { secretName: 'db' } }] },
  ],
  [
    'StatefulSet',
    'projected',
    {
      volumes: [
        { name: 'p', projected: { sources: [{ secret: { name: 'db' } }] } },
      ],
    },
  ],
  ['DaemonSet', 'pull', { imagePullSecrets: [{ name: 'db' }] }],
];
const BYSTANDERS: Array<[WorkloadKind, string, Record<string, unknown>]> = [
  [
    'Deployment',
    'other',
    { containers: [container({ envFrom: [{ secretRef: { name: 'db2' } }] })] },
  ],
  [
    'DaemonSet',
    'configmap',
    { volumes: [{ name: 'v', configMap: { name: 'db' } }] },
  ],
];
const M = CONSUMERS.length;

/** One operation: the spec's minimum, the plain client's requests, and reasons. */
interface OpReport {
  /** The key of its measurement. */
  key: string;
  name: string;
  specMinimum: string[];
  plain: string[];
  /** Why each kind of request beyond the plain ones is made. */
  why: Record<string, string>;
  /** What the plain requests are, where that is not obvious. */
  plainNote?: string;
}

/** a minus b, as multisets. */
function minus(a: string[], b: string[]): string[] {
  const rest = [...a];
  for (const x of b) {
    const i = rest.indexOf(x);
    if (i >= 0) rest.splice(i, 1);
  }
  return rest;
}

/** "2× GET live, 1× PUT live" in first-seen order. */
function tally(steps: string[]): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const s of steps) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts.entries()];
}

/** Consecutive repeats folded: "GET live, PATCH deployment ×2". */
function sequence(steps: string[]): string {
  const out: string[] = [];
  for (let i = 0; i < steps.length; ) {
    let j = i;
    while (j < steps.length && steps[j] === steps[i]) j++;
    out.push(j - i > 1 ? `${steps[i]} ×${j - i}` : steps[i]);
    i = j;
  }
  return out.join(', ');
}

describe('Kubernetes requests per operation', () => {
  const ns = useTestNamespace('krypton-bench');
  const admin = new ClusterAdmin();
  const agent = new http.Agent({ keepAlive: true });
  let proxy: FaultProxy;
  const backends = {} as Record<
    Mode,
    { main: KryptonTestBackend; limited: KryptonTestBackend }
  >;

  beforeAll(async () => {
    const state = testClusterState();
    proxy = await startFaultProxy({
      target: state.server,
      caFile: state.caFile || undefined,
    });
    for (const mode of MODES) {
      const config = {
        kubernetes: {
          identity: mode,
          serviceAccountMode: { namespaces: [ns.name] },
        },
        restart: { enabled: true },
      };
      backends[mode] = {
        main: await startKryptonBackend(config, { clusterUrl: proxy.url }),
        limited: await startKryptonBackend(
          { ...config, historyLimit: LIMIT },
          { clusterUrl: proxy.url },
        ),
      };
    }
    // In impersonation mode every request is root's own: it needs RBAC on Secrets and workloads.
    const root = { kind: 'User' as const, name: 'user:default/root' };
    await admin.grantSecrets(ns.name, root);
    await admin.grant(ns.name, 'root-apps', root, [
      {
        apiGroups: ['apps'],
        resources: ['deployments', 'statefulsets', 'daemonsets'],
        verbs: ['get', 'list', 'patch'],
      },
    ]);
    await admin.createSecret(ns.name, {
      metadata: {
        name: 'db',
        labels: { 'krypton.io/managed-by': 'krypton' },
        annotations: { 'krypton.io/owners': 'user:default/root' },
      },
      stringData: { password: 'p' },
    });
    await bounded([...CONSUMERS, ...BYSTANDERS], 4, ([kind, name, pod]) =>
      createWorkload(admin, ns.name, kind, name, pod),
    );
    // RBAC reaches the authorizer through a watch: wait until root's consumers list is whole.
    const ready = await eventually(
      () =>
        sendJson<{ workloads: unknown[] }>(
          `${backends.impersonation.main.url}/api/krypton/namespaces/${ns.name}/secrets/db/consumers`,
          { agent, headers: { Authorization: as('root') }, expect: [200, 403] },
        ).catch(() => ({ workloads: [] })),
      r => (r.workloads?.length ?? 0) === M,
    );
    if (ready.workloads?.length !== M) throw new Error('RBAC never applied');
  });
  afterAll(async () => {
    for (const mode of MODES) {
      await backends[mode].main.stop();
      await backends[mode].limited.stop();
    }
    await proxy.close();
    for (const kind of ['deployments', 'statefulsets', 'daemonsets']) {
      await admin.request({
        method: 'DELETE',
        path: `/apis/apps/v1/namespaces/${ns.name}/${kind}`,
      });
    }
    admin.close();
    agent.destroy();
  });

  it('counts the requests of each operation', async () => {
    const secretsPath = `/api/v1/namespaces/${ns.name}/secrets`;
    const workloads = new RegExp(
      `^/apis/apps/v1/namespaces/${ns.name}/(deployments|statefulsets|daemonsets)(/[^/]+)?$`,
    );

    /** Names a recorded request from the point of view of one live Secret. */
    function classify(
      r: RecordedRequest,
      live: { name: string; uid?: string; creating?: boolean },
    ): string {
      const [path, query = ''] = r.path.split('?');
      const metadataOnly = (r.headers.accept ?? [])
        .join(',')
        .includes('as=PartialObjectMetadata');
      if (path === `${secretsPath}/${live.name}`) return `${r.method} live`;
      if (path === secretsPath && r.method === 'POST')
        return live.creating ? 'POST live' : 'POST snapshot';
      if (path === secretsPath && r.method === 'GET') {
        const terms = (
          new URLSearchParams(query).get('labelSelector') ?? ''
        ).split(',');
        if (terms.includes('krypton.io/kind=history')) {
          const own =
            live.uid &&
            terms.includes(`krypton.io/source-uid=${hash32(live.uid)}`);
          return `GET history${own ? '' : ' (other selector)'} (${
            metadataOnly ? 'metadata' : 'full objects'
          })`;
        }
        return `GET list${metadataOnly ? ' (metadata)' : ''}`;
      }
      const snapshot = /^krypton-h-([0-9a-f]{32})-v(\d+)$/.exec(
        path.slice(secretsPath.length + 1),
      );
      if (path.startsWith(`${secretsPath}/`) && snapshot) {
        const own = live.uid && snapshot[1] === hash32(live.uid);
        return `${r.method} snapshot v${snapshot[2]}${own ? '' : ' (other)'}`;
      }
      const w = workloads.exec(path);
      if (w) {
        return w[2]
          ? `${r.method} ${w[1].slice(0, -1)}`
          : `${r.method} ${w[1]} page`;
      }
      return `${r.method} ${r.path}`;
    }

    const api = (b: KryptonTestBackend, rest = '') =>
      `${b.url}/api/krypton/namespaces/${ns.name}/secrets${rest}`;
    const auth = { Authorization: as('root') };
    interface Dto {
      uid: string;
      resourceVersion: string;
      version: number;
    }
    const create = (b: KryptonTestBackend, name: string, value: string) =>
      sendJson<Dto>(api(b), {
        agent,
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ name, data: { k: value } }),
        expect: 201,
      });
    const update = (
      b: KryptonTestBackend,
      name: string,
      rv: string,
      value: string,
    ) =>
      sendJson<Dto>(api(b, `/${name}`), {
        agent,
        method: 'PUT',
        headers: auth,
        body: JSON.stringify({ resourceVersion: rv, data: { k: value } }),
        expect: 200,
      });
    /** A Secret created and updated through Krypton: `updates` snapshots, live v(updates + 1). */
    const withHistory = async (
      b: KryptonTestBackend,
      name: string,
      updates: number,
    ) => {
      let dto = await create(b, name, `${name}-1`);
      for (let v = 2; v <= updates + 1; v++)
        dto = await update(b, name, dto.resourceVersion, `${name}-${v}`);
      return dto;
    };

    /** The requests that reached the proxy while op ran, named for the live Secret. */
    async function record(
      op: () => Promise<unknown>,
      live: { name: string; uid?: string; creating?: boolean },
    ): Promise<{ steps: string[]; impersonated: number }> {
      proxy.resetRecordings();
      await op();
      const requests = [...proxy.requests];
      return {
        steps: requests.map(r => classify(r, live)),
        impersonated: requests.filter(r => r.headers['impersonate-user'])
          .length,
      };
    }

    type Measured = Record<string, { steps: string[]; impersonated: number }>;
    const measured = {} as Record<Mode, Measured>;
    let dbUid = '';
    for (const mode of MODES) {
      const { main, limited } = backends[mode];
      const p = mode === 'impersonation' ? 'imp' : 'sa';
      const m: Measured = {};
      const get = await create(main, `${p}-get`, 'value');
      m.get = await record(
        () =>
          sendJson(api(main, `/${p}-get`), {
            agent,
            headers: auth,
            expect: 200,
          }),
        { name: `${p}-get`, uid: get.uid },
      );
      m.list = await record(
        () => sendJson(api(main), { agent, headers: auth, expect: 200 }),
        { name: '' },
      );
      m.create = await record(() => create(main, `${p}-new`, 'value'), {
        name: `${p}-new`,
        creating: true,
      });

      const upd = await create(main, `${p}-upd`, 'v1');
      m.update = await record(
        () => update(main, `${p}-upd`, upd.resourceVersion, 'v2'),
        { name: `${p}-upd`, uid: upd.uid },
      );

      // Steady state at the limit: LIMIT snapshots kept, so saving one more prunes the oldest.
      const lim = await withHistory(limited, `${p}-lim`, LIMIT);
      m.updateAtLimit = await record(
        () => update(limited, `${p}-lim`, lim.resourceVersion, 'next'),
        { name: `${p}-lim`, uid: lim.uid },
      );

      const rst = await withHistory(main, `${p}-rst`, 1);
      m.restore = await record(
        () =>
          sendJson(api(main, `/${p}-rst/restore`), {
            agent,
            method: 'POST',
            headers: auth,
            body: JSON.stringify({
              version: 1,
              resourceVersion: rst.resourceVersion,
            }),
            expect: 200,
          }),
        { name: `${p}-rst`, uid: rst.uid },
      );

      const del = await withHistory(main, `${p}-del`, N);
      m.versions = await record(
        () =>
          sendJson(api(main, `/${p}-del/versions`), {
            agent,
            headers: auth,
            expect: 200,
          }),
        { name: `${p}-del`, uid: del.uid },
      );
      m.delete = await record(
        () =>
          sendJson(
            api(
              main,
              `/${p}-del?resourceVersion=${encodeURIComponent(
                del.resourceVersion,
              )}`,
            ),
            { agent, method: 'DELETE', headers: auth, expect: 200 },
          ),
        { name: `${p}-del`, uid: del.uid },
      );

      dbUid ||= (await admin.secret(ns.name, 'db')).metadata.uid!;
      m.consumers = await record(
        () =>
          sendJson(api(main, '/db/consumers'), {
            agent,
            headers: auth,
            expect: 200,
          }),
        { name: 'db', uid: dbUid },
      );
      let restarted: { matched?: number } = {};
      m.restart = await record(
        async () => {
          restarted = await sendJson(api(main, '/db/restart-consumers'), {
            agent,
            method: 'POST',
            headers: auth,
            expect: 200,
          });
        },
        { name: 'db', uid: dbUid },
      );
      if (restarted.matched !== M)
        throw new Error(`restart matched ${restarted.matched}, not ${M}`);
      measured[mode] = m;
    }

    const patches = CONSUMERS.map(([kind]) => `PATCH ${kind.toLowerCase()}`);
    const pages = ['deployments', 'statefulsets', 'daemonsets'].map(
      k => `GET ${k} page`,
    );
    const liveCheck =
      'revision, type, immutability and counter checked on the live object before history is touched (spec)';
    const ops: OpReport[] = [
      {
        key: 'get',
        name: 'GET secret',
        specMinimum: ['GET live'],
        plain: ['GET live'],
        why: {},
      },
      {
        key: 'list',
        name: 'list (one page)',
        specMinimum: ['GET list'],
        plain: ['GET list'],
        why: {},
      },
      {
        key: 'create',
        name: 'create',
        specMinimum: ['POST live'],
        plain: ['POST live'],
        why: {},
      },
      {
        key: 'update',
        name: 'update, under the limit',
        specMinimum: [
          'GET live',
          'POST snapshot',
          'GET history (metadata)',
          'PUT live',
        ],
        plain: ['PUT live'],
        why: {
          'GET live': liveCheck,
          'POST snapshot': 'saves the state being replaced (spec)',
          'GET history (metadata)':
            "retention inventory of the UID's snapshots after saving, metadata only (spec)",
        },
      },
      {
        key: 'updateAtLimit',
        name: `update at the limit (limit ${LIMIT})`,
        specMinimum: [
          'GET live',
          'POST snapshot',
          'GET history (metadata)',
          'DELETE snapshot v1',
          'PUT live',
        ],
        plain: ['PUT live'],
        why: {
          'GET live': liveCheck,
          'POST snapshot': 'saves the state being replaced (spec)',
          'GET history (metadata)':
            'retention inventory after saving, metadata only (spec)',
          'DELETE snapshot v1':
            'one DELETE per pruned snapshot, UID/RV preconditions, before the live write (spec)',
        },
      },
      {
        key: 'restore',
        name: 'restore',
        specMinimum: [
          'GET live',
          'GET snapshot v1',
          'POST snapshot',
          'GET history (metadata)',
          'PUT live',
        ],
        plain: ['GET snapshot v1', 'PUT live'],
        why: {
          'GET live': liveCheck,
          'POST snapshot': 'saves the state being replaced (spec)',
          'GET history (metadata)':
            'retention inventory after saving, metadata only (spec)',
        },
      },
      {
        key: 'delete',
        name: `delete with ${N} snapshots`,
        specMinimum: [
          'GET live',
          'GET history (metadata)',
          ...Array.from({ length: N }, (_, i) => [
            'GET live',
            `DELETE snapshot v${i + 1}`,
          ]).flat(),
          'GET history (metadata)',
          'GET live',
          'DELETE live',
        ],
        plain: ['DELETE live'],
        why: {
          'GET live': `the revision check, then a live recheck before each of the ${N} snapshot DELETEs and before the live DELETE (spec)`,
          'GET history (metadata)':
            "the inventory of the UID's snapshots, and the final inventory that must be empty (spec)",
          ...Object.fromEntries(
            Array.from({ length: N }, (_, i) => [
              `DELETE snapshot v${i + 1}`,
              'history cleanup (keepHistory=false, the default), UID/RV preconditions',
            ]),
          ),
        },
      },
      {
        key: 'versions',
        name: `version list (${N} snapshots)`,
        specMinimum: ['GET live', 'GET history (metadata)'],
        plain: ['GET history (metadata)'],
        why: {
          'GET live':
            "the live Secret's current access rules are authorized before history is read (spec)",
        },
      },
      {
        key: 'consumers',
        name: 'consumers dry run',
        specMinimum: ['GET live', ...pages],
        plain: pages,
        why: { 'GET live': 'the live-Secret gates before discovery' },
        plainNote: 'plain: one list page per kind',
      },
      {
        key: 'restart',
        name: `restart with ${M} matches`,
        specMinimum: ['GET live', ...pages, ...patches],
        plain: [...pages, ...patches],
        why: {
          'GET live':
            'current live-Secret authorization before discovery (spec)',
        },
        plainNote: `plain: one list page per kind + one PATCH per match (${M})`,
      },
    ];

    const rows: Array<Array<string | number>> = [];
    const sequences: string[] = [];
    for (const op of ops) {
      const imp = measured.impersonation[op.key];
      const sa = measured.serviceAccount[op.key];
      const beyondPlain = tally(minus(imp.steps, op.plain));
      const beyondMinimum = minus(imp.steps, op.specMinimum);
      const missing = minus(op.specMinimum, imp.steps);
      const notes = beyondPlain.map(
        ([step, n]) =>
          `+${n} ${step}: ${
            op.why[step] ?? 'UNEXPECTED (not in the spec minimum)'
          }`,
      );
      if (op.plainNote) notes.push(op.plainNote);
      if (beyondMinimum.length)
        notes.push(`beyond the spec minimum: ${sequence(beyondMinimum)}`);
      if (missing.length)
        notes.push(`not made (differs from the minimum): ${sequence(missing)}`);
      // As multisets: concurrent patches may reach the proxy in another order.
      if ([...sa.steps].sort().join('|') !== [...imp.steps].sort().join('|'))
        notes.push(`serviceAccount mode differs: ${sequence(sa.steps)}`);
      const [first, ...more] = notes.length ? notes : ['—'];
      rows.push([
        op.name,
        imp.steps.length,
        sa.steps.length,
        op.specMinimum.length,
        op.plain.length,
        `${imp.impersonated}/${imp.steps.length}`,
        first,
      ]);
      for (const note of more) rows.push(['', '', '', '', '', '', note]);
      sequences.push(`  ${op.name.padEnd(32)} ${sequence(imp.steps)}`);
    }

    process.stdout.write(
      `\n${formatColumns(
        `Kubernetes requests per Krypton operation, counted at a pass-through proxy; ${new Date().toISOString()}, ${
          require('node:os').cpus().length
        } cores`,
        [
          'operation',
          'impers.',
          'svcacct',
          'spec min',
          'plain',
          'imp. hdr',
          'requests beyond the plain client (impersonation mode): why',
        ],
        rows,
        [
          '',
          'impers./svcacct: requests made in each identity mode; spec min: the fewest the spec allows;',
          'plain: a Kubernetes client making the same change without history or rechecks (it already holds',
          'the revision); imp. hdr: requests that carried Impersonate-User in impersonation mode.',
          'Permission checks run beside the first GET and are not Kubernetes requests.',
          '',
          'Sequences (impersonation mode):',
          ...sequences,
        ],
      )}\n`,
    );
  });
});
