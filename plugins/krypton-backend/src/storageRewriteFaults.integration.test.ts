import {
  FaultProxy,
  startFaultProxy,
  testClusterState,
  useTestNamespace,
} from '@krypton/kube-testenv';
import {
  OLD_KEY_MESSAGES,
  STORAGE_REWRITE_MESSAGES,
  inPool,
} from '@krypton/plugin-krypton-common/engine';
import request from 'supertest';
import { AdminClient } from './__testUtils__/rbac';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from './__testUtils__/testBackend';

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
  const admin = new AdminClient();
  let proxy: FaultProxy;
  let krypton: KryptonTestBackend;
  const rewrite = (query: Record<string, string> = {}) =>
    request(krypton.server)
      .post('/api/krypton/storage-rewrite')
      .query({ namespace: ns.name, ...query })
      .set('Authorization', as('root'));
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
    expect(res.status).toBe(200);
    expect(res.body.listRestarts).toBe(1);
    expect(res.body.counts).toMatchObject({
      seen: COUNT + 1,
      alreadyCurrent: COUNT + 1,
      failed: 0,
    });
    expect(res.body.namespaceFailures).toEqual([]);
    expect(res.body.oldKeyRetirement.verdict).toBe('ready');
    // The list began twice: once at the start, once after the 410.
    const lists = proxy.seen.filter(s =>
      s.startsWith(`GET /api/v1/namespaces/${ns.name}/secrets?`),
    );
    expect(lists.filter(s => !s.includes('continue='))).toHaveLength(2);
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
      const res = await admin.transport.request({
        method: 'DELETE',
        path: `/api/v1/namespaces/${ns.name}/secrets/victim`,
      });
      expect(res.status).toBe(200);
    })();
    const [res] = await Promise.all([running, deleted]);
    expect(res.status).toBe(207);
    expect(res.body.failed).toEqual([
      {
        namespace: ns.name,
        name: 's-0007',
        kind: 'live',
        code: 'unavailable',
        message: STORAGE_REWRITE_MESSAGES.unavailable,
        httpStatus: 503,
      },
    ]);
    expect(res.body.failed[0].message).not.toMatch(/workload/i);
    expect(res.body.gone).toEqual([
      { namespace: ns.name, name: 'victim', kind: 'live' },
    ]);
    expect(res.body.counts).toMatchObject({
      seen: COUNT + 1,
      alreadyCurrent: COUNT - 1,
      gone: 1,
      failed: 1,
    });
    expect(res.body.oldKeyRetirement).toMatchObject({
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
    expect(res.status).toBe(200);
    expect(res.body.dryRun).toBe(true);
    expect(res.body.counts).toMatchObject({ seen: COUNT, rewritten: 0 });
    expect(res.body.oldKeyRetirement.reasons).toEqual([
      { code: 'dry_run', count: 1, message: OLD_KEY_MESSAGES.dry_run },
    ]);
    expect(patches()).toEqual([]);
    expect(proxy.seen.filter(s => !s.startsWith('GET '))).toEqual([]);
  });
});
