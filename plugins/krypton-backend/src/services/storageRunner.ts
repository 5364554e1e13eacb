import { randomUUID } from 'node:crypto';
import {
  STORAGE_REWRITE_RUN_MESSAGES,
  StorageRewrite,
  StorageRewriteProgress,
  StorageRewriteResult,
  StorageRewriteRunState,
  StorageRewriteRunStatus,
} from '@krypton/core';
import { ServiceDeps } from './deps';
import { ClusterRequestContext } from './requestContext';

// Runs storage rewrites in the background of this replica: the engine without the request, the
// row's heartbeat, progress and cancel flag, and the end of the row.

/** Whether a run left objects or namespaces unconfirmed (a failure, not just a recheck). */
function rewriteIncomplete(result: StorageRewriteResult): boolean {
  return result.oldKeyRetirement.reasons.some(
    r =>
      r.code === 'failed' ||
      r.code === 'namespace_failed' ||
      r.code === 'deadline',
  );
}

/** How often the owner of a run polls its row for a cancel, and writes changed progress. */
const TICK_MS = 1000;

/** The owner's heartbeat, written at least this often while the run runs. */
const HEARTBEAT_MS = 5000;

/** How a run that produced a result ended; a halted one was interrupted whatever it found. */
function endState(
  result: StorageRewriteResult,
  halted: boolean,
): Exclude<StorageRewriteRunState, 'running'> {
  if (halted) return 'interrupted';
  if (result.stopped === 'cancelled') return 'cancelled';
  return rewriteIncomplete(result) ? 'failed' : 'succeeded';
}

/** A run this replica runs: what its ticker writes, and what stops it. */
interface LocalRun {
  progress: StorageRewriteProgress;
  dirty: boolean;
  cancel: boolean;
  cancelledBy?: string;
  /** This replica shuts down, or another marked the run interrupted. */
  halt: boolean;
  /** Settles once the engine has stopped and the ticker with it. */
  stopped: Promise<void>;
}

/** How long a shutdown waits for its runs to stop at their next page. */
const SHUTDOWN_WAIT_MS = 5000;

/** How a run ended, for its row and its audit event. */
export interface RunEnd {
  state: Exclude<StorageRewriteRunState, 'running'>;
  result?: StorageRewriteResult;
  error?: string;
  cancelledBy?: string;
}

/**
 * The runs this replica owns. The replica that starts a run runs it without the request, beats
 * its heartbeat, writes its progress and polls for a cancel; any replica reads its row.
 */
export class StorageRunRunner {
  /** This replica, as the owner of the runs it runs. */
  readonly replica = randomUUID();
  private readonly local = new Map<string, LocalRun>();

  constructor(
    private readonly deps: Pick<
      ServiceDeps,
      'logger' | 'storageRewrites' | 'storageRewriteRuns'
    >,
  ) {}

  /** Runs the engine as the owner of the run's row, and ends the row; never throws. */
  async execute(
    ctx: ClusterRequestContext,
    run: StorageRewriteRunStatus,
    rewrite: StorageRewrite,
    scope: {
      namespace?: string;
      dryRun: boolean;
      admit: (namespace: string) => Promise<boolean>;
    },
  ): Promise<RunEnd> {
    const { logger, storageRewrites, storageRewriteRuns: runs } = this.deps;
    let engineStopped = () => {};
    const local: LocalRun = {
      progress: run.progress,
      dirty: false,
      cancel: false,
      halt: false,
      stopped: new Promise(resolve => {
        engineStopped = resolve;
      }),
    };
    this.local.set(run.id, local);
    let lastBeat = Date.now();
    let ticking: Promise<void> | undefined;
    const tick = async () => {
      try {
        const now = Date.now();
        let answer;
        if (local.dirty || now - lastBeat >= HEARTBEAT_MS) {
          local.dirty = false;
          answer = await runs.beat(run.id, this.replica, local.progress);
          lastBeat = now;
        } else {
          answer = await runs.poll(run.id);
        }
        if (answer.cancelRequested) local.cancel = true;
        if (answer.cancelledBy) local.cancelledBy = answer.cancelledBy;
        if (!answer.running) local.halt = true;
      } catch (err) {
        logger.warn(
          `Could not update storage rewrite run ${run.id}: ${
            (err as Error).name
          }`,
        );
      }
    };
    const timer = setInterval(() => {
      ticking ??= tick().finally(() => {
        ticking = undefined;
      });
    }, TICK_MS);
    timer.unref();
    let end: RunEnd;
    try {
      const result = await rewrite.run({
        namespace: scope.namespace,
        lister: ctx.gateways.user,
        dryRun: scope.dryRun,
        // A cluster-wide run covers only the namespaces whose Secrets the caller may list.
        admit: scope.admit,
        shouldStop: () => local.cancel || local.halt,
        onProgress: progress => {
          local.progress = progress;
          local.dirty = true;
        },
        // Each namespace is kept as soon as it is done; a dry run replaces no real run.
        onNamespace: async part => {
          if (scope.dryRun) return;
          try {
            await storageRewrites.save(ctx.cluster.name, [
              {
                namespace: part.namespaces[0],
                result: part,
                requestedBy: run.requestedBy,
                requestedAt: run.requestedAt,
                runId: run.id,
              },
            ]);
          } catch (err) {
            logger.warn(
              `Could not store the storage rewrite result: ${
                (err as Error).name
              }`,
            );
          }
        },
      });
      end = { result, state: endState(result, local.halt) };
      if (end.state === 'cancelled' && local.cancelledBy)
        end.cancelledBy = local.cancelledBy;
    } catch (err) {
      logger.warn(
        `Storage rewrite run ${run.id} stopped on an unexpected error: ${
          (err as Error).name
        }`,
      );
      end = { state: 'failed', error: STORAGE_REWRITE_RUN_MESSAGES.unexpected };
    } finally {
      clearInterval(timer);
      await ticking;
      this.local.delete(run.id);
      engineStopped();
    }
    if (end.state === 'interrupted')
      return { ...end, error: STORAGE_REWRITE_RUN_MESSAGES.interrupted };
    try {
      // A run marked interrupted meanwhile (its heartbeat seen as stale) stays so.
      if (
        !(await runs.finish(run.id, this.replica, {
          ...end,
          progress: local.progress,
        }))
      )
        return {
          state: 'interrupted',
          error: STORAGE_REWRITE_RUN_MESSAGES.interrupted,
        };
    } catch (err) {
      logger.warn(
        `Could not store the end of storage rewrite run ${run.id}: ${
          (err as Error).name
        }`,
      );
    }
    return end;
  }

  /**
   * This replica is shutting down: the runs it runs stop before their next page and read as
   * interrupted from every replica at once, not only once their heartbeat is stale.
   */
  async shutdown(): Promise<void> {
    const running = [...this.local.values()];
    for (const local of running) local.halt = true;
    await this.deps.storageRewriteRuns.interruptOwner(this.replica);
    // A run stops at its next page; one held longer by Kubernetes is not waited for.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(running.map(local => local.stopped)),
      new Promise(resolve => {
        timer = setTimeout(resolve, SHUTDOWN_WAIT_MS);
      }),
    ]);
    clearTimeout(timer);
  }
}
