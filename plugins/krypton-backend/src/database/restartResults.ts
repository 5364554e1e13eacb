import { LastRestart, RestartResult } from '@krypton/core';
import { Knex } from 'knex';

const TABLE = 'krypton_restart_results';

/** Which live Secret a result belongs to; another UID is another lifetime of the name. */
export interface RestartResultKey {
  cluster: string;
  namespace: string;
  name: string;
  uid: string;
}

interface Row {
  cluster: string;
  namespace: string;
  name: string;
  uid: string;
  result: string;
  requested_by: string;
  requested_at: string;
}

/**
 * The latest restart result of each live Secret, in the plugin's database, so that teammates who
 * open the Secret later see what was restarted, by whom and when.
 */
export class RestartResultStore {
  constructor(private readonly db: Knex) {}

  async save(key: RestartResultKey, last: LastRestart): Promise<void> {
    const row: Row = {
      ...key,
      result: JSON.stringify(last.result),
      requested_by: last.requestedBy,
      requested_at: last.requestedAt,
    };
    await this.db<Row>(TABLE)
      .insert(row)
      .onConflict(['cluster', 'namespace', 'name'])
      .merge();
  }

  /** The latest result of this lifetime of the Secret, if it has one. */
  async load(key: RestartResultKey): Promise<LastRestart | undefined> {
    const row = await this.db<Row>(TABLE)
      .where({
        cluster: key.cluster,
        namespace: key.namespace,
        name: key.name,
      })
      .first();
    if (!row || row.uid !== key.uid) return undefined;
    return {
      result: JSON.parse(row.result) as RestartResult,
      requestedBy: row.requested_by,
      requestedAt: row.requested_at,
    };
  }
}
