import {
  DatabaseService,
  resolvePackagePath,
} from '@backstage/backend-plugin-api';
import { Knex } from 'knex';

/** The key of the advisory lock that Krypton's replicas migrate under ('kryp'). */
const MIGRATION_LOCK = 0x6b727970;

/** The plugin's database client, with its knex migrations applied (unless the host skips them). */
export async function migratedClient(database: DatabaseService): Promise<Knex> {
  const db = await database.getClient();
  if (database.migrations?.skip) return db;
  const migrate = () =>
    db.migrate.latest({
      directory: resolvePackagePath(
        '@krypton/plugin-krypton-backend',
        'migrations',
      ),
    });
  if (db.client.dialect !== 'postgresql') {
    await migrate();
    return db;
  }
  // Replicas that start together migrate together. knex's own lock cannot serialize a first
  // start: both replicas create its lock table and each inserts a lock row, and with two rows
  // knex refuses every later migration as "already locked". An advisory lock, held by a
  // transaction of its own while the migrations run on other connections, lets one replica
  // migrate at a time; the next finds nothing left to do.
  await db.transaction(async trx => {
    await trx.raw('SELECT pg_advisory_xact_lock(?)', [MIGRATION_LOCK]);
    await migrate();
  });
  return db;
}
