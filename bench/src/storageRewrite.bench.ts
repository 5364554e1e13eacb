import {
  ControlPlane,
  aescbcEncryptionConfig,
  startControlPlane,
  ClusterAdmin,
} from '@krypton/kube-testenv';
import {
  kryptonKeys,
  METADATA_LIST_ACCEPT,
  NativeSecret,
  buildSnapshot,
  inPool,
} from '@krypton/core';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import {
  BackendMemory,
  BackendMemoryPeak,
  DeployedBackend,
  buildDeployedBackend,
  startDeployedBackend,
} from './deployedBackend';
import { formatColumns, mib } from './measure';

/*
 * The storage rewrite at scale: one namespace of 20,000 Krypton objects (1,000 managed live
 * Secrets with 19 history snapshots each) on a control plane of its own with aescbc encryption
 * at rest, written under key1. The example backend as it is deployed (built, NODE_ENV=production,
 * a process of its own) rewrites them after a rotation to a new primary key: a dry run, the run
 * after the rotation (both passes), then a second run that must rewrite 0. The baseline is a
 * plain client loop over the same objects on the same apiserver: pages of 100 metadata items,
 * each page patched (the same no-op merge patch, four in flight) before the next is read, after
 * its own rotation. Times are printed, never asserted.
 *
 * Memory, two ways, because one process-level figure cannot tell garbage from what is kept:
 * - As deployed (the runs above): nothing forces a collection. The peak resident set above its
 *   idle level (VmRSS of /proc, sampled every 10 ms) and the peak of the heap used (sampled every
 *   20 ms inside the backend by memoryProbe.js, garbage included). This resident set is V8's
 *   and the allocator's behaviour: V8 grows its heap under garbage, and freed pages need not go
 *   back to the system.
 * - Probed: after one more rotation, the same three runs again with full collections every 2 s
 *   inside the backend, each followed by a sample, and full collections before and after each
 *   run. What survives them is what the backend keeps: its peak during the run and what is left
 *   at the end, above what survived before the run. Issue 17's goal (under 32 MiB above idle) is
 *   judged on these. Forced collections keep V8's heap small, so this pass's resident set is not
 *   the deployed figure; that is why it is a pass of its own. It repeats the rotation rather than
 *   reusing a run of the first pass, so that each of its runs pairs with one as deployed.
 */

const LIVE = 1_000;
const SNAPSHOTS_PER_LIVE = 19;
const OBJECTS = LIVE * (1 + SNAPSHOTS_PER_LIVE);
const NS = 'rewrite-bench';
const KEYS = kryptonKeys('krypton.io');
const MANAGED = 'krypton.io/managed-by=krypton';
/** The memory goal of issue 17: under 32 MiB above idle. */
const MEMORY_GOAL = 32 * 1024 * 1024;
/** How often the probed pass collects and samples during a run. */
const COLLECT_EVERY_MS = 2_000;

const signedMib = (bytes: number) =>
  `${bytes < 0 ? '-' : '+'}${mib(Math.abs(bytes))}`;

interface RunFigures {
  ms: number;
  rssIdle: number;
  rssPeak: number;
  samples: number;
  /** As deployed: the memory when the run started; probed: what survived full collections. */
  before: BackendMemory;
  /** What the backend's probe saw during the run. */
  during: BackendMemoryPeak;
  /** Probed: what survived full collections after the run. */
  after?: BackendMemory;
  seen: number;
  rewritten: number;
  recheckRewritten?: number;
  verdict: string;
}

