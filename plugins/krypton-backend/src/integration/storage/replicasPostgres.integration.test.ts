import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  FaultProxy,
  Postgres,
  startFaultProxy,
  startPostgres,
  testClusterState,
  useTestNamespace,
  ClusterAdmin,
} from '@krypton/kube-testenv';
import {
  STORAGE_REWRITE_PAGE_SIZE,
  STORAGE_REWRITE_RUN_MESSAGES,
  inPool,
} from '@krypton/core';
import knexFactory, { Knex } from 'knex';
import request from 'supertest';
import { rewriteToEnd, waitForRun } from '../../__testUtils__/storageRewrite';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from '../../__testUtils__/testBackend';

/**
 * Krypton replicas on one PostgreSQL and one control plane, as a Backstage deployment with
 * several backend replicas runs them: what one replica records, the other serves.
 */
describe('replicas on one PostgreSQL', () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  let postgres: Postgres;
  let proxy: FaultProxy;
  let replicas: KryptonTestBackend[] = [];
  let db: Knex;
  const secrets = () => `/api/krypton/namespaces/${ns.name}/secrets`;
  /** Managed Secrets of the namespace beside those the tests create: pages of the rewrite. */
  const BULK = 2 * STORAGE_REWRITE_PAGE_SIZE + 50;

  beforeAll(async () => {
    postgres = await startPostgres();
    const state = testClusterState();
    // Through the fault proxy, so that a run can be held on a page while another replica acts.
    proxy = await startFaultProxy({
      target: state.server,
      caFile: state.caFile || undefined,
    });
    const config = { restart: { enabled: true } };
    const options = { postgres, clusterUrl: proxy.url };
    // All start together, so all try to create and migrate the plugin's database at once.
    replicas = await Promise.all([
      startKryptonBackend(config, options),
      startKryptonBackend(config, options),
      startKryptonBackend(config, options),
    ]);
    db = knexFactory({
      client: 'pg',
      connection: {
        ...postgres.connection,
        database: 'backstage_plugin_krypton',
      },
    });
    await admin.grantSecrets(ns.name, {
      kind: 'User',
      name: 'user:default/root',
    });
    await admin.grantWorkloads(ns.name, {
      kind: 'User',
      name: 'user:default/root',
    });
  });
  afterAll(async () => {
    await db?.destroy();
    await Promise.all(replicas.map(r => r.stop()));
    await proxy?.close();
    await postgres?.stop();
    admin.close();
  });

  it('ran each knex migration once', async () => {
    const files = readdirSync(join(__dirname, '..', '..', '..', 'migrations')).filter(f =>
      f.endsWith('.js'),
    );
    const applied = await db('knex_migrations').select('name');
    expect(applied.map(r => r.name).sort()).toEqual(files.sort());
    // One lock row, free: two would refuse every later migration as "already locked".
    expect(await db('knex_migrations_lock').select('is_locked')).toEqual([
      { is_locked: 0 },
    ]);
    expect(
      await db('krypton_restart_results').count({ n: '*' }).first(),
    ).toEqual({ n: '0' });
  });

  it("serves one replica's restart result from the other", async () => {
    const [first, second] = replicas;
    const created = await request(first.server)
      .post(secrets())
      .set('Authorization', as('root'))
      .send({ name: 'db', data: { password: 'replica-value' } });
    expect(created.status).toBe(201);
    const restarted = await request(first.server)
      .post(`${secrets()}/db/restart-consumers`)
      .set('Authorization', as('root'));
    expect(restarted.status).toBe(200);
    expect(restarted.body.status).toBe('no_targets');
    const last = await request(second.server)
      .get(`${secrets()}/db/restart-consumers/last`)
      .set('Authorization', as('root'));
    expect(last.status).toBe(200);
    expect(last.body.last).toMatchObject({
      result: restarted.body,
      requestedBy: 'user:default/root',
    });
  });

  it("serves one replica's storage rewrite runs from the other", async () => {
    const [first, second] = replicas;
    // The run starts on the second replica and is followed on the first.
    const start = await request(second.server)
      .post(`/api/krypton/storage-rewrite?namespace=${ns.name}`)
      .set('Authorization', as('root'));
    expect(start.status).toBe(202);
    const end = await waitForRun(first, start.headers.location);
    expect(end.body).toMatchObject({
      id: start.body.id,
      state: 'succeeded',
      scope: ns.name,
    });
    const last = await request(first.server)
      .get('/api/krypton/storage-rewrite/last')
      .set('Authorization', as('root'));
    expect(last.status).toBe(200);
    const mine = last.body.runs.filter(
      (r: { namespace: string }) => r.namespace === ns.name,
    );
    expect(mine).toHaveLength(1);
    expect(mine[0].requestedBy).toBe('user:default/root');
    expect(mine[0].runId).toBe(start.body.id);
    expect(mine[0].result.counts).toEqual(end.body.result.counts);
  });

  describe('a run over several pages', () => {
    /** The rewrite's own pages (a visibility check lists one Secret, without a selector). */
    const lists = () =>
      proxy.seen.filter(
        s =>
          s.startsWith(`GET /api/v1/namespaces/${ns.name}/secrets?`) &&
          s.includes('labelSelector='),
      );
    /** Holds the next continued page of the namespace's list for this long. */
    const holdNextPage = (delayMs: number) =>
      proxy.inject({
        method: 'GET',
        path: new RegExp(
          `^/api/v1/namespaces/${ns.name}/secrets\\?.*continue=`,
        ),
        action: { delayMs },
        times: 1,
      });
    const start = (replica: KryptonTestBackend) =>
      request(replica.server)
        .post(`/api/krypton/storage-rewrite?namespace=${ns.name}`)
        .set('Authorization', as('root'));
    const read = (replica: KryptonTestBackend, id: string) =>
      request(replica.server)
        .get(`/api/krypton/storage-rewrite/runs/${id}`)
        .set('Authorization', as('root'));
    /** Waits until the run's first page was read and the second asked for. */
    const onSecondPage = async () => {
      while (lists().filter(l => l.includes('continue=')).length < 1)
        await new Promise(r => setTimeout(r, 20));
    };

    beforeAll(async () => {
      await inPool(
        Array.from({ length: BULK }, (_, i) => i),
        16,
        i =>
          admin.createSecret(ns.name, {
            metadata: {
              name: `bulk-${String(i).padStart(4, '0')}`,
              labels: { 'krypton.io/managed-by': 'krypton' },
            },
            data: {},
          }),
      );
    });
    beforeEach(() => {
      proxy.clear();
      proxy.resetRecordings();
    });

    it('is cancelled from another replica than the one that runs it, and refuses an overlapping run meanwhile', async () => {
      const [first, second] = replicas;
      holdNextPage(3000);
      const started = await start(first);
      expect(started.status).toBe(202);
      const id = started.body.id;
      await onSecondPage();
      // Another replica refuses an overlapping run: the row, not the process, says it runs.
      const overlapping = await start(second);
      expect(overlapping.status).toBe(409);
      expect(overlapping.body).toEqual({
        error: STORAGE_REWRITE_RUN_MESSAGES.running,
      });
      // The owner writes its progress within a second of each page.
      let seen = await read(second, id);
      while (seen.body.progress.seen < 100) {
        await new Promise(r => setTimeout(r, 100));
        seen = await read(second, id);
      }
      expect(seen.body).toMatchObject({
        state: 'running',
        progress: {
          pass: 'first',
          namespace: ns.name,
          namespacesDone: 0,
          namespacesTotal: 1,
          seen: 100,
        },
      });
      const cancelled = await request(second.server)
        .post(`/api/krypton/storage-rewrite/runs/${id}/cancel`)
        .set('Authorization', as('root'));
      expect(cancelled.status).toBe(202);
      expect(cancelled.body.cancelRequested).toBe(true);
      const end = await waitForRun(
        second,
        `/api/krypton/storage-rewrite/runs/${id}`,
      );
      expect(end.body).toMatchObject({
        state: 'cancelled',
        result: { stopped: 'cancelled', counts: { seen: 200 } },
      });
      // The page on hand was written in full; the third page was never read.
      expect(lists()).toHaveLength(2);
      const row = await db('krypton_storage_rewrite_runs')
        .where({ id })
        .first();
      expect(row).toMatchObject({ state: 'cancelled', cancel_requested: true });
    });

    it('reads as interrupted on every replica once the replica that runs it shuts down', async () => {
      const owner = replicas[2];
      holdNextPage(5000);
      const started = await start(owner);
      expect(started.status).toBe(202);
      await onSecondPage();
      // The shutdown hook marks its runs at once, without waiting for the heartbeat to age.
      await owner.stop();
      replicas = replicas.filter(r => r !== owner);
      const seen = await read(replicas[0], started.body.id);
      expect(seen.body).toMatchObject({
        state: 'interrupted',
        error: STORAGE_REWRITE_RUN_MESSAGES.interrupted,
        finishedAt: expect.any(String),
      });
      expect(seen.body.result).toBeUndefined();
    });

    it('reads as interrupted once the heartbeat of its replica is over a minute old, and lets a new run start', async () => {
      const [first, second] = replicas;
      holdNextPage(3000);
      const started = await start(first);
      expect(started.status).toBe(202);
      const id = started.body.id;
      await onSecondPage();
      // As if its replica had stopped without its shutdown hook (killed): no heartbeat for 61 s.
      await db('krypton_storage_rewrite_runs')
        .where({ id })
        .update({
          owner: 'a-replica-that-was-killed',
          heartbeat_at: new Date(Date.now() - 61_000).toISOString(),
        });
      const seen = await read(second, id);
      expect(seen.body).toMatchObject({
        state: 'interrupted',
        error: STORAGE_REWRITE_RUN_MESSAGES.interrupted,
      });
      // The stale run no longer blocks a new one.
      const next = await rewriteToEnd(second, `?namespace=${ns.name}`);
      expect(next.run?.state).toBe('succeeded');
      // The first replica, still running its copy, stops and leaves the row as it is.
      const row = await db('krypton_storage_rewrite_runs')
        .where({ id })
        .first();
      expect(row.state).toBe('interrupted');
      const runs = await request(second.server)
        .get('/api/krypton/storage-rewrite/runs')
        .query({ namespace: ns.name })
        .set('Authorization', as('root'));
      expect(
        runs.body.runs.map((r: { id: string; state: string }) => [
          r.id,
          r.state,
        ]),
      ).toEqual(
        expect.arrayContaining([
          [next.run?.id, 'succeeded'],
          [id, 'interrupted'],
        ]),
      );
      expect(runs.body.runs[0].id).toBe(next.run?.id);
    });
  });
});
