import {
  INVENTORY_MAX_BYTES,
  INVENTORY_MAX_OBJECTS,
  INVENTORY_MAX_PAGES,
  INVENTORY_PAGE_SIZE,
} from '@krypton/core';
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
  workloadPath,
} from '@krypton/kube-testenv';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import request from 'supertest';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from '../../__testUtils__/testBackend';

/**
 * The collection budgets of restart discovery at their edges, produced on the real apiserver where
 * a real apiserver can produce them (2,000 and 2,001 objects, 32 MiB of JSON), at the fault proxy
 * where it cannot (repeated or expired continuations, 100 pages), and the bound of four patches in
 * flight, counted by a pass-through proxy between Krypton and the fault proxy.
 */

const INCOMPLETE =
  'The workload list could not be read completely (over budget, or a continuation that was invalid, repeated or expired), so no workload of this kind was restarted.';
const NOTE =
  'Only acknowledged pod-template patches are reported as requested. Rollout completion, readiness, and credential uptake are not verified.';
const RESTARTED_AT = 'krypton.io/restarted-at';
type Ref = { kind: string; name: string };
const byName = (a: Ref, b: Ref) =>
  `${a.kind}/${a.name}`.localeCompare(`${b.kind}/${b.name}`);

/** Runs `run` over the items with at most `limit` calls at once. */
async function bounded<T>(
  items: T[],
  limit: number,
  run: (item: T) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      await run(item);
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, worker),
  );
}

const consumesDb = () => ({
  containers: [container({ envFrom: [{ secretRef: { name: 'db' } }] })],
});

/**
 * A pass-through HTTP proxy that holds every PATCH for `delayMs` before forwarding it, and counts
 * how many PATCHes are in flight at once: from their arrival to the end of their answer.
 */
interface CountingProxy {
  url: string;
  delayMs: number;
  readonly patches: { current: number; max: number; total: number };
  reset(): void;
  close(): Promise<void>;
}

async function startCountingProxy(target: string): Promise<CountingProxy> {
  const upstream = new URL(target);
  const agent = new http.Agent({ keepAlive: true });
  const patches = { current: 0, max: 0, total: 0 };
  const hold = { delayMs: 0 };
  const server = http.createServer((req, res) => {
    const isPatch = req.method === 'PATCH';
    if (isPatch) {
      patches.current++;
      patches.total++;
      patches.max = Math.max(patches.max, patches.current);
      let done = false;
      const end = () => {
        if (!done) {
          done = true;
          patches.current--;
        }
      };
      res.once('finish', end);
      res.once('close', end);
    }
    // Repeated header lines (Impersonate-Group) stay separate lines, as the fault proxy expects.
    const headers: Record<string, string | string[]> = {};
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i].toLowerCase();
      const value = req.rawHeaders[i + 1];
      const prev = headers[name];
      if (prev === undefined) headers[name] = value;
      else
        headers[name] = Array.isArray(prev) ? [...prev, value] : [prev, value];
    }
    headers.host = upstream.host;
    const forward = () => {
      const up = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers,
          agent,
        },
        answer => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      up.on('error', () => res.destroy());
      req.pipe(up);
    };
    if (isPatch && hold.delayMs > 0) setTimeout(forward, hold.delayMs);
    else forward();
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get delayMs() {
      return hold.delayMs;
    },
    set delayMs(ms: number) {
      hold.delayMs = ms;
    },
    patches,
    reset() {
      patches.max = patches.current;
      patches.total = 0;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>(resolve => server.close(() => resolve()));
      agent.destroy();
    },
  };
}

