import { randomUUID } from 'node:crypto';
import { kryptonStorageRewritePermission } from '@krypton/plugin-krypton-common';
import {
  KryptonError,
  StorageMigrationStatus,
  StorageRewritePass,
  StorageRewriteProgress,
  StorageRewriteResult,
  StorageRewriteRun,
  StorageRewriteRunState,
  StorageRewriteRunStatus,
  isAdmin,
  validateNamespace,
  STORAGE_REWRITE_RUN_MESSAGES,
  StorageRewrite,
  inPool,
  storageMigrationStatus,
} from '@krypton/core';
import { outsideRequest } from '../diagnostics/serverTiming';
import { AUDIT_EVENTS } from './audit';
import { CallerInput, ClusterRequestContext } from './callers';
import { ServiceDeps } from './deps';

/** Namespaces (and runs) checked at once when /last and the runs are kept to what the caller may list. */
const VISIBILITY_CHECKS_IN_FLIGHT = 8;

/** Whether a run left objects or namespaces unconfirmed (a failure, not just a recheck). */
function rewriteIncomplete(result: StorageRewriteResult): boolean {
  return result.oldKeyRetirement.reasons.some(
    r =>
      r.code === 'failed' ||
      r.code === 'namespace_failed' ||
      r.code === 'deadline',
  );
}

/** `?since=`: a UTC timestamp as the runs carry it (2026-12-02T01:00:00.000Z). */
function readSince(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (
    !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/.test(raw) ||
    Number.isNaN(Date.parse(raw))
  ) {
    throw new KryptonError(
      'invalid_request',
      'Query parameter "since" must be a UTC time such as 2026-12-02T01:00:00.000Z.',
    );
  }
  return raw;
}

/** How often the owner of a run polls its row for a cancel, and writes changed progress. */
const TICK_MS = 1000;

/** The owner's heartbeat, written at least this often while the run runs. */
const HEARTBEAT_MS = 5000;

/** At most this many runs answer GET .../storage-rewrite/runs, newest first. */
export const STORAGE_REWRITE_RUNS_LISTED = 50;

const RUN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function readRunId(raw: string): string {
  if (raw.length !== 36 || !RUN_ID.test(raw))
    throw new KryptonError(
      'invalid_request',
      STORAGE_REWRITE_RUN_MESSAGES.badId,
    );
  return raw;
}

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

/** Keeps the names of namespaces the caller may list; counts stay the run's totals. */
function visiblePass<T extends StorageRewritePass>(
  pass: T,
  visible: (namespace: string) => boolean,
): T {
  return {
    ...pass,
    flagged: pass.flagged.filter(f => visible(f.namespace)),
    gone: pass.gone.filter(g => visible(g.namespace)),
    failed: pass.failed.filter(f => visible(f.namespace)),
    // The list of namespaces itself (namespace '') failing names none.
    namespaceFailures: pass.namespaceFailures.filter(
      f => f.namespace === '' || visible(f.namespace),
    ),
  };
}

/**
 * The operator's storage rewrite: Krypton's own identity rewrites its objects in one namespace
 * or in every namespace the caller may list, after the permission check. A run is a row of the
 * plugin's database: the replica that starts it runs it without the request, beats its
 * heartbeat, writes its progress and polls for a cancel; any replica reads it.
 */
export class StorageService {
  /** This replica, as the owner of the runs it runs. */
  private readonly replica = randomUUID();
  private readonly local = new Map<string, LocalRun>();

  constructor(private readonly deps: ServiceDeps) {}

  private async operator(input: CallerInput) {
    const ctx = await this.deps.callers.identify(input);
    await this.deps.policy.require(ctx.credentials, [
      kryptonStorageRewritePermission,
    ]);
    return ctx;
  }

  private engine(ctx: ClusterRequestContext) {
    return new StorageRewrite({
      gateway: ctx.gateways.krypton,
      annotationPrefix: this.deps.config.annotationPrefix,
      timeLimitMs: this.deps.config.storageRewriteTimeLimitMs,
    });
  }

  /** Whether the caller may list a namespace's Secrets, asked once per namespace and call. */
  private visibility(ctx: ClusterRequestContext) {
    const scope = this.deps.callers.rewriteScope(ctx, this.engine(ctx));
    const known = new Map<string, Promise<boolean>>();
    return (namespace: string): Promise<boolean> => {
      let answer = known.get(namespace);
      if (!answer) {
        answer = scope.admit(namespace).then(
          () => true,
          err => {
            if (err instanceof KryptonError && err.code === 'forbidden')
              return false;
            throw err;
          },
        );
        known.set(namespace, answer);
      }
      return answer;
    };
  }

