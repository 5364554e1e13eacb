import {
  FaultProxy,
  startFaultProxy,
  testClusterState,
  useTestNamespace,
  ClusterAdmin,
} from '@krypton/kube-testenv';
import {
  OLD_KEY_MESSAGES,
  STORAGE_REWRITE_MESSAGES,
  STORAGE_REWRITE_RUN_MESSAGES,
  inPool,
} from '@krypton/core';
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import request from 'supertest';
import { rewriteToEnd, waitForRun } from '../../__testUtils__/storageRewrite';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from '../../__testUtils__/testBackend';

jest.setTimeout(60_000);

const COUNT = 250;
const MANAGED = { 'krypton.io/managed-by': 'krypton' };

const status = (code: number, reason: string) => ({
  status: code,
  contentType: 'application/json',
  body: JSON.stringify({
    kind: 'Status',
    apiVersion: 'v1',
    status: 'Failure',
    reason,
    code,
  }),
});

/**
 * The storage rewrite on the real API server, through the fault proxy: a continuation that
 * expires in the middle of a namespace of three pages, a write that fails, a Secret deleted while
 * its write is on the way, and a dry run that writes nothing.
 */
describe('storage rewrite under faults', () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  let proxy: FaultProxy;
  let krypton: KryptonTestBackend;
  const rewrite = (query: Record<string, string> = {}) =>
    rewriteToEnd(
      krypton,
      `?${new URLSearchParams({ namespace: ns.name, ...query })}`,
    );
  const lists = () =>
    proxy.seen.filter(s =>
      s.startsWith(`GET /api/v1/namespaces/${ns.name}/secrets?`),
    );
  const patches = () =>
    proxy.seen.filter(s =>
      s.startsWith(`PATCH /api/v1/namespaces/${ns.name}/secrets/`),
    );

  beforeAll(async () => {
    const state = testClusterState();
    proxy = await startFaultProxy({
      target: state.server,
      caFile: state.caFile || undefined,
    });
    krypton = await startKryptonBackend(
      {
        kubernetes: {
          identity: 'serviceAccount',
          serviceAccountMode: { namespaces: [ns.name] },
        },
      },
      { clusterUrl: proxy.url },
    );
    await inPool(
      Array.from({ length: COUNT }, (_, i) => i),
      16,
      i =>
        admin.createSecret(ns.name, {
          metadata: {
            name: `s-${String(i).padStart(4, '0')}`,
            labels: MANAGED,
          },
          data: {},
        }),
    );
    await admin.createSecret(ns.name, {
      metadata: { name: 'victim', labels: MANAGED },
      data: {},
    });
  });
  afterAll(async () => {
    await krypton?.stop();
    await proxy?.close();
    admin.close();
  });
  beforeEach(() => {
    proxy.clear();
    proxy.resetRecordings();
  });

  it('starts the list again when its continuation expires mid-run, and writes each object once', async () => {
    proxy.inject({
      method: 'GET',
      path: new RegExp(`^/api/v1/namespaces/${ns.name}/secrets\\?.*continue=`),
      action: { respond: status(410, 'Expired') },
      times: 1,
    });
    const res = await rewrite();
    expect(res.run?.state).toBe('succeeded');
    expect(res.result?.listRestarts).toBe(1);
    expect(res.result?.counts).toMatchObject({
      seen: COUNT + 1,
      alreadyCurrent: COUNT + 1,
      failed: 0,
    });
    expect(res.result?.namespaceFailures).toEqual([]);
    expect(res.result?.oldKeyRetirement.verdict).toBe('ready');
    // The list began twice: once at the start, once after the 410.
    expect(lists().filter(s => !s.includes('continue='))).toHaveLength(2);
    // The first page was not written again after the restart.
    expect(patches()).toHaveLength(COUNT + 1);
    expect(new Set(patches()).size).toBe(COUNT + 1);
  });

  it('lists a failed write with its own message, counts a Secret deleted meanwhile as gone, and blocks the verdict', async () => {
    proxy.inject({
      method: 'PATCH',
      path: new RegExp(`/secrets/s-0007$`),
      action: { respond: status(503, 'ServiceUnavailable') },
      times: 1,
    });
    proxy.inject({
      method: 'PATCH',
      path: new RegExp(`/secrets/victim$`),
      action: { delayMs: 1500 },
      times: 1,
    });
    const running = rewrite();
    const deleted = (async () => {
      while (!patches().some(p => p.endsWith('/victim'))) {
        await new Promise(r => setTimeout(r, 20));
      }
      const res = await admin.request({
        method: 'DELETE',
        path: `/api/v1/namespaces/${ns.name}/secrets/victim`,
      });
      expect(res.status).toBe(200);
    })();
    const [res] = await Promise.all([running, deleted]);
    // Some objects were not confirmed: the run ends as failed, with its result.
    expect(res.run?.state).toBe('failed');
    expect(res.run?.error).toBeUndefined();
    expect(res.result?.failed).toEqual([
      {
        namespace: ns.name,
        name: 's-0007',
        kind: 'live',
        code: 'unavailable',
        message: STORAGE_REWRITE_MESSAGES.unavailable,
        httpStatus: 503,
      },
    ]);
    expect(res.result?.failed[0].message).not.toMatch(/workload/i);
    expect(res.result?.gone).toEqual([
      { namespace: ns.name, name: 'victim', kind: 'live' },
    ]);
    expect(res.result?.counts).toMatchObject({
      seen: COUNT + 1,
      alreadyCurrent: COUNT - 1,
      gone: 1,
      failed: 1,
    });
    expect(res.result?.oldKeyRetirement).toMatchObject({
      verdict: 'blocked',
      reasons: [{ code: 'failed', count: 1, message: OLD_KEY_MESSAGES.failed }],
    });
    expect(krypton.sink.audits).toContainEqual(
      expect.objectContaining({
        eventId: 'storage-rewrite',
        status: 'failed',
        meta: expect.objectContaining({
          failed: 1,
          gone: 1,
          verdict: 'blocked',
        }),
      }),
    );
  });

  it('counts the objects in scope in a dry run, and writes nothing', async () => {
    const res = await rewrite({ dryRun: 'true' });
    expect(res.run?.state).toBe('succeeded');
    expect(res.result?.dryRun).toBe(true);
    expect(res.result?.counts).toMatchObject({ seen: COUNT, rewritten: 0 });
    expect(res.result?.oldKeyRetirement.reasons).toEqual([
      { code: 'dry_run', count: 1, message: OLD_KEY_MESSAGES.dry_run },
    ]);
    expect(patches()).toEqual([]);
    expect(proxy.seen.filter(s => !s.startsWith('GET '))).toEqual([]);
  });

  it('stops a cancelled run before its next page, with the page in hand written in full', async () => {
    // The second page is held, so that the cancel arrives while the run is on it.
    proxy.inject({
      method: 'GET',
      path: new RegExp(`^/api/v1/namespaces/${ns.name}/secrets\\?.*continue=`),
      action: { delayMs: 2500 },
      times: 1,
    });
    const start = await request(krypton.server)
      .post('/api/krypton/storage-rewrite')
      .query({ namespace: ns.name })
      .set('Authorization', as('root'));
    expect(start.status).toBe(202);
    const path = start.headers.location;
    while (lists().length < 2) await new Promise(r => setTimeout(r, 20));
    const cancel = (id: string) =>
      request(krypton.server)
        .post(`/api/krypton/storage-rewrite/runs/${id}/cancel`)
        .set('Authorization', as('root'));
    const cancelled = await cancel(start.body.id);
    expect(cancelled.status).toBe(202);
    expect(cancelled.headers['cache-control']).toBe('no-store');
    expect(cancelled.body).toMatchObject({
      id: start.body.id,
      state: 'running',
      cancelRequested: true,
      cancelledBy: 'user:default/root',
    });
    const end = await waitForRun(krypton, path);
    expect(end.body).toMatchObject({
      state: 'cancelled',
      cancelRequested: true,
      cancelledBy: 'user:default/root',
      progress: { pass: 'first', seen: 200, namespacesDone: 1 },
      result: {
        stopped: 'cancelled',
        counts: { seen: 200, alreadyCurrent: 200, failed: 0 },
        namespaceFailures: [],
        oldKeyRetirement: {
          verdict: 'blocked',
          reasons: [
            {
              code: 'cancelled',
              count: 1,
              message: OLD_KEY_MESSAGES.cancelled,
            },
          ],
        },
      },
    });
    // Two pages read and written, the third never read.
    expect(lists()).toHaveLength(2);
    expect(patches()).toHaveLength(200);
    expect(krypton.sink.audits).toContainEqual(
      expect.objectContaining({
        eventId: 'storage-rewrite',
        status: 'failed',
        error: 'Error: The storage rewrite was cancelled by user:default/root.',
        meta: expect.objectContaining({
          runId: start.body.id,
          state: 'cancelled',
          stopped: 'cancelled',
          cancelledBy: 'user:default/root',
        }),
      }),
    );
    // The cancel is an operation of its own, audited as high as the start.
    expect(
      krypton.sink.audits.filter(a => a.eventId === 'storage-rewrite-cancel'),
    ).toEqual([
      expect.objectContaining({
        severityLevel: 'high',
        status: 'initiated',
        meta: { runId: start.body.id },
      }),
      expect.objectContaining({
        severityLevel: 'high',
        status: 'succeeded',
        meta: {
          runId: start.body.id,
          cluster: expect.any(String),
          scope: ns.name,
          requestedBy: 'user:default/root',
          cancelledBy: 'user:default/root',
        },
      }),
    ]);
    // An ended run cannot be cancelled; an unknown or malformed id is told apart.
    expect(await cancel(start.body.id)).toMatchObject({
      status: 409,
      body: { error: STORAGE_REWRITE_RUN_MESSAGES.ended },
    });
    expect(await cancel(randomUUID())).toMatchObject({
      status: 404,
      body: { error: STORAGE_REWRITE_RUN_MESSAGES.notFound },
    });
    for (const id of ['x', start.body.id.toUpperCase(), `${start.body.id}0`]) {
      expect(await cancel(encodeURIComponent(id))).toMatchObject({
        status: 400,
        body: { error: STORAGE_REWRITE_RUN_MESSAGES.badId },
      });
      const read = await request(krypton.server)
        .get(`/api/krypton/storage-rewrite/runs/${encodeURIComponent(id)}`)
        .set('Authorization', as('root'));
      expect(read.status).toBe(400);
    }
    const unknown = await request(krypton.server)
      .get(`/api/krypton/storage-rewrite/runs/${randomUUID()}`)
      .set('Authorization', as('root'));
    expect(unknown).toMatchObject({
      status: 404,
      body: { error: STORAGE_REWRITE_RUN_MESSAGES.notFound },
    });
  });

  it('lets only the requester or an admin cancel a run of every namespace, and records who did', async () => {
    const hold = () =>
      proxy.inject({
        method: 'GET',
        path: new RegExp(
          `^/api/v1/namespaces/${ns.name}/secrets\\?.*continue=`,
        ),
        action: { delayMs: 2500 },
        times: 1,
      });
    const startAll = async (user: string) => {
      hold();
      const res = await request(krypton.server)
        .post('/api/krypton/storage-rewrite')
        .set('Authorization', as(user));
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ scope: '*', state: 'running' });
      return res;
    };
    const cancel = (id: string, user: string) =>
      request(krypton.server)
        .post(`/api/krypton/storage-rewrite/runs/${id}/cancel`)
        .set('Authorization', as(user));
    const audits = (id: string) =>
      krypton.sink.audits.filter(
        a => a.eventId === 'storage-rewrite-cancel' && a.meta?.runId === id,
      );

    // Alice's run of every namespace: Bob, another operator, may not stop it; an admin may.
    const first = await startAll('alice');
    const refused = await cancel(first.body.id, 'bob');
    expect(refused).toMatchObject({
      status: 403,
      body: { error: STORAGE_REWRITE_RUN_MESSAGES.cancelForbidden },
    });
    const byAdmin = await cancel(first.body.id, 'root');
    expect(byAdmin.status).toBe(202);
    expect(byAdmin.body).toMatchObject({
      cancelRequested: true,
      cancelledBy: 'user:default/root',
    });
    const firstEnd = await waitForRun(krypton, first.headers.location);
    expect(firstEnd.body).toMatchObject({
      state: 'cancelled',
      requestedBy: 'user:default/alice',
      cancelledBy: 'user:default/root',
    });
    expect(audits(first.body.id)).toEqual([
      expect.objectContaining({
        actor: 'user:default/bob',
        status: 'initiated',
      }),
      expect.objectContaining({
        actor: 'user:default/bob',
        status: 'failed',
        error: expect.stringContaining(
          STORAGE_REWRITE_RUN_MESSAGES.cancelForbidden,
        ),
      }),
      expect.objectContaining({
        actor: 'user:default/root',
        status: 'initiated',
      }),
      expect.objectContaining({
        actor: 'user:default/root',
        status: 'succeeded',
        meta: expect.objectContaining({
          scope: '*',
          requestedBy: 'user:default/alice',
          cancelledBy: 'user:default/root',
        }),
      }),
    ]);
    // The requester's own record says who stopped the run.
    expect(krypton.sink.audits).toContainEqual(
      expect.objectContaining({
        eventId: 'storage-rewrite',
        actor: 'user:default/alice',
        status: 'failed',
        error: 'Error: The storage rewrite was cancelled by user:default/root.',
        meta: expect.objectContaining({
          runId: first.body.id,
          cancelledBy: 'user:default/root',
        }),
      }),
    );

    // The requester may cancel their own.
    const second = await startAll('alice');
    const own = await cancel(second.body.id, 'alice');
    expect(own.status).toBe(202);
    expect(own.body.cancelledBy).toBe('user:default/alice');
    expect(
      (await waitForRun(krypton, second.headers.location)).body,
    ).toMatchObject({ state: 'cancelled', cancelledBy: 'user:default/alice' });
  });

  it('refuses a second run of an overlapping scope while one runs, and goes on when the caller disconnects', async () => {
    proxy.inject({
      method: 'GET',
      path: new RegExp(`^/api/v1/namespaces/${ns.name}/secrets\\?.*continue=`),
      action: { delayMs: 1500 },
      times: 1,
    });
    // The caller sends the POST and goes away without reading the answer.
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(
        `${krypton.url}/api/krypton/storage-rewrite?namespace=${ns.name}`,
        { method: 'POST', headers: { Authorization: as('root') } },
      );
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      req.end(() => setTimeout(() => req.destroy(), 0));
      setTimeout(() => reject(new Error('no close')), 5000).unref();
    });
    let runs: request.Response;
    do {
      runs = await request(krypton.server)
        .get('/api/krypton/storage-rewrite/runs')
        .query({ namespace: ns.name })
        .set('Authorization', as('root'));
    } while (runs.body.runs[0]?.state !== 'running');
    const running = runs.body.runs[0];
    // The same namespace, and every namespace (which overlaps it), are refused meanwhile.
    for (const query of [`?namespace=${ns.name}`, '']) {
      const second = await request(krypton.server)
        .post(`/api/krypton/storage-rewrite${query}`)
        .set('Authorization', as('root'));
      expect(second.status).toBe(409);
      expect(second.body).toEqual({
        error: STORAGE_REWRITE_RUN_MESSAGES.running,
      });
    }
    const end = await waitForRun(
      krypton,
      `/api/krypton/storage-rewrite/runs/${running.id}`,
    );
    expect(end.body).toMatchObject({
      state: 'succeeded',
      // The victim of the test above is gone.
      result: { counts: { seen: COUNT, failed: 0 } },
    });
    expect(patches()).toHaveLength(COUNT);
  });
});
