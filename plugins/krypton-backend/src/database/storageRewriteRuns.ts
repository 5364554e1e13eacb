import {
  StorageRewriteProgress,
  StorageRewriteResult,
  StorageRewriteRunState,
  StorageRewriteRunStatus,
  STORAGE_REWRITE_RUN_MESSAGES,
} from '@krypton/core';
import { Knex } from 'knex';

const TABLE = 'krypton_storage_rewrite_runs';

/** A running row whose owner has not beaten for this long reads (and is written) as interrupted. */
export const STALE_HEARTBEAT_MS = 60_000;

/** Prefixes the cluster's name in the advisory lock that serializes its starts. */
const START_LOCK_PREFIX = 'krypton-storage-rewrite:';

interface Row {
  id: string;
  cluster: string;
  scope: string;
  dry_run: boolean | number;
  requested_by: string;
  requested_at: string;
  state: StorageRewriteRunState;
  owner: string;
  heartbeat_at: string;
  cancel_requested: boolean | number;
  cancelled_by: string | null;
  progress: string;
  result: string | null;
  finished_at: string | null;
  error: string | null;
}

export interface NewRun {
  id: string;
  cluster: string;
  scope: string;
  dryRun: boolean;
  requestedBy: string;
  owner: string;
  progress: StorageRewriteProgress;
}

/** What the owner of a run learns at each tick. */
interface RunAnswer {
  running: boolean;
  cancelRequested: boolean;
  cancelledBy?: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

function statusOf(row: Row): StorageRewriteRunStatus {
  const status: StorageRewriteRunStatus = {
    id: row.id,
    cluster: row.cluster,
    scope: row.scope,
    // SQLite answers booleans as 0 and 1.
    dryRun: Boolean(row.dry_run),
    state: row.state,
    requestedBy: row.requested_by,
    requestedAt: row.requested_at,
    cancelRequested: Boolean(row.cancel_requested),
    heartbeatAt: row.heartbeat_at,
    progress: JSON.parse(row.progress) as StorageRewriteProgress,
  };
  if (row.cancelled_by) status.cancelledBy = row.cancelled_by;
  if (row.finished_at) status.finishedAt = row.finished_at;
  if (row.result)
    status.result = JSON.parse(row.result) as StorageRewriteResult;
  if (row.error) status.error = row.error;
  return status;
}

/**
 * Storage rewrite runs in the plugin's database, shared by every replica. Timestamps are ISO
 * strings in UTC of one length, so that they compare as text in SQL on every database.
 */
export class StorageRewriteRunStore {
  constructor(
    private readonly db: Knex,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Marks the running rows whose owner stopped beating as interrupted. */
  private async expire(db: Knex, cluster: string): Promise<void> {
    const now = this.clock();
    await db<Row>(TABLE)
      .where({ cluster, state: 'running' })
      .andWhere('heartbeat_at', '<', iso(now - STALE_HEARTBEAT_MS))
      .update({
        state: 'interrupted',
        finished_at: iso(now),
        error: STORAGE_REWRITE_RUN_MESSAGES.interrupted,
      });
  }

  /**
   * Stores a new running run, unless one of the same cluster whose scope overlaps it is running
   * ('*' overlaps every scope): then the running one. Starts of one cluster are serialized, on
   * PostgreSQL across replicas by an advisory lock, so two replicas cannot both start.
   */
  async start(
    run: NewRun,
  ): Promise<
    { started: StorageRewriteRunStatus } | { running: StorageRewriteRunStatus }
  > {
    return this.db.transaction(async trx => {
      if (trx.client.dialect === 'postgresql') {
        await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [
          START_LOCK_PREFIX + run.cluster,
        ]);
      }
      await this.expire(trx, run.cluster);
      const overlapping = await trx<Row>(TABLE)
        .where({ cluster: run.cluster, state: 'running' })
        .andWhere(q => {
          if (run.scope !== '*')
            q.where('scope', run.scope).orWhere('scope', '*');
        })
        .first();
      if (overlapping) return { running: statusOf(overlapping) };
      const now = iso(this.clock());
      const row: Row = {
        id: run.id,
        cluster: run.cluster,
        scope: run.scope,
        dry_run: run.dryRun,
        requested_by: run.requestedBy,
        requested_at: now,
        state: 'running',
        owner: run.owner,
        heartbeat_at: now,
        cancel_requested: false,
        cancelled_by: null,
        progress: JSON.stringify(run.progress),
        result: null,
        finished_at: null,
        error: null,
      };
      await trx<Row>(TABLE).insert(row);
      return { started: statusOf(row) };
    });
  }

