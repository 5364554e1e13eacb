import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { cpus, totalmem } from 'node:os';
import {
  kubeConfigFor,
  testClusterState,
  useTestNamespace,
  ClusterAdmin,
} from '@krypton/kube-testenv';
import { METADATA_LIST_ACCEPT, TABLE_ACCEPT } from '@krypton/core';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from '@krypton/plugin-krypton-backend/src/__testUtils__/testBackend';
import {
  KubeRequest,
  KubeTransport,
} from '@krypton/plugin-krypton-backend/src/kubernetes/transport';
import { bounded, readRawList, send } from './clients';
import {
  MemoryPeak,
  Sample,
  collectGarbage,
  formatColumns,
  median,
  mib,
  sampleMemory,
  toRow,
} from './measure';

/*
 * The platform page's list at scale: 2,000 Krypton-managed Secrets in one namespace, each with a
 * user name, a password and a certificate-sized value (about 2 KiB of data). Krypton's
 * GET /namespaces/:ns/secrets against raw lists of the same Secrets on the same apiserver with the
 * same impersonation: metadata only in one request (what `kubectl get secrets -o metadata` asks
 * for, PartialObjectMetadataList), metadata in kubectl's pages of 500, the Table of Secrets with
 * each row's metadata in pages of 500 (what `kubectl get secrets` asks for, and what Krypton's list
 * sends), and whole objects in pages of 100 (what Krypton's list sent before it read Tables). The
 * Kubernetes requests of Krypton's list are recorded at its transport: whether they asked for
 * whole Secrets, and whether the answers held values. Memory is sampled in separate, untimed runs after a full GC. Times are
 * printed, never asserted.
 */

const SECRETS = 2_000;

/** The objects of a list answer: the items of a list, or the rows' objects of a Table. */
function listedObjects(body: unknown): Array<{ data?: object }> {
  const list = body as
    | {
        items?: Array<{ data?: object }> | null;
        rows?: Array<{ object?: { data?: object } }> | null;
      }
    | undefined;
  if (list?.rows) return list.rows.map(row => row.object ?? {});
  return list?.items ?? [];
}
const USER = 'user:default/root';
const GROUP = 'group:default/krypton-admins';

/** One Kubernetes request of the backend, as its transport saw it. */
interface Recorded {
  method: string;
  path: string;
  accept: string;
  limit?: string;
  bytes: number;
  items: number;
  itemsWithValues: number;
}

/** Records every request of the in-process backend by wrapping KubeTransport.request. */
class RequestRecorder {
  readonly requests: Recorded[] = [];
  private readonly original = KubeTransport.prototype.request;

  install(): void {
    const original = this.original;
    const requests = this.requests;
    KubeTransport.prototype.request = async function recorded(
      this: KubeTransport,
      req: KubeRequest,
    ) {
      const res = await original.call(this, req);
      const items = listedObjects(res.body);
      requests.push({
        method: req.method,
        path: req.path,
        accept: req.accept ?? 'application/json',
        limit: req.query?.limit,
        bytes: res.bytes,
        items: items.length,
        itemsWithValues: items.filter(
          i => i.data && Object.keys(i.data).length > 0,
        ).length,
      });
      return res;
    };
  }

  uninstall(): void {
    KubeTransport.prototype.request = this.original;
  }
}

const now = () => Number(process.hrtime.bigint()) / 1e6;