  /**
   * A run as the caller may see it: a one-namespace run when they may list that namespace; a
   * run of every namespace always, with only the names of the namespaces they may list.
   */
  private async visibleRun(
    run: StorageRewriteRunStatus,
    mayList: (namespace: string) => Promise<boolean>,
  ): Promise<StorageRewriteRunStatus | undefined> {
    if (run.scope !== '*') return (await mayList(run.scope)) ? run : undefined;
    const named = new Set<string>();
    if (run.progress.namespace) named.add(run.progress.namespace);
    const result = run.result;
    if (result) {
      for (const pass of [result, result.recheck]) {
        if (!pass) continue;
        for (const ref of [
          ...pass.flagged,
          ...pass.gone,
          ...pass.failed,
          ...pass.namespaceFailures,
        ])
          named.add(ref.namespace);
      }
      result.namespaces.forEach(ns => named.add(ns));
    }
    named.delete('');
    const names = [...named];
    const answers = await inPool(names, VISIBILITY_CHECKS_IN_FLIGHT, mayList);
    const shown = new Set(names.filter((_, i) => answers[i]));
    const visible = (ns: string) => shown.has(ns);
    const progress = { ...run.progress };
    if (progress.namespace !== undefined && !visible(progress.namespace))
      delete progress.namespace;
    const out: StorageRewriteRunStatus = { ...run, progress };
    if (result) {
      out.result = {
        ...visiblePass(result, visible),
        namespaces: result.namespaces.filter(visible),
      };
      if (result.recheck)
        out.result.recheck = visiblePass(result.recheck, visible);
    }
    return out;
  }

  /**
   * Starts a run after the permission check, the scope check and the check that no run of an
   * overlapping scope is running (409), and answers with it at once. The run goes on without
   * the request; its audit event ends when it ends.
   */
  async start(
    input: CallerInput,
    options: { namespace?: string; dryRun?: boolean },
  ): Promise<StorageRewriteRunStatus> {
    const namespace =
      options.namespace === undefined
        ? undefined
        : validateNamespace(options.namespace);
    const dryRun = options.dryRun ?? false;
    const id = randomUUID();
    const meta: Record<string, string> = { scope: namespace ?? '*', runId: id };
    if (dryRun) meta.dryRun = 'true';
    return new Promise((resolve, reject) => {
      let answered = false;
      this.deps
        .audited(input, AUDIT_EVENTS.storageRewrite, meta, async () => {
          const ctx = await this.operator(input);
          const rewrite = this.engine(ctx);
          const scope = this.deps.callers.rewriteScope(ctx, rewrite);
          if (namespace !== undefined) await scope.admit(namespace);
          const begun = await this.deps.storageRewriteRuns.start({
            id,
            cluster: ctx.cluster.name,
            scope: namespace ?? '*',
            dryRun,
            requestedBy: ctx.actor,
            owner: this.replica,
            progress: {
              pass: 'first',
              namespacesDone: 0,
              ...(namespace !== undefined ? { namespacesTotal: 1 } : {}),
              seen: 0,
              rewritten: 0,
              alreadyCurrent: 0,
              failed: 0,
              gone: 0,
            },
          });
          if ('running' in begun)
            throw new KryptonError(
              'conflict',
              STORAGE_REWRITE_RUN_MESSAGES.running,
            );
          answered = true;
          resolve(begun.started);
          const end = await outsideRequest(() =>
            this.execute(ctx, begun.started, rewrite, {
              namespace,
              dryRun,
              admit: ns =>
                scope.admit(ns).then(
                  () => true,
                  err => {
                    if (err instanceof KryptonError && err.code === 'forbidden')
                      return false;
                    throw err;
                  },
                ),
            }),
          );
          const out = end.result;
          return {
            result: undefined,
            meta: {
              cluster: ctx.cluster.name,
              state: end.state,
              ...(out
                ? {
                    namespaces: out.namespaces.length,
                    ...out.counts,
                    namespaceFailures: out.namespaceFailures.length,
                    listRestarts: out.listRestarts,
                    recheckRewritten: out.recheck?.counts.rewritten ?? 0,
                    verdict: out.oldKeyRetirement.verdict,
                    ...(out.stopped ? { stopped: out.stopped } : {}),
                  }
                : {}),
              // The cancel has an event of its own under the canceller's name; this one says
              // whose it was, so the requester's record does not read as their own failure.
              ...(end.cancelledBy ? { cancelledBy: end.cancelledBy } : {}),
            },
            outcome:
              end.state === 'succeeded'
                ? undefined
                : new Error(
                    end.state === 'cancelled'
                      ? `The storage rewrite was cancelled${
                          end.cancelledBy ? ` by ${end.cancelledBy}` : ''
                        }.`
                      : end.error ??
                        'The storage rewrite did not cover every object.',
                  ),
          };
        })
        .catch(err => {
          if (!answered) reject(err);
          else
            this.deps.logger.warn(
              `Could not record the end of storage rewrite run ${id}: ${
                (err as Error).name
              }`,
            );
        });
    });
  }

