import {
  DatabaseService,
  resolvePackagePath,
} from '@backstage/backend-plugin-api';
import { Knex } from 'knex';

const ATTEMPTS = 5;

/** The plugin's database client, with its knex migrations applied (unless the host skips them). */
export async function migratedClient(database: DatabaseService): Promise<Knex> {
  const db = await database.getClient();
  if (database.migrations?.skip) return db;
  const directory = resolvePackagePath(
    '@krypton/plugin-krypton-backend',
    'migrations',
  );
  // Replicas that start together migrate together. On PostgreSQL knex's lock row serializes the
  // migrations themselves, but two first starts can still collide while creating knex's own
  // tables; the loser's next attempt finds them, and the migrations already applied.
  for (let attempt = 1; ; attempt++) {
    try {
      await db.migrate.latest({ directory });
      return db;
    } catch (err) {
      if (attempt >= ATTEMPTS) throw err;
      await new Promise(r => setTimeout(r, 200 * attempt));
    }
  }
}