describe('the list of 2,000 managed Secrets', () => {
  const ns = useTestNamespace('krypton-bench');
  const admin = new ClusterAdmin();
  const backendAgent = new http.Agent({ keepAlive: true });
  let kubeAgent: https.Agent;
  let krypton: KryptonTestBackend;
  let setupMs = 0;

  beforeAll(async () => {
    kubeAgent = new https.Agent({
      keepAlive: true,
      ca: readFileSync(testClusterState().caFile),
    });
    krypton = await startKryptonBackend();
    await admin.grantSecrets(ns.name, { kind: 'User', name: USER });
    const t0 = Date.now();
    const names = Array.from(
      { length: SECRETS },
      (_, i) => `app-${String(i).padStart(4, '0')}`,
    );
    await bounded(names, 8, name =>
      admin.createSecret(ns.name, {
        metadata: {
          name,
          labels: { 'krypton.io/managed-by': 'krypton' },
          annotations: { 'krypton.io/version': '1' },
        },
        stringData: {
          username: `svc-${name}`,
          password: randomBytes(48).toString('base64'),
          'tls.crt': `-----BEGIN CERTIFICATE-----\n${randomBytes(1400)
            .toString('base64')
            .replace(/.{64}/g, '$&\n')}\n-----END CERTIFICATE-----\n`,
        },
      }),
    );
    setupMs = Date.now() - t0;
  }, 600_000);

  afterAll(async () => {
    await krypton.stop();
    // No namespace controller runs here: remove the Secrets for the benches after.
    await admin.request({
      method: 'DELETE',
      path: `/api/v1/namespaces/${ns.name}/secrets`,
      query: { labelSelector: 'krypton.io/managed-by=krypton' },
    });
    admin.close();
    backendAgent.destroy();
    kubeAgent.destroy();
  }, 120_000);

  it("lists 2,000 Secrets: Krypton's list against raw lists of the same Secrets", async () => {
    const state = testClusterState();
    // Krypton's token acting as the user, as Krypton's impersonation mode sends it.
    const token = kubeConfigFor('krypton').getCurrentUser()!.token!;
    const rawHeaders = {
      Authorization: `Bearer ${token}`,
      'Impersonate-User': USER,
      'Impersonate-Group': [GROUP],
    };
    const listUrl = `${state.server}/api/v1/namespaces/${ns.name}/secrets`;
    /** A raw list in pages of `limit` (all in one without), as kubectl pages with --chunk-size. */
    const rawList = async (
      accept: string,
      limit?: number,
      includeObject?: string,
    ) => {
      const query = new URLSearchParams();
      if (limit) query.set('limit', String(limit));
      if (includeObject) query.set('includeObject', includeObject);
      let bytes = 0;
      let items = 0;
      const requests = await readRawList(
        listUrl,
        query,
        { agent: kubeAgent, headers: { ...rawHeaders, Accept: accept } },
        (list, body) => {
          bytes += body.length;
          items += listedObjects(list).length;
        },
      );
      return { bytes, items, requests };
    };
    const kryptonUrl = `${krypton.url}/api/krypton/namespaces/${ns.name}/secrets`;
    const kryptonList = async () => {
      const body = await send(kryptonUrl, {
        agent: backendAgent,
        headers: { Authorization: as('root') },
        expect: 200,
      });
      const { items } = JSON.parse(body.toString('utf8')) as {
        items: unknown[];
      };
      return { bytes: body.length, items: items.length, requests: 1 };
    };

    interface Op {
      name: string;
      run: () => Promise<{ bytes: number; items: number; requests: number }>;
    }
    const ops: Op[] = [
      {
        name: 'raw metadata-only list, one request (baseline)',
        run: () => rawList(METADATA_LIST_ACCEPT),
      },
      {
        name: "raw metadata-only list, kubectl's pages of 500",
        run: () => rawList(METADATA_LIST_ACCEPT, 500),
      },
      {
        name: 'raw list with values, pages of 100 (what Krypton asked for before)',
        run: () => rawList('application/json', 100),
      },
      {
        name: 'raw Table with metadata, pages of 500 (what Krypton asks for)',
        run: () => rawList(TABLE_ACCEPT, 500, 'Metadata'),
      },
      { name: 'Krypton GET .../secrets (platform page)', run: kryptonList },
    ];

    // Untimed: each answer lists every Secret, and what Krypton's list asked Kubernetes for.
    const shapes = new Map<
      Op,
      { bytes: number; items: number; requests: number }
    >();
    for (const op of ops) {
      const shape = await op.run();
      if (shape.items !== SECRETS) {
        throw new Error(`${op.name}: ${shape.items} items, not ${SECRETS}`);
      }
      shapes.set(op, shape);
    }
    const recorder = new RequestRecorder();
    recorder.install();
    try {
      await kryptonList();
    } finally {
      recorder.uninstall();
    }
    const lists = recorder.requests.filter(
      r => r.method === 'GET' && r.path.endsWith('/secrets'),
    );

    // Timed, interleaved round by round so that a slow stretch falls on all alike.
    const WARMUP = 3;
    const RUNS = 20;
    const samples = new Map<Op, Sample>(
      ops.map(op => [op, { name: op.name, ms: [] }]),
    );
    for (let round = 0; round < WARMUP + RUNS; round++) {
      for (const op of ops) {
        const t0 = now();
        await op.run();
        if (round >= WARMUP) samples.get(op)!.ms.push(now() - t0);
      }
    }

    // Memory of the whole process (the backend runs in it), each run after a full GC.
    const gc = collectGarbage();
    const memory = new Map<Op, MemoryPeak[]>();
    for (const op of ops) {
      const peaks: MemoryPeak[] = [];
      for (let i = 0; i < 3; i++) peaks.push(await sampleMemory(op.run));
      memory.set(op, peaks);
    }

    const baseline = samples.get(ops[0])!;
    const rows = ops.map(op => {
      const row = toRow(samples.get(op)!, baseline);
      const shape = shapes.get(op)!;
      const peaks = memory.get(op)!;
      return [
        op.name,
        row.p50.toFixed(1),
        row.p95.toFixed(1),
        row.ratioP50!.toFixed(2),
        row.ratioP95!.toFixed(2),
        op.run === kryptonList ? String(lists.length) : String(shape.requests),
        op.run === kryptonList
          ? mib(lists.reduce((sum, r) => sum + r.bytes, 0))
          : mib(shape.bytes),
        mib(shape.bytes),
        mib(median(peaks.map(m => m.rssPeak - m.rssBefore))),
        mib(median(peaks.map(m => m.heapPeak - m.heapBefore))),
      ];
    });
    const withValues = lists.reduce((sum, r) => sum + r.itemsWithValues, 0);
    process.stdout.write(
      `\n${formatColumns(
        `List of ${SECRETS.toLocaleString('en-US')} managed Secrets (about ${(
          shapes.get(ops[2])!.bytes /
          SECRETS /
          1024
        ).toFixed(
          1,
        )} KiB each as JSON) on one apiserver, ${new Date().toISOString()}, ${
          cpus().length
        } cores, ${(totalmem() / 2 ** 30).toFixed(
          0,
        )} GiB; ${RUNS} interleaved runs after ${WARMUP} warm-ups; × against the baseline`,
        [
          'operation',
          'p50 ms',
          'p95 ms',
          '× p50',
          '× p95',
          'kube requests',
          'MiB from apiserver',
          'MiB answer',
          'peak RSS Δ MiB',
          'peak heap Δ MiB',
        ],
        rows,
        [
          '',
          `Krypton's list sent ${lists.length} list requests (Accept ${[
            ...new Set(lists.map(r => r.accept)),
          ].join(', ')}; limit ${[
            ...new Set(lists.map(r => r.limit ?? 'none')),
          ].join(', ')}) and ${
            recorder.requests.length - lists.length
          } other Kubernetes requests; ${withValues} of the ${lists.reduce(
            (sum, r) => sum + r.items,
            0,
          )} listed Secrets came with their values (data).`,
          `Memory: the whole jest process (client and backend), peak minus the value before, median of 3 runs sampled every 10 ms after a full GC${
            gc ? '.' : ' (no GC was possible: figures include garbage).'
          }`,
          `Creating the ${SECRETS.toLocaleString(
            'en-US',
          )} Secrets took ${Math.round(setupMs / 1000)} s (8 at once).`,
        ],
      )}\n`,
    );
  }, 1_200_000);
});
