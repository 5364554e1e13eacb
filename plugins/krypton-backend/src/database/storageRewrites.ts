import { StorageRewriteResult, StorageRewriteRun } from '@krypton/core';
import { Knex } from 'knex';

const TABLE = 'krypton_storage_rewrites';

interface Row {
  cluster: string;
  namespace: string;
  result: string;
  requested_by: string;
  requested_at: string;
  run_id: string | null;
}

/** Whether a stored result has today's shape; runs stored before the verdict existed have not. */
function current(result: StorageRewriteResult): boolean {
  return (
    typeof result === 'object' &&
    result !== null &&
    typeof result.oldKeyRetirement === 'object' &&
    typeof result.counts?.seen === 'number'
  );
}

/**
 * The last storage rewrite part per namespace of each cluster, for the operator section. A
 * cluster-wide run keeps only its totals in its run row, so each namespace's own part is kept
 * here, naming its run.
 */
export class StorageRewriteStore {
  constructor(private readonly db: Knex) {}

  async save(cluster: string, runs: StorageRewriteRun[]): Promise<void> {
    if (runs.length === 0) return;
    const rows: Row[] = runs.map(run => ({
      cluster,
      namespace: run.namespace,
      result: JSON.stringify(run.result),
      requested_by: run.requestedBy,
      requested_at: run.requestedAt,
      run_id: run.runId ?? null,
    }));
    await this.db<Row>(TABLE)
      .insert(rows)
      .onConflict(['cluster', 'namespace'])
      .merge();
  }

  /**
   * The last run of each namespace, oldest shape left out: a result without a verdict cannot say
   * whether the old key may go, and the next run of the namespace replaces it.
   */
  async list(cluster: string): Promise<StorageRewriteRun[]> {
    const rows = await this.db<Row>(TABLE)
      .where({ cluster })
      .orderBy('namespace');
    return rows
      .map(row => ({
        namespace: row.namespace,
        result: JSON.parse(row.result) as StorageRewriteResult,
        requestedBy: row.requested_by,
        requestedAt: row.requested_at,
        ...(row.run_id ? { runId: row.run_id } : {}),
      }))
      .filter(run => current(run.result));
  }
}
