import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  kubeConfigFor,
  testClusterState,
  useTestNamespace,
  ClusterAdmin,
  WorkloadKind,
  container,
  createWorkload,
  workloadPath,
} from '@krypton/kube-testenv';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from '@krypton/plugin-krypton-backend/src/__testUtils__/testBackend';
import { bounded, kubectl, send, sendJson } from './clients';
import {
  MemoryPeak,
  collectGarbage,
  formatColumns,
  median,
  mib,
  sampleMemory,
} from './measure';

/*
 * restart-consumers at scale: 2,000 workloads (1,000 Deployments, 500 StatefulSets, 500
 * DaemonSets), 100 of which reference the Secret. Krypton's POST restart-consumers against two
 * baselines on the same apiserver in the same run: kubectl (list the three kinds as JSON, filter in
 * this script, one `kubectl patch --type=json` per match, four at once) and this script doing
 * the same over HTTPS keep-alive (pages of 100, four PATCHes in flight), the floor of the
 * algorithm. Between runs the restarted-at annotations are removed, so every run does the same
 * work. Times are printed, never asserted.
 */

const COUNTS: Record<WorkloadKind, number> = {
  Deployment: 1000,
  StatefulSet: 500,
  DaemonSet: 500,
};
const KINDS = Object.keys(COUNTS) as WorkloadKind[];
const PLURAL: Record<WorkloadKind, string> = {
  Deployment: 'deployments',
  StatefulSet: 'statefulsets',
  DaemonSet: 'daemonsets',
};
const PREFIX: Record<WorkloadKind, string> = {
  Deployment: 'd',
  StatefulSet: 's',
  DaemonSet: 'ds',
};
/** Every 20th workload of each kind references the Secret: 50 + 25 + 25 = 100. */
const EVERY = 20;
const ROUNDS = 5;
/** Untimed runs with memory sampling, after the timed rounds. */
const MEMORY_RUNS = 2;
const SECRET = 'db';
const KEY = 'krypton.io/restarted-at';

/** The reference paths of the spec, in turn. */
const REFERENCES: Array<Record<string, unknown>> = [
  {
    containers: [
      container({
        env: [
          {
            name: 'P',
            valueFrom: { secretKeyRef: { name: SECRET, key: 'password' } },
          },
        ],
      }),
    ],
  },
  { containers: [container({ envFrom: [{ secretRef: { name: SECRET } }] })] },
  {
    initContainers: [
      container({
        name: 'init',
        env: [
          {
            name: 'P',
            valueFrom: { secretKeyRef: { name: SECRET, key: 'password' } },
          },
        ],
      }),
    ],
  },
  { volumes: [{ name: 'v', secret: { secretName: SECRET } }] },
  {
    volumes: [
      {
        name: 'p',
        projected: {
          sources: [
            { configMap: { name: 'cfg' } },
            { secret: { name: SECRET } },
          ],
        },
      },
    ],
  },
  { imagePullSecrets: [{ name: SECRET }] },
];
/** Workloads that do not reference it: nothing, near misses, other Secrets. */
const OTHERS: Array<Record<string, unknown>> = [
  {},
  { containers: [container({ envFrom: [{ secretRef: { name: 'db2' } }] })] },
  { volumes: [{ name: 'v', configMap: { name: SECRET } }] },
  { volumes: [{ name: 'v', secret: { secretName: 'd' } }] },
  {
    containers: [container({ envFrom: [{ configMapRef: { name: SECRET } }] })],
    imagePullSecrets: [{ name: 'registry' }],
  },
];

type Json = Record<string, any>;
interface Workload {
  kind?: string;
  metadata: { name: string; uid: string; resourceVersion: string };
  spec: { template: Json };
}

/** This script's own reading of the spec's exact-reference rules. */
function referencesSecret(template: Json | undefined, secret: string): boolean {
  const spec = template?.spec;
  if (!spec) return false;
  const containers = [
    ...(spec.containers ?? []),
    ...(spec.initContainers ?? []),
    ...(spec.ephemeralContainers ?? []),
  ];
  return (
    containers.some(
      (c: Json) =>
        (c.env ?? []).some(
          (e: Json) => e.valueFrom?.secretKeyRef?.name === secret,
        ) || (c.envFrom ?? []).some((e: Json) => e.secretRef?.name === secret),
    ) ||
    (spec.volumes ?? []).some(
      (v: Json) =>
        v.secret?.secretName === secret ||
        (v.projected?.sources ?? []).some(
          (s: Json) => s.secret?.name === secret,
        ),
    ) ||
    (spec.imagePullSecrets ?? []).some((r: Json) => r.name === secret)
  );
}