  /** Runs the engine as the owner of the run's row, and ends the row; never throws. */
  private async execute(
    ctx: ClusterRequestContext,
    run: StorageRewriteRunStatus,
    rewrite: StorageRewrite,
    scope: {
      namespace?: string;
      dryRun: boolean;
      admit: (namespace: string) => Promise<boolean>;
    },
  ): Promise<{
    state: Exclude<StorageRewriteRunState, 'running'>;
    result?: StorageRewriteResult;
    error?: string;
    cancelledBy?: string;
  }> {
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
    let end: Awaited<ReturnType<StorageService['execute']>>;
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

  /** The newest runs the caller may see; with `namespace`, those of it and of every namespace. */
  async runs(
    input: CallerInput,
    options: { namespace?: string } = {},
  ): Promise<StorageRewriteRunStatus[]> {
    const namespace =
      options.namespace === undefined
        ? undefined
        : validateNamespace(options.namespace);
    const ctx = await this.operator(input);
    const runs = await this.deps.storageRewriteRuns.list(ctx.cluster.name, {
      limit: STORAGE_REWRITE_RUNS_LISTED,
      ...(namespace !== undefined ? { scopes: [namespace, '*'] } : {}),
    });
    const mayList = this.visibility(ctx);
    const shown = await inPool(runs, VISIBILITY_CHECKS_IN_FLIGHT, run =>
      this.visibleRun(run, mayList),
    );
    return shown.filter(
      (run): run is StorageRewriteRunStatus =>
        run !== undefined &&
        (namespace === undefined ||
          run.scope === namespace ||
          // A run of every namespace that reached this one, or is still on its way.
          run.state === 'running' ||
          (run.result?.namespaces.includes(namespace) ?? false)),
    );
  }

  private async visibleById(ctx: ClusterRequestContext, rawId: string) {
    const id = readRunId(rawId);
    const run = await this.deps.storageRewriteRuns.get(ctx.cluster.name, id);
    const shown = run && (await this.visibleRun(run, this.visibility(ctx)));
    if (!shown)
      throw new KryptonError(
        'not_found',
        STORAGE_REWRITE_RUN_MESSAGES.notFound,
      );
    return shown;
  }

  async run(
    input: CallerInput,
    rawId: string,
  ): Promise<StorageRewriteRunStatus> {
    readRunId(rawId);
    const ctx = await this.operator(input);
    return this.visibleById(ctx, rawId);
  }

  /**
   * Asks a running run to stop: its owner, on whichever replica, sees the flag within a second
   * and stops before its next page. 409 once the run has ended. A run of one namespace may be
   * cancelled by any operator who may list that namespace, as they may start one there; a run
   * of every namespace holds the lock against every other run, and answers for namespaces that
   * no single operator may list, so only its requester or a Krypton admin may cancel it. The
   * cancel is audited on its own, under the canceller's name, and the run keeps who it was.
   */
  async cancel(
    input: CallerInput,
    rawId: string,
  ): Promise<StorageRewriteRunStatus> {
    const id = readRunId(rawId);
    return this.deps.audited(
      input,
      AUDIT_EVENTS.storageRewriteCancel,
      { runId: id },
      async () => {
        const ctx = await this.operator(input);
        const run = await this.visibleById(ctx, id);
        if (
          run.scope === '*' &&
          run.requestedBy !== ctx.actor &&
          !isAdmin(ctx.principal, this.deps.config.admins)
        )
          throw new KryptonError(
            'forbidden',
            STORAGE_REWRITE_RUN_MESSAGES.cancelForbidden,
          );
        if (
          !(await this.deps.storageRewriteRuns.requestCancel(
            ctx.cluster.name,
            run.id,
            ctx.actor,
          ))
        )
          throw new KryptonError(
            'conflict',
            STORAGE_REWRITE_RUN_MESSAGES.ended,
          );
        const shown = await this.visibleById(ctx, id);
        return {
          result: shown,
          meta: {
            cluster: ctx.cluster.name,
            scope: run.scope,
            requestedBy: run.requestedBy,
            ...(shown.cancelledBy ? { cancelledBy: shown.cancelledBy } : {}),
          },
        };
      },
    );
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

  /** The last run of each namespace whose Secrets the caller may list. */
  async lastRuns(input: CallerInput): Promise<StorageRewriteRun[]> {
    const ctx = await this.operator(input);
    const runs = await this.deps.storageRewrites.list(ctx.cluster.name);
    const mayList = this.visibility(ctx);
    const visible = await inPool(runs, VISIBILITY_CHECKS_IN_FLIGHT, run =>
      mayList(run.namespace),
    );
    return runs.filter((_, i) => visible[i]);
  }

  async migrations(
    input: CallerInput,
    options: { since?: string } = {},
  ): Promise<StorageMigrationStatus> {
    const since = readSince(options.since);
    const ctx = await this.operator(input);
    return storageMigrationStatus(ctx.gateways.krypton, { since });
  }
}