describe('storage rewrite of 20,000 objects', () => {
  const dir = mkdtempSync(join(tmpdir(), 'krypton-rewrite-bench-'));
  const configFile = join(dir, 'encryption.yaml');
  const keys: Array<[string, string]> = [1, 2, 3].map(i => [
    `key${i}`,
    randomBytes(32).toString('base64'),
  ]);
  let cp: ControlPlane;
  let admin: ClusterAdmin;
  let backend: DeployedBackend | undefined;

  /** Makes `primary` the first key (the others still decrypt) and restarts the apiserver. */
  async function rotateTo(primary: number) {
    const order = [
      keys[primary - 1],
      ...keys.filter((_, i) => i !== primary - 1),
    ];
    writeFileSync(configFile, aescbcEncryptionConfig(order));
    await cp.restartApiServer();
  }

  /** How many Secrets of the namespace etcd holds under each key, in one range read. */
  async function keysInEtcd(): Promise<Record<string, number>> {
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    const res = await fetch(`${cp.state.etcdUrl}/v3/kv/range`, {
      method: 'POST',
      body: JSON.stringify({
        key: b64(`/registry/secrets/${NS}/`),
        range_end: b64(`/registry/secrets/${NS}0`),
      }),
    });
    const { kvs = [] } = (await res.json()) as {
      kvs?: Array<{ value: string }>;
    };
    const out: Record<string, number> = {};
    for (const kv of kvs) {
      const key =
        /^k8s:enc:aescbc:v1:(key\d):/.exec(
          Buffer.from(kv.value, 'base64').toString('latin1'),
        )?.[1] ?? 'plaintext';
      out[key] = (out[key] ?? 0) + 1;
    }
    return out;
  }

  /** The no-op merge patch of one listed object; whether it was stored again. */
  async function patchUnchanged(item: NativeSecret): Promise<boolean> {
    const { name, uid, resourceVersion } = item.metadata;
    const res = await admin.request({
      method: 'PATCH',
      path: `/api/v1/namespaces/${NS}/secrets/${name}`,
      body: { metadata: { uid, resourceVersion } },
      contentType: 'application/merge-patch+json',
    });
    if (res.status !== 200) throw new Error(`patch: ${res.status}`);
    return (
      (res.body as NativeSecret).metadata.resourceVersion !== resourceVersion
    );
  }

  /** The baseline: a plain client loop, page by page, the same no-op patch, four in flight. */
  async function clientLoop(): Promise<{ ms: number; rewritten: number }> {
    const started = performance.now();
    let rewritten = 0;
    let continueToken: string | undefined;
    do {
      const page = await admin.request({
        method: 'GET',
        path: `/api/v1/namespaces/${NS}/secrets`,
        query: {
          labelSelector: MANAGED,
          limit: '100',
          continue: continueToken,
        },
        accept: METADATA_LIST_ACCEPT,
      });
      if (page.status !== 200) throw new Error(`list: ${page.status}`);
      const body = page.body as {
        items: NativeSecret[];
        metadata: { continue?: string };
      };
      const written = await inPool(body.items, 4, patchUnchanged);
      rewritten += written.filter(Boolean).length;
      continueToken = body.metadata.continue || undefined;
    } while (continueToken);
    return { ms: performance.now() - started, rewritten };
  }

  /**
   * One run through the deployed backend's HTTP API, with its process's memory sampled; `probed`,
   * with full collections before, every COLLECT_EVERY_MS during, and after it.
   */
  async function kryptonRun(
    deployed: DeployedBackend,
    query: string,
    probed = false,
  ): Promise<RunFigures> {
    const headers = { Authorization: `Bearer ${deployed.guestToken}` };
    const probe = deployed.memoryProbe;
    if (!probe) throw new Error('the backend was started without its probe');
    const collected = probed ? await probe.collect() : undefined;
    // Idle: the mean resident set over two seconds before the run.
    const idle: number[] = [];
    for (let i = 0; i < 20; i++) {
      idle.push(deployed.rssBytes());
      await new Promise(r => setTimeout(r, 100));
    }
    const rssIdle = idle.reduce((a, b) => a + b, 0) / idle.length;
    let rssPeak = rssIdle;
    let samples = 0;
    const before = (await probe.peak()).now;
    if (probed) await probe.collectEvery(COLLECT_EVERY_MS);
    const timer = setInterval(() => {
      rssPeak = Math.max(rssPeak, deployed.rssBytes());
      samples++;
    }, 10);
    try {
      const start = await fetch(
        `${deployed.url}/api/krypton/storage-rewrite${query}`,
        { method: 'POST', headers },
      );
      if (start.status !== 202)
        throw new Error(`start: ${start.status} ${await start.text()}`);
      const location = start.headers.get('location')!;
      for (;;) {
        await new Promise(r => setTimeout(r, 250));
        const res = await fetch(`${deployed.url}${location}`, { headers });
        const run = (await res.json()) as {
          state: string;
          error?: string;
          result?: {
            startedAt: string;
            finishedAt: string;
            counts: { seen: number; rewritten: number };
            recheck?: { counts: { rewritten: number } };
            oldKeyRetirement: { verdict: string };
          };
        };
        if (run.state === 'running') continue;
        if (!run.result)
          throw new Error(`the run ended ${run.state}: ${run.error}`);
        const { result } = run;
        clearInterval(timer);
        if (probed) await probe.collectEvery(0);
        const during = await probe.peak();
        return {
          ms: Date.parse(result.finishedAt) - Date.parse(result.startedAt),
          rssIdle,
          rssPeak,
          samples,
          before: collected ?? before,
          during,
          after: probed ? await probe.collect() : undefined,
          seen: result.counts.seen,
          rewritten: result.counts.rewritten,
          recheckRewritten: result.recheck?.counts.rewritten,
          verdict: `${run.state}, ${result.oldKeyRetirement.verdict}`,
        };
      }
    } finally {
      clearInterval(timer);
    }
  }

  beforeAll(async () => {
    writeFileSync(configFile, aescbcEncryptionConfig([keys[0]]));
    const [deployedDir, plane] = await Promise.all([
      buildDeployedBackend(),
      startControlPlane({ encryptionConfig: configFile }),
    ]);
    cp = plane;
    admin = new ClusterAdmin(cp.state.identities.admin.kubeconfig);
    const ns = await admin.request({
      method: 'POST',
      path: '/api/v1/namespaces',
      body: { metadata: { name: NS } },
    });
    if (ns.status !== 201) throw new Error(`namespace: ${ns.status}`);
    await admin.grantSecrets(NS, { kind: 'User', name: 'user:default/guest' });
    const started = performance.now();
    await inPool(
      Array.from({ length: LIVE }, (_, i) => i),
      8,
      async i => {
        const live = (await admin.createSecret(NS, {
          metadata: {
            name: `app-${String(i).padStart(4, '0')}`,
            labels: { 'krypton.io/managed-by': 'krypton' },
          },
          data: { password: randomBytes(24).toString('base64') },
        })) as unknown as NativeSecret;
        for (let v = 1; v <= SNAPSHOTS_PER_LIVE; v++) {
          const snapshot = await buildSnapshot(live, v, KEYS, {
            by: 'user:default/guest',
            at: new Date().toISOString(),
          });
          await admin.createSecret(NS, snapshot as never);
        }
      },
    );
    process.stdout.write(
      `created ${OBJECTS} objects in ${Math.round(
        performance.now() - started,
      )} ms\n`,
    );
    backend = await startDeployedBackend(deployedDir, 'rewrite', {}, cp.state, {
      memoryProbe: true,
    });
  }, 1_800_000);

  afterAll(async () => {
    await backend?.stop();
    admin?.close();
    await cp?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('rewrites them after a rotation, in bounded memory, and rewrites 0 the second time', async () => {
    expect(await keysInEtcd()).toEqual({ key1: OBJECTS });

    // The baseline's rotation: key2 primary, then its client loop, twice.
    await rotateTo(2);
    const loopStale = await clientLoop();
    const loopCurrent = await clientLoop();
    expect(loopStale.rewritten).toBe(OBJECTS);
    expect(loopCurrent.rewritten).toBe(0);
    expect(await keysInEtcd()).toEqual({ key2: OBJECTS });

    // Krypton's rotation: key3 primary. A dry run first warms the backend up (and counts).
    await rotateTo(3);
    const deployed = backend!;
    const dry = await kryptonRun(deployed, `?namespace=${NS}&dryRun=true`);
    expect(dry.seen).toBe(OBJECTS);
    const first = await kryptonRun(deployed, `?namespace=${NS}`);
    expect(first.rewritten).toBe(OBJECTS);
    expect(first.recheckRewritten).toBe(0);
    expect(await keysInEtcd()).toEqual({ key3: OBJECTS });
    const second = await kryptonRun(deployed, `?namespace=${NS}`);
    expect(second.rewritten).toBe(0);

    // The probed pass: key1 primary again, the same three runs with forced collections.
    await rotateTo(1);
    const probedDry = await kryptonRun(
      deployed,
      `?namespace=${NS}&dryRun=true`,
      true,
    );
    expect(probedDry.seen).toBe(OBJECTS);
    const probedFirst = await kryptonRun(deployed, `?namespace=${NS}`, true);
    expect(probedFirst.rewritten).toBe(OBJECTS);
    expect(probedFirst.recheckRewritten).toBe(0);
    expect(await keysInEtcd()).toEqual({ key1: OBJECTS });
    const probedSecond = await kryptonRun(deployed, `?namespace=${NS}`, true);
    expect(probedSecond.rewritten).toBe(0);

    const ratio = (a: number, b: number) => `×${(a / b).toFixed(2)}`;
    const row = (
      name: string,
      run: RunFigures,
      baselineMs: number,
    ): Array<string | number> => [
      name,
      run.seen.toLocaleString('en'),
      run.rewritten.toLocaleString('en'),
      (run.ms / 1000).toFixed(1),
      (baselineMs / 1000).toFixed(1),
      ratio(run.ms, baselineMs),
      mib(run.before.heapUsed),
      mib(run.during.sampled.heapUsed),
      mib(run.rssIdle),
      `+${mib(run.rssPeak - run.rssIdle)}`,
      run.verdict,
    ];
    /** What the backend kept during a probed run and after it, above what it kept before. */
    const kept = (run: RunFigures) => {
      const after = run.after!;
      return {
        peak:
          Math.max(run.during.collected.heapUsed, after.heapUsed) -
          run.before.heapUsed,
        end: after.heapUsed - run.before.heapUsed,
        external: after.external - run.before.external,
      };
    };
    const probedRow = (
      name: string,
      run: RunFigures,
    ): Array<string | number> => [
      name,
      run.rewritten.toLocaleString('en'),
      (run.ms / 1000).toFixed(1),
      run.during.collections,
      (run.during.collectionMs / 1000).toFixed(1),
      mib(run.before.heapUsed),
      signedMib(kept(run).peak),
      signedMib(kept(run).end),
      signedMib(kept(run).external),
      `+${mib(run.during.sampled.heapUsed - run.before.heapUsed)}`,
      mib(run.rssIdle),
      `+${mib(run.rssPeak - run.rssIdle)}`,
      run.verdict,
    ];
    const probedRuns = [probedDry, probedFirst, probedSecond];
    const worstKept = Math.max(...probedRuns.map(r => kept(r).peak));
    const machine = `${new Date().toISOString()}, ${
      cpus().length
    } cores, ${Math.round(totalmem() / 2 ** 30)} GiB`;
    process.stdout.write(
      `${formatColumns(
        `Storage rewrite of ${OBJECTS.toLocaleString(
          'en',
        )} objects (${LIVE} live Secrets, ${SNAPSHOTS_PER_LIVE} snapshots each) in one namespace, the example backend as deployed, no forced collection (${machine})`,
        [
          'run',
          'seen',
          'rewritten',
          'Krypton s',
          'client loop s',
          'ratio',
          'heap used at start MiB',
          'heap used peak MiB',
          'RSS idle MiB',
          'RSS peak above idle MiB',
          'state, verdict',
        ],
        [
          row('dry run (counts, writes nothing)', dry, loopCurrent.ms),
          row(
            'after rotation (rewrite + recheck pass)',
            first,
            loopStale.ms + loopCurrent.ms,
          ),
          row('second run (one pass, rewrites 0)', second, loopCurrent.ms),
        ],
        [
          `client loop: one pass over stale objects ${(
            loopStale.ms / 1000
          ).toFixed(1)} s (rewrote ${
            loopStale.rewritten
          }), one over current objects ${(loopCurrent.ms / 1000).toFixed(
            1,
          )} s (rewrote ${
            loopCurrent.rewritten
          }); the first run is compared with both.`,
          `heap used peak: the highest of 20 ms samples inside the backend, garbage included. RSS: VmRSS sampled every 10 ms (${first.samples} samples in the first run), idle the mean over 2 s before the run; it is V8's and the allocator's behaviour (heap grown under garbage, freed pages kept), not what the rewrite holds.`,
        ],
      )}\n\n${formatColumns(
        `The same runs after one more rotation, probed: full collections before and after each run and every ${
          COLLECT_EVERY_MS / 1000
        } s during it, each followed by a sample (${machine})`,
        [
          'run',
          'rewritten',
          'Krypton s',
          'full GCs',
          'GC s',
          'heap after GC before MiB',
          'kept peak MiB',
          'kept at end MiB',
          'external kept MiB',
          'heap used peak MiB',
          'RSS idle MiB',
          'RSS peak above idle MiB',
          'state, verdict',
        ],
        [
          probedRow('dry run', probedDry),
          probedRow('after rotation (rewrite + recheck pass)', probedFirst),
          probedRow('second run', probedSecond),
        ],
        [
          `kept: heap used after full collections (the highest during the run, or at its end) above heap used after full collections before it; external kept: off-heap memory (Buffers) after the run's collections above before. Heap used peak and RSS are above the level before the run; the forced collections keep V8's heap small, so this pass's RSS is not the deployed figure.`,
          `memory goal (issue 17): under ${mib(
            MEMORY_GOAL,
          )} MiB above idle, judged on what the backend keeps: ${
            worstKept < MEMORY_GOAL ? 'met' : 'NOT met'
          } (highest kept peak ${signedMib(
            worstKept,
          )} MiB; after the rotation ${signedMib(
            kept(probedFirst).peak,
          )} MiB at peak, ${signedMib(
            kept(probedFirst).end,
          )} MiB at its end). As deployed, the run after the rotation raised the RSS by +${mib(
            first.rssPeak - first.rssIdle,
          )} MiB above idle: garbage V8 had not yet collected and pages the allocator kept.`,
        ],
      )}\n`,
    );
  }, 1_200_000);
});
