import { randomBytes } from 'node:crypto';
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
} from '@krypton/kube-testenv';
import { hash32 } from '@krypton/plugin-krypton-backend/src/__testUtils__/history';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from '@krypton/plugin-krypton-backend/src/__testUtils__/testBackend';
import { bounded, kubectl, send, sendJson } from './clients';
import {
  MemoryPeak,
  Sample,
  collectGarbage,
  formatColumns,
  mib,
  toRow,
  sampleMemory,
} from './measure';

/*
 * A Secret at the largest history limit with large values: 100 snapshots of about 700 KiB each,
 * written through Krypton updates (historyLimit 100). Then GET .../versions, which reads the live
 * Secret and a metadata-only list of the snapshots, against the same list made by kubectl (its
 * default table view, which the server renders from metadata, and `-o name`, which fetches whole
 * objects) and a raw metadata-only list from this process, the floor. The backend's memory during
 * the versions request shows that it never holds the snapshots' values. Times are printed, never
 * asserted.
 */

const SNAPSHOTS = 100;
/** 537,600 random bytes are 716,800 base64 characters: 700 KiB of text per value. */
const RANDOM_BYTES = 537_600;
const VALUE_CHARS = (RANDOM_BYTES / 3) * 4;
const METADATA_LIST =
  'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
const LIVE_METADATA =
  'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';
const TABLE =
  'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

const value = () => randomBytes(RANDOM_BYTES).toString('base64');
const now = () => Number(process.hrtime.bigint()) / 1e6;