/** The same JSON Patch as Krypton's: test UID and revision, then add the annotation. */
function restartPatch(w: Workload, at: string): unknown[] {
  const metadata = w.spec.template.metadata;
  const ops: unknown[] = [
    { op: 'test', path: '/metadata/uid', value: w.metadata.uid },
    {
      op: 'test',
      path: '/metadata/resourceVersion',
      value: w.metadata.resourceVersion,
    },
  ];
  if (!metadata) {
    ops.push({
      op: 'add',
      path: '/spec/template/metadata',
      value: { annotations: { [KEY]: at } },
    });
  } else if (!metadata.annotations) {
    ops.push({
      op: 'add',
      path: '/spec/template/metadata/annotations',
      value: { [KEY]: at },
    });
  } else {
    ops.push({
      op: 'add',
      path: `/spec/template/metadata/annotations/${KEY.replace('/', '~1')}`,
      value: at,
    });
  }
  return ops;
}

const now = () => Number(process.hrtime.bigint()) / 1e6;

interface Run {
  /** Discovery (lists and filtering) alone, in ms, where it can be told apart. */
  discoveryMs?: number;
  totalMs: number;
  matched: number;
  memory?: MemoryPeak;
}

describe('restart-consumers at scale', () => {
  const ns = useTestNamespace('krypton-bench');
  const admin = new ClusterAdmin();
  const backendAgent = new http.Agent({ keepAlive: true });
  let kubeAgent: https.Agent;
  let krypton: KryptonTestBackend;
  let cacheDir: string;
  let setupMs = 0;
  /** JSON bytes and pages of the script's last inventory. */
  const inventory = { bytes: 0, pages: 0 };
  const names: Array<[WorkloadKind, string]> = [];
  const matches: Array<[WorkloadKind, string]> = [];

  beforeAll(async () => {
    const state = testClusterState();
    kubeAgent = new https.Agent({
      keepAlive: true,
      ca: readFileSync(state.caFile),
    });
    cacheDir = mkdtempSync(join(tmpdir(), 'krypton-bench-kubectl-'));
    krypton = await startKryptonBackend({
      restart: { enabled: true },
      kubernetes: { identity: 'serviceAccount' },
    });
    await admin.createSecret(ns.name, {
      metadata: {
        name: SECRET,
        labels: { 'krypton.io/managed-by': 'krypton' },
        annotations: { 'krypton.io/owners': 'user:default/root' },
      },
      stringData: { password: 'p' },
    });
    const specs: Array<[WorkloadKind, string, Record<string, unknown>]> = [];
    let m = 0;
    let o = 0;
    for (const kind of KINDS) {
      for (let i = 0; i < COUNTS[kind]; i++) {
        const name = `${PREFIX[kind]}-${String(i).padStart(4, '0')}`;
        const consumes = i % EVERY === 0;
        names.push([kind, name]);
        if (consumes) matches.push([kind, name]);
        specs.push([
          kind,
          name,
          consumes
            ? REFERENCES[m++ % REFERENCES.length]
            : OTHERS[o++ % OTHERS.length],
        ]);
      }
    }
    const t0 = Date.now();
    await bounded(specs, 16, ([kind, name, pod]) =>
      createWorkload(admin, ns.name, kind, name, pod),
    );
    setupMs = Date.now() - t0;
  }, 300_000);

  afterAll(async () => {
    await krypton.stop();
    for (const kind of KINDS) {
      await admin.request({
        method: 'DELETE',
        path: workloadPath(ns.name, kind),
      });
    }
    admin.close();
    backendAgent.destroy();
    kubeAgent.destroy();
    rmSync(cacheDir, { recursive: true, force: true });
  }, 120_000);

  /** Removes the annotation map that a run added, so that the next run starts from the same state. */
  async function reset(): Promise<void> {
    await bounded(matches, 8, async ([kind, name]) => {
      const res = await admin.request({
        method: 'PATCH',
        path: workloadPath(ns.name, kind, name),
        body: [{ op: 'remove', path: '/spec/template/metadata/annotations' }],
        contentType: 'application/json-patch+json',
      });
      // A 422 here would mean that the run before did not restart this workload.
      if (res.status !== 200)
        throw new Error(`reset ${kind}/${name}: ${res.status}`);
    });
  }

  it('restarts 100 of 2,000 workloads: Krypton against kubectl and a keep-alive script', async () => {
    const state = testClusterState();
    const k = kubectl(cacheDir);
    const restartUrl = `${krypton.url}/api/krypton/namespaces/${ns.name}/secrets/${SECRET}/restart-consumers`;
    const consumersUrl = `${krypton.url}/api/krypton/namespaces/${ns.name}/secrets/${SECRET}/consumers`;
    const auth = { Authorization: as('root') };
    // Krypton's own identity, which restart uses in serviceAccount mode.
    const token = kubeConfigFor('krypton').getCurrentUser()!.token!;

    /**
     * Times op; or, for the memory pass, samples it after a full GC. The two are kept apart: a
     * request right after a forced full collection runs several times slower than usual.
     */
    async function observe<T>(
      op: () => Promise<T>,
      sampled: boolean,
    ): Promise<{ value: T; ms: number; memory?: MemoryPeak }> {
      if (!sampled) {
        const t0 = now();
        const value = await op();
        return { value, ms: now() - t0 };
      }
      let value: T | undefined;
      const memory = await sampleMemory(async () => {
        value = await op();
      });
      return { value: value as T, ms: NaN, memory };
    }

    async function viaKrypton(sampled = false): Promise<Run> {
      const { value, ms, memory } = await observe(
        () =>
          sendJson<{ status: string; matched: number; requested: unknown[] }>(
            restartUrl,
            { agent: backendAgent, method: 'POST', headers: auth, expect: 200 },
          ),
        sampled,
      );
      if (value.status !== 'requested' || value.requested.length !== 100)
        throw new Error(`Krypton: ${JSON.stringify(value).slice(0, 300)}`);
      return { totalMs: ms, matched: value.matched, memory };
    }

    async function kryptonDiscovery(sampled = false): Promise<Run> {
      const { value, ms, memory } = await observe(
        () =>
          sendJson<{ workloads: unknown[] }>(consumersUrl, {
            agent: backendAgent,
            headers: auth,
            expect: 200,
          }),
        sampled,
      );
      return { totalMs: ms, matched: value.workloads.length, memory };
    }

    async function viaKubectl(): Promise<Run> {
      const t0 = now();
      const { stdout } = await k([
        '-n',
        ns.name,
        'get',
        'deployments.apps,statefulsets.apps,daemonsets.apps',
        '-o',
        'json',
      ]);
      const found = (
        JSON.parse(stdout.toString('utf8')) as { items: Workload[] }
      ).items.filter(w => referencesSecret(w.spec.template, SECRET));
      const discoveryMs = now() - t0;
      const at = new Date().toISOString();
      await bounded(found, 4, w =>
        k([
          '-n',
          ns.name,
          'patch',
          `${w.kind!.toLowerCase()}.apps/${w.metadata.name}`,
          '--type=json',
          '-p',
          JSON.stringify(restartPatch(w, at)),
        ]),
      );
      return {
        discoveryMs,
        totalMs: now() - t0,
        matched: found.length,
      };
    }

    async function viaScript(sampled = false): Promise<Run> {
      const headers = { Authorization: `Bearer ${token}` };
      let discoveryMs = 0;
      inventory.bytes = 0;
      inventory.pages = 0;
      const { value, ms, memory } = await observe(async () => {
        const t0 = now();
        const found = (
          await Promise.all(
            KINDS.map(async kind => {
              const out: Workload[] = [];
              let next: string | undefined;
              do {
                const query = new URLSearchParams({ limit: '100' });
                if (next) query.set('continue', next);
                const raw = await send(
                  `${state.server}${workloadPath(ns.name, kind)}?${query}`,
                  { agent: kubeAgent, headers, expect: 200 },
                );
                inventory.bytes += raw.length;
                inventory.pages++;
                const page = JSON.parse(raw.toString('utf8')) as {
                  items: Workload[];
                  metadata: { continue?: string };
                };
                for (const w of page.items) {
                  if (referencesSecret(w.spec.template, SECRET))
                    out.push({ ...w, kind });
                }
                next = page.metadata.continue || undefined;
              } while (next);
              return out;
            }),
          )
        ).flat();
        discoveryMs = now() - t0;
        const at = new Date().toISOString();
        await bounded(found, 4, w =>
          send(
            `${state.server}${workloadPath(
              ns.name,
              w.kind as WorkloadKind,
              w.metadata.name,
            )}`,
            {
              agent: kubeAgent,
              method: 'PATCH',
              headers: {
                ...headers,
                'Content-Type': 'application/json-patch+json',
              },
              body: JSON.stringify(restartPatch(w, at)),
              expect: 200,
            },
          ),
        );
        return found.length;
      }, sampled);
      return { discoveryMs, totalMs: ms, matched: value, memory };
    }

    const gc = collectGarbage();
    // Warm-up, not reported: kubectl's discovery cache, the backend's connection pool and JIT.
    await k(['-n', ns.name, 'get', 'deployments.apps', '-o', 'name']);
    await kryptonDiscovery();

    const runs: Record<string, Run[]> = {
      krypton: [],
      kryptonDiscovery: [],
      kubectl: [],
      script: [],
    };
    const started = Date.now();
    for (let round = 0; round < ROUNDS; round++) {
      runs.kubectl.push(await viaKubectl());
      await reset();
      runs.kryptonDiscovery.push(await kryptonDiscovery());
      runs.krypton.push(await viaKrypton());
      await reset();
      runs.script.push(await viaScript());
      await reset();
    }
    // The memory pass: separate, untimed runs, each after a full GC.
    const memoryRuns: Record<string, Run[]> = {
      krypton: [],
      kryptonDiscovery: [],
      kubectl: [],
      script: [],
    };
    for (let i = 0; i < MEMORY_RUNS; i++) {
      memoryRuns.kryptonDiscovery.push(await kryptonDiscovery(true));
      memoryRuns.krypton.push(await viaKrypton(true));
      await reset();
      memoryRuns.script.push(await viaScript(true));
      await reset();
    }
    const measuredMs = Date.now() - started;
    for (const [method, list] of [
      ...Object.entries(runs),
      ...Object.entries(memoryRuns),
    ]) {
      for (const r of list) {
        if (r.matched !== matches.length)
          throw new Error(
            `${method} matched ${r.matched}, not ${matches.length}`,
          );
      }
    }

    const totals = (list: Run[]) => list.map(r => r.totalMs);
    const kryptonMedian = median(totals(runs.krypton));
    const fmt = (ms: number | undefined) =>
      ms === undefined ? '' : ms.toFixed(0);
    const rssDelta = (list: Run[]) =>
      list[0]?.memory
        ? mib(
            Math.max(...list.map(r => r.memory!.rssPeak - r.memory!.rssBefore)),
          )
        : '';
    const heapDelta = (list: Run[]) =>
      list[0]?.memory
        ? mib(
            Math.max(
              ...list.map(r => r.memory!.heapPeak - r.memory!.heapBefore),
            ),
          )
        : '';
    const row = (name: string, key: string) => {
      const list = runs[key];
      return [
        name,
        ...totals(list).map(fmt),
        fmt(median(totals(list))),
        (median(totals(list)) / kryptonMedian).toFixed(2),
        list[0].discoveryMs === undefined
          ? ''
          : fmt(median(list.map(r => r.discoveryMs!))),
        rssDelta(memoryRuns[key]),
        heapDelta(memoryRuns[key]),
      ];
    };
    const total = KINDS.reduce((n, kind) => n + COUNTS[kind], 0);
    process.stdout.write(
      `\n${formatColumns(
        `restart-consumers: ${
          matches.length
        } matches among ${total} workloads (${KINDS.map(
          kind => `${COUNTS[kind]} ${PLURAL[kind]}`,
        ).join(', ')}); ${new Date().toISOString()}, ${
          require('node:os').cpus().length
        } cores`,
        [
          'method',
          ...Array.from({ length: ROUNDS }, (_, i) => `run ${i + 1} ms`),
          'median ms',
          '× Krypton',
          'discovery ms',
          'peak RSS Δ MiB',
          'heap Δ MiB',
        ],
        [
          row('Krypton POST restart-consumers', 'krypton'),
          row('Krypton GET consumers (discovery only)', 'kryptonDiscovery'),
          row('kubectl get -o json + kubectl patch ×100', 'kubectl'),
          row('script, HTTPS keep-alive', 'script'),
        ],
        [
          '',
          'Krypton: serviceAccount identity, user root, straight to the apiserver; lists each kind in pages',
          'of 100 and patches at most four at once. kubectl: one `kubectl get deployments.apps,statefulsets.apps,',
          'daemonsets.apps -o json` (kubectl pages by 500), matches filtered here, then one',
          '`kubectl patch --type=json` per match (test uid + test resourceVersion + add annotation), four',
          'processes at once; each patch is its own process with a warm discovery cache and makes a GET',
          'and a PATCH. script: the same lists and patches from this process over HTTPS keep-alive with',
          "Krypton's token (pages of 100, four PATCHes in flight). Annotations removed between runs.",
          'peak RSS Δ: highest process.memoryUsage().rss sampled every 10 ms during the request (backend',
          'and bench share the jest process) minus the value just before it; heap Δ: the same for',
          `heapUsed + arrayBuffers. Highest of ${MEMORY_RUNS} separate, untimed runs per method, each after a full GC.${
            gc ? '' : ' (No GC was available.)'
          }`,
          `The three inventories are ${mib(inventory.bytes)} MiB of JSON in ${
            inventory.pages
          } pages of up to 100.`,
          `Setup: ${total} workloads created in ${(setupMs / 1000).toFixed(
            1,
          )} s (16 at once); measured rounds took ${(measuredMs / 1000).toFixed(
            1,
          )} s.`,
        ],
      )}\n`,
    );
  });
});
