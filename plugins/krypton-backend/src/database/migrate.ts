import {
  DatabaseService,
  resolvePackagePath,
} from '@backstage/backend-plugin-api';
import { Knex } from 'knex';

/** The plugin's database client, with its knex migrations applied (unless the host skips them). */
export async function migratedClient(database: DatabaseService): Promise<Knex> {
  const db = await database.getClient();
  if (!database.migrations?.skip) {
    await db.migrate.latest({
      directory: resolvePackagePath(
        '@krypton/plugin-krypton-backend',
        'migrations',
      ),
    });
  }
  return db;
}