describe('history at the limit with large values', () => {
  const ns = useTestNamespace('krypton-bench');
  const admin = new ClusterAdmin();
  const backendAgent = new http.Agent({ keepAlive: true });
  let kubeAgent: https.Agent;
  let krypton: KryptonTestBackend;
  let cacheDir: string;
  let uid = '';
  let setupMs = 0;

  beforeAll(async () => {
    const state = testClusterState();
    kubeAgent = new https.Agent({
      keepAlive: true,
      ca: readFileSync(state.caFile),
    });
    cacheDir = mkdtempSync(join(tmpdir(), 'krypton-bench-kubectl-'));
    krypton = await startKryptonBackend({
      historyLimit: SNAPSHOTS,
      kubernetes: {
        identity: 'serviceAccount',
        serviceAccountMode: { namespaces: [ns.name] },
      },
    });
    const url = `${krypton.url}/api/krypton/namespaces/${ns.name}/secrets`;
    const headers = { Authorization: as('root') };
    const t0 = Date.now();
    let dto = await sendJson<{ uid: string; resourceVersion: string }>(url, {
      agent: backendAgent,
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'big', data: { value: value() } }),
      expect: 201,
    });
    uid = dto.uid;
    // Each update saves the state it replaces: v1 … v100 end up in history, v101 is live.
    for (let i = 0; i < SNAPSHOTS; i++) {
      dto = await sendJson(`${url}/big`, {
        agent: backendAgent,
        method: 'PUT',
        headers,
        body: JSON.stringify({
          resourceVersion: dto.resourceVersion,
          data: { value: value() },
        }),
        expect: 200,
      });
    }
    setupMs = Date.now() - t0;
  }, 300_000);

  afterAll(async () => {
    await krypton.stop();
    // No namespace controller runs here: remove the ~100 MB of snapshots for the benches after.
    const snapshots = await admin.request({
      method: 'GET',
      path: `/api/v1/namespaces/${ns.name}/secrets`,
      query: { labelSelector: 'krypton.io/kind=history' },
      accept: METADATA_LIST,
    });
    const names = (
      (snapshots.body as { items?: Array<{ metadata: { name: string } }> })
        .items ?? []
    ).map(s => s.metadata.name);
    await bounded([...names, 'big'], 4, name =>
      admin.request({
        method: 'DELETE',
        path: `/api/v1/namespaces/${ns.name}/secrets/${name}`,
      }),
    );
    admin.close();
    backendAgent.destroy();
    kubeAgent.destroy();
    rmSync(cacheDir, { recursive: true, force: true });
  }, 120_000);

  it('lists 100 snapshots of 700 KiB: Krypton against kubectl and a raw metadata list', async () => {
    const state = testClusterState();
    const k = kubectl(cacheDir);
    const selector = `krypton.io/managed-by=krypton,krypton.io/kind=history,krypton.io/source-uid=${hash32(
      uid,
    )}`;
    const listUrl = `${state.server}/api/v1/namespaces/${
      ns.name
    }/secrets?${new URLSearchParams({
      labelSelector: selector,
      limit: '100',
    })}`;
    // Krypton's own identity, which history calls use in serviceAccount mode.
    const token = kubeConfigFor('krypton').getCurrentUser()!.token!;
    const kube = (accept: string) =>
      send(listUrl, {
        agent: kubeAgent,
        headers: { Authorization: `Bearer ${token}`, Accept: accept },
        expect: 200,
      });
    const versionsUrl = `${krypton.url}/api/krypton/namespaces/${ns.name}/secrets/big/versions`;

    interface Result {
      sample: Sample;
      bytes?: number;
      memory?: MemoryPeak[];
    }
    /** `warmup` untimed runs, then `runs` timed ones. */
    async function timed(
      name: string,
      op: () => Promise<Buffer | unknown>,
      runs: number,
      options: { warmup?: number } = {},
    ): Promise<Result> {
      for (let i = 0; i < (options.warmup ?? 2); i++) await op();
      const ms: number[] = [];
      let bytes: number | undefined;
      for (let i = 0; i < runs; i++) {
        const t0 = now();
        const out = await op();
        ms.push(now() - t0);
        if (Buffer.isBuffer(out)) bytes = out.length;
      }
      return { sample: { name, ms }, bytes };
    }
    /**
     * Separate runs for memory, each after a full GC and sampled every 10 ms. They are not timed:
     * a request right after a forced full collection runs several times slower than usual.
     */
    async function withMemory(
      result: Result,
      op: () => Promise<unknown>,
      runs: number,
    ): Promise<Result> {
      const memory: MemoryPeak[] = [];
      for (let i = 0; i < runs; i++) {
        memory.push(await sampleMemory(op));
      }
      return { ...result, memory };
    }

    const gc = collectGarbage();
    const metadata = JSON.parse((await kube(METADATA_LIST)).toString('utf8'));
    if (metadata.items?.length !== SNAPSHOTS || metadata.metadata.continue)
      throw new Error(`expected ${SNAPSHOTS} snapshots in one page`);

    const started = Date.now();
    const raw = await timed(
      'raw metadata-only list (floor)',
      () => kube(METADATA_LIST),
      30,
      { warmup: 5 },
    );
    // The route's own floor: the gate must read the live Secret (its metadata) before history is
    // touched, so a version list costs that GET and then the list, one after the other.
    const liveUrl = `${state.server}/api/v1/namespaces/${ns.name}/secrets/big`;
    const routeFloor = await timed(
      'floor: live metadata GET, then the list',
      async () => {
        await send(liveUrl, {
          agent: kubeAgent,
          headers: {
            Authorization: `Bearer ${token}`,
            Accept: LIVE_METADATA,
          },
          expect: 200,
        });
        return kube(METADATA_LIST);
      },
      30,
      { warmup: 5 },
    );
    const listVersions = async () => {
      const body = await send(versionsUrl, {
        agent: backendAgent,
        headers: { Authorization: as('root') },
        expect: 200,
      });
      if (JSON.parse(body.toString('utf8')).items.length !== SNAPSHOTS)
        throw new Error('versions did not list every snapshot');
      return body;
    };
    const versions = await withMemory(
      await timed('Krypton GET .../versions', listVersions, 20, { warmup: 3 }),
      listVersions,
      5,
    );
    // Where the versions request's time would go if its gate read the live Secret's large value.
    const rawLive = await timed(
      'raw GET of the live Secret (values)',
      () =>
        send(liveUrl, {
          agent: kubeAgent,
          headers: { Authorization: `Bearer ${token}` },
          expect: 200,
        }),
      20,
      { warmup: 3 },
    );
    const kryptonLive = await timed(
      'Krypton GET .../big (values)',
      () =>
        send(versionsUrl.replace(/\/versions$/, ''), {
          agent: backendAgent,
          headers: { Authorization: as('root') },
          expect: 200,
        }),
      20,
      { warmup: 3 },
    );
    const kubectlTable = await timed(
      'kubectl get secrets -l … (table)',
      () => k(['-n', ns.name, 'get', 'secrets', '-l', selector]),
      10,
    );
    const kubectlFloor = await timed(
      'kubectl get namespace -o name (one small GET)',
      () => k(['get', 'namespace', ns.name, '-o', 'name']),
      10,
    );
    const kubectlName = await timed(
      'kubectl get secrets -l … -o name',
      () => k(['-n', ns.name, 'get', 'secrets', '-l', selector, '-o', 'name']),
      3,
      { warmup: 0 },
    );
    const tableBytes = (await kube(TABLE)).length;
    // The control: the same list with values, parsed in this process and sampled the same way.
    const parseFull = async () => {
      const body = await kube('application/json');
      const items = JSON.parse(body.toString('utf8')).items;
      if (items.length !== SNAPSHOTS) throw new Error('full list incomplete');
      return { body, items };
    };
    const full = await withMemory(
      await timed(
        'control: full-object list parsed here',
        async () => (await parseFull()).body,
        2,
        { warmup: 0 },
      ),
      // The answer and the parsed items stay referenced until the sampler's last sample.
      parseFull,
      2,
    );
    const measuredMs = Date.now() - started;

    const base = toRow(raw.sample);
    const peak = (
      list: MemoryPeak[] | undefined,
      pick: (m: MemoryPeak) => number,
    ) => (list ? mib(Math.max(...list.map(pick))) : '');
    const row = (r: Result, bytes?: number) => {
      const t = toRow(r.sample, raw.sample);
      return [
        r.sample.name,
        r.sample.ms.length,
        t.p50.toFixed(1),
        t.p95.toFixed(1),
        (t.p50 / base.p50).toFixed(1),
        bytes === undefined ? '' : mib(bytes),
        peak(r.memory, m => m.rssPeak - m.rssBefore),
        peak(r.memory, m => m.heapPeak - m.heapBefore),
      ];
    };
    const valuesBytes = SNAPSHOTS * (VALUE_CHARS + 'value'.length);
    process.stdout.write(
      `\n${formatColumns(
        `Version list of one Secret with ${SNAPSHOTS} snapshots of ${(
          VALUE_CHARS / 1024
        ).toFixed(
          0,
        )} KiB each (historyLimit ${SNAPSHOTS}); ${new Date().toISOString()}, ${
          require('node:os').cpus().length
        } cores`,
        [
          'operation',
          'runs',
          'p50 ms',
          'p95 ms',
          '× raw p50',
          'answer MiB',
          'peak RSS Δ MiB',
          'heap Δ MiB',
        ],
        [
          row(raw, raw.bytes),
          row(routeFloor, routeFloor.bytes),
          row(versions, versions.bytes),
          row(rawLive, rawLive.bytes),
          row(kryptonLive, kryptonLive.bytes),
          row(kubectlTable, tableBytes),
          row(kubectlFloor),
          row(kubectlName, full.bytes),
          row(full, full.bytes),
        ],
        [
          '',
          `The snapshots' values: ${mib(valuesBytes)} MiB of bytes, ${mib(
            full.bytes ?? 0,
          )} MiB as the JSON list. Krypton: serviceAccount identity, user root; the versions`,
          "request reads the live Secret's metadata (its gate) and one metadata-only list page. The raw list",
          `uses Krypton's selector and token with Accept ${METADATA_LIST}.`,
          'kubectl (same release, admin kubeconfig, warm discovery cache): its default output asks for a',
          'server-rendered Table (rows carry object metadata, no values); `-o name` is not a table printer,',
          'so kubectl asks for application/json and receives every value. answer MiB for the kubectl rows',
          'is what the same request returns when made from this process.',
          'peak RSS Δ: highest process.memoryUsage().rss sampled every 10 ms during the request (the backend',
          'runs in the jest process) minus the value just before; heap Δ: the same for heapUsed + arrayBuffers.',
          `Highest of separate, untimed runs (5 for Krypton, 2 for the control), each after a full GC.${
            gc ? '' : ' (No GC was available.)'
          }`,
          `Setup: 1 create + ${SNAPSHOTS} updates through Krypton in ${(
            setupMs / 1000
          ).toFixed(1)} s; measurements took ${(measuredMs / 1000).toFixed(
            1,
          )} s.`,
        ],
      )}\n`,
    );
  });
});
