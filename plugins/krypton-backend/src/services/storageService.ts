import { randomUUID } from 'node:crypto';
import { kryptonStorageRewritePermission } from '@krypton/plugin-krypton-common';
import {
  KryptonError,
  StorageMigrationStatus,
  StorageRewriteRun,
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
import { CallerInput, ClusterRequestContext } from './requestContext';
import { ServiceDeps } from './deps';
import { StorageRunRunner } from './storageRunner';
import {
  VISIBILITY_CHECKS_IN_FLIGHT,
  admitted,
  namespaceVisibility,
  rewriteScope,
  visibleRun,
} from './storageVisibility';

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

/** At most this many runs answer GET .../storage-rewrite/runs, newest first. */
const STORAGE_REWRITE_RUNS_LISTED = 50;

const RUN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function readRunId(raw: string): string {
  if (raw.length !== 36 || !RUN_ID.test(raw))
    throw new KryptonError(
      'invalid_request',
      STORAGE_REWRITE_RUN_MESSAGES.badId,
    );
  return raw;
}

/**
 * The operator's storage rewrite: Krypton's own identity rewrites its objects in one namespace
 * or in every namespace the caller may list, after the permission check. A run is a row of the
 * plugin's database: the replica that starts it runs it without the request, beats its
 * heartbeat, writes its progress and polls for a cancel; any replica reads it.
 */
export class StorageService {
  private readonly runner: StorageRunRunner;

  constructor(private readonly deps: ServiceDeps) {
    this.runner = new StorageRunRunner(deps);
  }

  private async operator(input: CallerInput) {
    const ctx = await this.deps.callers.identify(input);
    await this.deps.policy.require(ctx.credentials, [
      kryptonStorageRewritePermission,
    ]);
    return ctx;
  }

  /** Whether the caller may list a namespace's Secrets, asked once per namespace and call. */
  private visibility(ctx: ClusterRequestContext) {
    return namespaceVisibility(
      rewriteScope(this.deps.config, ctx, this.engine(ctx)),
    );
  }

  /**
   * This replica is shutting down: the runs it runs stop before their next page and read as
   * interrupted from every replica at once, not only once their heartbeat is stale.
   */
  shutdown(): Promise<void> {
    return this.runner.shutdown();
  }

  private engine(ctx: ClusterRequestContext) {
    return new StorageRewrite({
      gateway: ctx.gateways.krypton,
      annotationPrefix: this.deps.config.annotationPrefix,
      timeLimitMs: this.deps.config.storageRewriteTimeLimitMs,
    });
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
          const scope = rewriteScope(this.deps.config, ctx, rewrite);
          if (namespace !== undefined) await scope(namespace);
          const begun = await this.deps.storageRewriteRuns.start({
            id,
            cluster: ctx.cluster.name,
            scope: namespace ?? '*',
            dryRun,
            requestedBy: ctx.actor,
            owner: this.runner.replica,
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
            this.runner.execute(ctx, begun.started, rewrite, {
              namespace,
              dryRun,
              admit: ns => admitted(scope, ns),
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
      visibleRun(run, mayList),
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

  /**
   * A run by id as the caller may see it, or 404. A caller that reads runs more than once passes
   * one visibility, so that each namespace is asked about once.
   */
  private async visibleById(
    ctx: ClusterRequestContext,
    rawId: string,
    mayList?: (namespace: string) => Promise<boolean>,
  ) {
    const id = readRunId(rawId);
    const run = await this.deps.storageRewriteRuns.get(ctx.cluster.name, id);
    const shown =
      run && (await visibleRun(run, mayList ?? this.visibility(ctx)));
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
        // One visibility for both reads of the run: a namespace is asked about once per cancel.
        const mayList = this.visibility(ctx);
        const run = await this.visibleById(ctx, id, mayList);
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
        // Read again for cancelledBy, which the cancel has just written.
        const shown = await this.visibleById(ctx, id, mayList);
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
