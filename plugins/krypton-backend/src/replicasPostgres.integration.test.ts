import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  Postgres,
  startPostgres,
  useTestNamespace,
} from '@krypton/kube-testenv';
import knexFactory, { Knex } from 'knex';
import request from 'supertest';
import { AdminClient } from './__testUtils__/rbac';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from './__testUtils__/testBackend';

/**
 * Krypton replicas on one PostgreSQL and one control plane, as a Backstage deployment with
 * several backend replicas runs them: what one replica records, the other serves.
 */
describe('replicas on one PostgreSQL', () => {
  const ns = useTestNamespace();
  const admin = new AdminClient();
  let postgres: Postgres;
  let replicas: KryptonTestBackend[] = [];
  let db: Knex;
  const secrets = () => `/api/krypton/namespaces/${ns.name}/secrets`;

  beforeAll(async () => {
    postgres = await startPostgres();
    const config = { restart: { enabled: true } };
    // All start together, so all try to create and migrate the plugin's database at once.
    replicas = await Promise.all([
      startKryptonBackend(config, { postgres }),
      startKryptonBackend(config, { postgres }),
      startKryptonBackend(config, { postgres }),
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
    await postgres?.stop();
    admin.close();
  });

  it('ran each knex migration once', async () => {
    const files = readdirSync(join(__dirname, '..', 'migrations')).filter(f =>
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
    const run = await request(second.server)
      .post(`/api/krypton/storage-rewrite?namespace=${ns.name}`)
      .set('Authorization', as('root'));
    expect(run.status).toBe(200);
    const last = await request(first.server)
      .get('/api/krypton/storage-rewrite/last')
      .set('Authorization', as('root'));
    expect(last.status).toBe(200);
    const mine = last.body.runs.filter(
      (r: { namespace: string }) => r.namespace === ns.name,
    );
    expect(mine).toHaveLength(1);
    expect(mine[0].requestedBy).toBe('user:default/root');
    expect(mine[0].result.counts).toEqual(run.body.counts);
  });
});