describe('restart-consumers collection budgets and patch concurrency', () => {
  const admin = new ClusterAdmin();
  let proxy: FaultProxy;
  let counter: CountingProxy;
  let krypton: KryptonTestBackend;

  /** Krypton → counting proxy → fault proxy → kube-apiserver. */
  beforeAll(async () => {
    const state = testClusterState();
    proxy = await startFaultProxy({
      target: state.server,
      caFile: state.caFile || undefined,
    });
    counter = await startCountingProxy(proxy.url);
    krypton = await startKryptonBackend(
      { restart: { enabled: true }, kubernetes: { identity: 'hybrid' } },
      { clusterUrl: counter.url },
    );
  });
  afterEach(() => {
    proxy.clear();
    counter.delayMs = 0;
  });
  afterAll(async () => {
    await krypton.stop();
    await counter.close();
    await proxy.close();
    admin.close();
  });

  const restart = (namespace: string) =>
    request(krypton.server)
      .post(`/api/krypton/namespaces/${namespace}/secrets/db/restart-consumers`)
      .set('Authorization', as('root'));

  /** A managed Secret `db` that root may read and restart. */
  async function prepareNamespace(namespace: string) {
    await admin.grantSecrets(namespace, {
      kind: 'User',
      name: 'user:default/root',
    });
    await admin.createSecret(namespace, {
      metadata: {
        name: 'db',
        labels: { 'krypton.io/managed-by': 'krypton' },
        annotations: { 'krypton.io/owners': 'user:default/root' },
      },
      data: { password: 'cA==' },
    });
    const ready = await eventually(
      () =>
        request(krypton.server)
          .get(`/api/krypton/namespaces/${namespace}/secrets/db`)
          .set('Authorization', as('root')),
      r => r.status === 200,
    );
    expect(ready.status).toBe(200);
  }

  /** The list requests of one kind that reached the fault proxy, in order. */
  const lists = (namespace: string, kind: WorkloadKind) =>
    proxy.requests.filter(
      r =>
        r.method === 'GET' &&
        r.path.startsWith(`${workloadPath(namespace, kind)}?`),
    );
  const patchesSeen = () => proxy.requests.filter(r => r.method === 'PATCH');

  const versions = (namespace: string, refs: Array<[WorkloadKind, string]>) =>
    Promise.all(
      refs.map(
        async ([kind, name]) =>
          (await readWorkload(admin, namespace, kind, name)).metadata
            .resourceVersion,
      ),
    );

  /**
   * Deletes every workload of a kind in one request, so that the objects do not outlive the file
   * (no namespace controller runs). The answer lists every deleted object, templates included.
   */
  const deleteAll = async (namespace: string, kind: WorkloadKind) => {
    const res = await admin.request({
      method: 'DELETE',
      path: workloadPath(namespace, kind),
    });
    expect(res.status).toBe(200);
  };

  describe('a Deployment inventory of 2,000 objects passes, 2,001 fails', () => {
    const ns = useTestNamespace('krypton-budget');
    const COUNT = INVENTORY_MAX_OBJECTS;
    const name = (i: number) => `d-${String(i).padStart(4, '0')}`;
    // On the first, the eleventh and the last page of 100.
    const CONSUMERS = [name(0), name(1000), name(COUNT - 1)];
    const consumerRefs = (): Array<[WorkloadKind, string]> =>
      CONSUMERS.map(n => ['Deployment', n]);

    beforeAll(async () => {
      await prepareNamespace(ns.name);
      const names = Array.from({ length: COUNT }, (_, i) => name(i));
      await bounded(names, 16, n =>
        createWorkload(
          admin,
          ns.name,
          'Deployment',
          n,
          CONSUMERS.includes(n) ? consumesDb() : {},
        ),
      );
    }, 120_000);
    afterAll(() => deleteAll(ns.name, 'Deployment'), 60_000);
    beforeEach(() => proxy.resetRecordings());

    it('reads exactly 2,000 Deployments in 20 full pages and restarts the 3 consumers among them', async () => {
      const res = await restart(ns.name);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({
        status: 'requested',
        matched: 3,
        requested: expect.any(Array),
        failures: [],
        discoveryFailures: [],
        message: 'Rollout requested for 3 of 3 matched workloads.',
        note: NOTE,
      });
      expect([...res.body.requested].sort(byName)).toEqual(
        CONSUMERS.map(n => ({ kind: 'Deployment', name: n })),
      );

      const pages = lists(ns.name, 'Deployment');
      expect(pages).toHaveLength(COUNT / INVENTORY_PAGE_SIZE);
      for (const [i, page] of pages.entries()) {
        const query = new URL(page.path, 'http://x').searchParams;
        expect(query.get('limit')).toBe(String(INVENTORY_PAGE_SIZE));
        expect(query.has('continue')).toBe(i > 0);
      }
      expect(lists(ns.name, 'StatefulSet')).toHaveLength(1);
      expect(lists(ns.name, 'DaemonSet')).toHaveLength(1);
      // Discovery of all kinds settled before the first patch.
      const lastList = Math.max(
        ...[
          ...pages,
          ...lists(ns.name, 'StatefulSet'),
          ...lists(ns.name, 'DaemonSet'),
        ].map(r => proxy.requests.indexOf(r)),
      );
      const firstPatch = proxy.requests.findIndex(r => r.method === 'PATCH');
      expect(firstPatch).toBeGreaterThan(lastList);
      expect(
        patchesSeen()
          .map(r => r.path)
          .sort(),
      ).toEqual(CONSUMERS.map(n => workloadPath(ns.name, 'Deployment', n)));
      for (const n of CONSUMERS) {
        const workload = await readWorkload(admin, ns.name, 'Deployment', n);
        expect(
          Date.parse(
            workload.spec.template.metadata?.annotations?.[RESTARTED_AT] ?? '',
          ),
        ).not.toBeNaN();
      }
    });

    it('fails the inventory when the second page answers 410 Expired, and patches nothing from the first', async () => {
      const before = await versions(ns.name, consumerRefs());
      proxy.inject({
        method: 'GET',
        path: new RegExp(`/namespaces/${ns.name}/deployments\\?.*continue=`),
        action: {
          respond: {
            status: 410,
            body: JSON.stringify({
              kind: 'Status',
              apiVersion: 'v1',
              metadata: { continue: 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MX0' },
              status: 'Failure',
              message:
                'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.',
              reason: 'Expired',
              code: 410,
            }),
          },
        },
        times: 1,
      });
      const res = await restart(ns.name);
      expect(res.status).toBe(503);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({
        status: 'failed',
        matched: 0,
        requested: [],
        failures: [],
        discoveryFailures: [
          {
            kind: 'Deployment',
            code: 'incomplete_list',
            httpStatus: 410,
            message: INCOMPLETE,
          },
        ],
        message:
          'No rollout was requested. Discovery failed for 1 workload kind.',
        error:
          'No rollout was requested. Discovery failed for 1 workload kind.',
        note: NOTE,
      });
      expect(JSON.stringify(res.body)).not.toMatch(/too old|Expired/);
      // The real first page, then the expired continuation; the Status' token is not followed.
      expect(lists(ns.name, 'Deployment')).toHaveLength(2);
      expect(patchesSeen()).toEqual([]);
      expect(await versions(ns.name, consumerRefs())).toEqual(before);
    });

    it('fails an inventory whose continuation repeats, while the other kinds proceed', async () => {
      proxy.inject({
        method: 'GET',
        path: new RegExp(`/namespaces/${ns.name}/statefulsets\\?`),
        action: {
          respond: {
            status: 200,
            body: JSON.stringify({
              kind: 'StatefulSetList',
              apiVersion: 'apps/v1',
              metadata: { resourceVersion: '1', continue: 'same' },
              items: [],
            }),
          },
        },
      });
      const res = await restart(ns.name);
      expect(res.status).toBe(207);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toMatchObject({
        status: 'partial',
        matched: 3,
        failures: [],
        discoveryFailures: [
          {
            kind: 'StatefulSet',
            code: 'incomplete_list',
            httpStatus: 503,
            message: INCOMPLETE,
          },
        ],
      });
      expect(res.body.requested).toHaveLength(3);
      expect(res.body.error).toBeUndefined();
      const pages = lists(ns.name, 'StatefulSet');
      expect(pages.map(r => new URL(r.path, 'http://x').search)).toEqual([
        '?limit=100',
        '?limit=100&continue=same',
      ]);
    });

    it('fails an inventory whose continuation the real apiserver refuses as invalid', async () => {
      // Only the first page is forged; the real apiserver then judges the token.
      proxy.inject({
        method: 'GET',
        path: new RegExp(`/namespaces/${ns.name}/statefulsets\\?limit=100$`),
        action: {
          respond: {
            status: 200,
            body: JSON.stringify({
              kind: 'StatefulSetList',
              apiVersion: 'apps/v1',
              metadata: { resourceVersion: '1', continue: 'not-a-token' },
              items: [],
            }),
          },
        },
        times: 1,
      });
      const res = await restart(ns.name);
      expect(res.status).toBe(207);
      expect(res.body.discoveryFailures).toEqual([
        {
          kind: 'StatefulSet',
          code: 'incomplete_list',
          httpStatus: 400,
          message: INCOMPLETE,
        },
      ]);
      expect(lists(ns.name, 'StatefulSet')).toHaveLength(2);
    });

    it('follows 100 pages to the end, and fails without a 101st request when the 100th continues', async () => {
      const page = (continueToken?: string) =>
        JSON.stringify({
          kind: 'StatefulSetList',
          apiVersion: 'apps/v1',
          metadata: {
            resourceVersion: '1',
            ...(continueToken ? { continue: continueToken } : {}),
          },
          items: [],
        });
      const forge = (last: string | undefined) => {
        const base = `/namespaces/${ns.name}/statefulsets\\?limit=100`;
        for (let i = 1; i <= INVENTORY_MAX_PAGES; i++) {
          const after = i === 1 ? '$' : `&continue=t${i - 1}$`;
          proxy.inject({
            method: 'GET',
            path: new RegExp(base + after),
            action: {
              respond: {
                status: 200,
                body: page(i < INVENTORY_MAX_PAGES ? `t${i}` : last),
              },
            },
          });
        }
      };

      forge(undefined);
      const complete = await restart(ns.name);
      expect(complete.status).toBe(200);
      expect(complete.body.status).toBe('requested');
      expect(complete.body.discoveryFailures).toEqual([]);
      expect(lists(ns.name, 'StatefulSet')).toHaveLength(INVENTORY_MAX_PAGES);

      proxy.clear();
      proxy.resetRecordings();
      forge(`t${INVENTORY_MAX_PAGES}`);
      const over = await restart(ns.name);
      expect(over.status).toBe(207);
      expect(over.body.discoveryFailures).toEqual([
        {
          kind: 'StatefulSet',
          code: 'incomplete_list',
          httpStatus: 503,
          message: INCOMPLETE,
        },
      ]);
      expect(lists(ns.name, 'StatefulSet')).toHaveLength(INVENTORY_MAX_PAGES);
    });

    it('fails the Deployment inventory at 2,001 objects and patches no Deployment', async () => {
      await createWorkload(admin, ns.name, 'Deployment', name(COUNT), {});
      const before = await versions(ns.name, consumerRefs());
      const res = await restart(ns.name);
      expect(res.status).toBe(503);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({
        status: 'failed',
        matched: 0,
        requested: [],
        failures: [],
        discoveryFailures: [
          {
            kind: 'Deployment',
            code: 'incomplete_list',
            httpStatus: 503,
            message: INCOMPLETE,
          },
        ],
        message:
          'No rollout was requested. Discovery failed for 1 workload kind.',
        error:
          'No rollout was requested. Discovery failed for 1 workload kind.',
        note: NOTE,
      });
      // Krypton reads the 21st page, which holds the 2,001st object, before it gives up; stopping
      // after the 20th, whose continuation proves that more objects exist, would do as well.
      const pages = lists(ns.name, 'Deployment').length;
      expect(pages).toBeGreaterThanOrEqual(COUNT / INVENTORY_PAGE_SIZE);
      expect(pages).toBeLessThanOrEqual(COUNT / INVENTORY_PAGE_SIZE + 1);
      expect(patchesSeen()).toEqual([]);
      expect(await versions(ns.name, consumerRefs())).toEqual(before);
      expect(krypton.sink.audits).toContainEqual(
        expect.objectContaining({
          eventId: 'secret-restart',
          status: 'failed',
          meta: expect.objectContaining({ status: 'failed', matched: 0 }),
        }),
      );
    });
  });

  describe('a DaemonSet inventory passes just under 32 MiB of JSON and fails just over it', () => {
    const ns = useTestNamespace('krypton-budget');
    /** Characters of the pod-template annotation of each large DaemonSet (the cap is 256 KiB). */
    const PAD = 200_000;
    const INITIAL = 160;
    const name = (i: number) => `big-${String(i).padStart(3, '0')}`;
    const CONSUMERS = [name(0), name(1)];
    const consumerRefs = (): Array<[WorkloadKind, string]> =>
      CONSUMERS.map(n => ['DaemonSet', n]);
    let created = 0;

    const createPadded = (i: number, pad: number) =>
      createWorkload(
        admin,
        ns.name,
        'DaemonSet',
        name(i),
        CONSUMERS.includes(name(i))
          ? { volumes: [{ name: 'creds', secret: { secretName: 'db' } }] }
          : {},
        {
          templateMetadata: {
            annotations: { 'example.com/padding': 'x'.repeat(pad) },
          },
        },
      );

    /** The JSON bytes of the DaemonSet list in 100-object pages, as Krypton's transport counts them. */
    async function listBytes(): Promise<{ bytes: number; items: number }> {
      let bytes = 0;
      let items = 0;
      let continueToken: string | undefined;
      do {
        const res = await admin.request({
          method: 'GET',
          path: workloadPath(ns.name, 'DaemonSet'),
          query: {
            limit: String(INVENTORY_PAGE_SIZE),
            continue: continueToken,
          },
        });
        if (res.status !== 200) throw new Error(`list: ${res.status}`);
        const body = res.body as {
          items: unknown[];
          metadata: { continue?: string };
        };
        bytes += res.bytes;
        items += body.items.length;
        continueToken = body.metadata.continue || undefined;
      } while (continueToken !== undefined);
      return { bytes, items };
    }

    beforeAll(async () => {
      await prepareNamespace(ns.name);
      await createWorkload(admin, ns.name, 'Deployment', 'web', consumesDb());
      await bounded(
        Array.from({ length: INITIAL }, (_, i) => i),
        16,
        i => createPadded(i, PAD),
      );
      created = INITIAL;
      // Fill up to 4 KiB under the budget with smaller objects: each listed object costs its
      // padding plus the overhead measured on the first ones.
      const initial = await listBytes();
      const overhead = Math.ceil((initial.bytes - INITIAL * PAD) / INITIAL);
      let remaining = INVENTORY_MAX_BYTES - 4096 - initial.bytes;
      const fillers: number[] = [];
      while (remaining > overhead) {
        const pad = Math.min(PAD, remaining - overhead);
        fillers.push(pad);
        remaining -= pad + overhead;
      }
      await bounded(
        fillers.map((pad, k) => ({ pad, i: INITIAL + k })),
        16,
        f => createPadded(f.i, f.pad),
      );
      created += fillers.length;
    }, 120_000);
    afterAll(() => deleteAll(ns.name, 'DaemonSet'), 60_000);
    beforeEach(() => proxy.resetRecordings());

    it('restarts the DaemonSets of an inventory just under 32 MiB', async () => {
      const under = await listBytes();
      expect(under.items).toBe(created);
      expect(under.bytes).toBeLessThanOrEqual(INVENTORY_MAX_BYTES - 1024);
      expect(under.bytes).toBeGreaterThan(INVENTORY_MAX_BYTES - 8192);

      const res = await restart(ns.name);
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('requested');
      expect(res.body.discoveryFailures).toEqual([]);
      expect([...res.body.requested].sort(byName)).toEqual([
        ...CONSUMERS.map(n => ({ kind: 'DaemonSet', name: n })),
        { kind: 'Deployment', name: 'web' },
      ]);
      expect(lists(ns.name, 'DaemonSet')).toHaveLength(2);
    });

    it('fails the DaemonSet inventory once it is over 32 MiB, and patches no DaemonSet', async () => {
      await createPadded(created, 16_384);
      created++;
      const over = await listBytes();
      expect(over.items).toBe(created);
      expect(over.items).toBeLessThan(INVENTORY_MAX_OBJECTS);
      expect(over.bytes).toBeGreaterThan(INVENTORY_MAX_BYTES);
      const before = await versions(ns.name, consumerRefs());

      const res = await restart(ns.name);
      expect(res.status).toBe(207);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({
        status: 'partial',
        matched: 1,
        requested: [{ kind: 'Deployment', name: 'web' }],
        failures: [],
        discoveryFailures: [
          {
            kind: 'DaemonSet',
            code: 'incomplete_list',
            httpStatus: 503,
            message: INCOMPLETE,
          },
        ],
        message:
          'Rollout requested for 1 of 1 matched workload. Discovery failed for 1 workload kind.',
        note: NOTE,
      });
      // The second page was cut off once the running total passed the budget.
      expect(lists(ns.name, 'DaemonSet')).toHaveLength(2);
      expect(
        patchesSeen().filter(r => r.path.includes('/daemonsets/')),
      ).toEqual([]);
      expect(await versions(ns.name, consumerRefs())).toEqual(before);
    });

    it('fails with 503 when the over-budget kind held the only matches', async () => {
      await admin.request({
        method: 'DELETE',
        path: workloadPath(ns.name, 'Deployment', 'web'),
      });
      const res = await restart(ns.name);
      expect(res.status).toBe(503);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body.status).toBe('failed');
      expect(res.body.matched).toBe(0);
      expect(res.body.discoveryFailures).toEqual([
        {
          kind: 'DaemonSet',
          code: 'incomplete_list',
          httpStatus: 503,
          message: INCOMPLETE,
        },
      ]);
      expect(res.body.error).toBe(res.body.message);
      expect(patchesSeen()).toEqual([]);
    });
  });

  describe('patches in flight', () => {
    const ns = useTestNamespace('krypton-budget');
    const KINDS: WorkloadKind[] = ['Deployment', 'StatefulSet', 'DaemonSet'];
    const CONSUMERS = KINDS.flatMap(kind =>
      [1, 2, 3, 4].map(i => ({
        kind,
        name: `${kind.toLowerCase()}-${i}`,
      })),
    );

    beforeAll(async () => {
      await prepareNamespace(ns.name);
      await bounded(CONSUMERS, 16, c =>
        createWorkload(admin, ns.name, c.kind, c.name, consumesDb()),
      );
    });

    it('never has more than four patches in flight across all kinds, and reaches four', async () => {
      counter.delayMs = 300;
      counter.reset();
      const started = Date.now();
      const res = await restart(ns.name);
      const elapsed = Date.now() - started;
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('requested');
      expect(res.body.matched).toBe(12);
      expect([...res.body.requested].sort(byName)).toEqual(
        [...CONSUMERS].sort(byName),
      );
      expect(counter.patches.total).toBe(12);
      expect(counter.patches.max).toBe(4);
      expect(counter.patches.current).toBe(0);
      // Twelve patches held 300 ms each, four at a time: at least three rounds.
      expect(elapsed).toBeGreaterThanOrEqual(900);
    });
  });
});