  async get(
    cluster: string,
    id: string,
  ): Promise<StorageRewriteRunStatus | undefined> {
    await this.expire(this.db, cluster);
    const row = await this.db<Row>(TABLE).where({ cluster, id }).first();
    return row ? statusOf(row) : undefined;
  }

  /** The newest runs first; with `scopes`, only runs of those scopes. */
  async list(
    cluster: string,
    options: { scopes?: string[]; limit: number },
  ): Promise<StorageRewriteRunStatus[]> {
    await this.expire(this.db, cluster);
    const query = this.db<Row>(TABLE)
      .where({ cluster })
      .orderBy([
        { column: 'requested_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(options.limit);
    if (options.scopes) query.whereIn('scope', options.scopes);
    return (await query).map(statusOf);
  }

  /**
   * Sets the cancel flag of a running run, and who asked for it unless someone asked first;
   * false when it is not running (any more).
   */
  async requestCancel(
    cluster: string,
    id: string,
    by: string,
  ): Promise<boolean> {
    await this.expire(this.db, cluster);
    const updated = await this.db<Row>(TABLE)
      .where({ cluster, id, state: 'running' })
      .update({
        cancel_requested: true,
        cancelled_by: this.db.raw('COALESCE(cancelled_by, ?)', [by]),
      });
    return updated > 0;
  }

  /**
   * The owner's heartbeat, with its progress when it changed. Answers whether the run should go
   * on: false once it was cancelled, or marked interrupted meanwhile.
   */
  async beat(
    id: string,
    owner: string,
    progress?: StorageRewriteProgress,
  ): Promise<RunAnswer> {
    const change: Partial<Row> = { heartbeat_at: iso(this.clock()) };
    if (progress) change.progress = JSON.stringify(progress);
    await this.db<Row>(TABLE)
      .where({ id, owner, state: 'running' })
      .update(change);
    return this.poll(id);
  }

  /** Whether a run still runs, and whether a cancel was asked for: the owner's poll. */
  async poll(id: string): Promise<RunAnswer> {
    const row = await this.db<Row>(TABLE)
      .where({ id })
      .first('state', 'cancel_requested', 'cancelled_by');
    const answer: RunAnswer = {
      running: row?.state === 'running',
      cancelRequested: Boolean(row?.cancel_requested),
    };
    if (row?.cancelled_by) answer.cancelledBy = row.cancelled_by;
    return answer;
  }

  /** Ends a run that this owner still runs; a run marked interrupted meanwhile stays so. */
  async finish(
    id: string,
    owner: string,
    end: {
      state: Exclude<StorageRewriteRunState, 'running'>;
      progress: StorageRewriteProgress;
      result?: StorageRewriteResult;
      error?: string;
    },
  ): Promise<boolean> {
    const now = iso(this.clock());
    const updated = await this.db<Row>(TABLE)
      .where({ id, owner, state: 'running' })
      .update({
        state: end.state,
        progress: JSON.stringify(end.progress),
        result: end.result ? JSON.stringify(end.result) : null,
        error: end.error ?? null,
        finished_at: now,
        heartbeat_at: now,
      });
    return updated > 0;
  }

  /** Marks every run this owner still runs as interrupted (it is shutting down). */
  async interruptOwner(owner: string): Promise<number> {
    const now = iso(this.clock());
    return this.db<Row>(TABLE).where({ owner, state: 'running' }).update({
      state: 'interrupted',
      finished_at: now,
      error: STORAGE_REWRITE_RUN_MESSAGES.interrupted,
    });
  }
}
