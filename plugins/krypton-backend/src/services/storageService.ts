import {
  KryptonError,
  StorageMigrationStatus,
  StorageRewriteResult,
  StorageRewriteRun,
  kryptonStorageRewritePermission,
  validateNamespace,
} from '@krypton/plugin-krypton-common';
import {
  StorageRewrite,
  inPool,
  storageMigrationStatus,
} from '@krypton/plugin-krypton-common/engine';
import { AUDIT_EVENTS } from './audit';
import { CallerInput } from './callers';
import { ServiceDeps } from './deps';

/** Namespaces checked at once when /last filters runs by what the caller may list. */
const VISIBILITY_CHECKS_IN_FLIGHT = 8;

/** Whether a run left objects or namespaces unconfirmed (a failure, not just a recheck). */
export function rewriteIncomplete(result: StorageRewriteResult): boolean {
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

/**
 * The operator's storage rewrite: Krypton's own identity rewrites its objects in one namespace
 * or in every namespace the caller may list, after the permission check.
 */
export class StorageService {
  constructor(private readonly deps: ServiceDeps) {}

  private async operator(input: CallerInput) {
    const ctx = await this.deps.callers.identify(input);
    await this.deps.policy.require(ctx.credentials, [
      kryptonStorageRewritePermission,
    ]);
    return ctx;
  }

  async rewrite(
    input: CallerInput,
    options: { namespace?: string; dryRun?: boolean },
  ): Promise<StorageRewriteResult> {
    const { config, logger, storageRewrites } = this.deps;
    const namespace =
      options.namespace === undefined
        ? undefined
        : validateNamespace(options.namespace);
    const dryRun = options.dryRun ?? false;
    const meta: Record<string, string> = { scope: namespace ?? '*' };
    if (dryRun) meta.dryRun = 'true';
    return this.deps.audited(
      input,
      AUDIT_EVENTS.storageRewrite,
      meta,
      async () => {
        const ctx = await this.operator(input);
        const rewrite = new StorageRewrite({
          gateway: ctx.gateways.krypton,
          annotationPrefix: config.annotationPrefix,
          timeLimitMs: config.storageRewriteTimeLimitMs,
        });
        const scope = this.deps.callers.rewriteScope(ctx, rewrite);
        if (namespace !== undefined) await scope.admit(namespace);
        const requestedAt = new Date().toISOString();
        const out = await rewrite.run({
          namespace,
          lister: ctx.gateways.user,
          dryRun,
          // A cluster-wide run covers only the namespaces whose Secrets the caller may list.
          admit: ns =>
            scope.admit(ns).then(
              () => true,
              err => {
                if (err instanceof KryptonError && err.code === 'forbidden')
                  return false;
                throw err;
              },
            ),
          // Each namespace is kept as soon as it is done; a dry run replaces no real run.
          onNamespace: async part => {
            if (dryRun) return;
            try {
              await storageRewrites.save(ctx.cluster.name, [
                {
                  namespace: part.namespaces[0],
                  result: part,
                  requestedBy: ctx.actor,
                  requestedAt,
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
        return {
          result: out,
          meta: {
            cluster: ctx.cluster.name,
            namespaces: out.namespaces.length,
            ...out.counts,
            namespaceFailures: out.namespaceFailures.length,
            listRestarts: out.listRestarts,
            recheckRewritten: out.recheck?.counts.rewritten ?? 0,
            verdict: out.oldKeyRetirement.verdict,
            ...(out.stopped ? { stopped: out.stopped } : {}),
          },
          outcome: rewriteIncomplete(out)
            ? new Error('The storage rewrite did not cover every object.')
            : undefined,
        };
      },
    );
  }

  /** The last run of each namespace whose Secrets the caller may list. */
  async lastRuns(input: CallerInput): Promise<StorageRewriteRun[]> {
    const ctx = await this.operator(input);
    const runs = await this.deps.storageRewrites.list(ctx.cluster.name);
    const scope = this.deps.callers.rewriteScope(
      ctx,
      new StorageRewrite({
        gateway: ctx.gateways.krypton,
        annotationPrefix: this.deps.config.annotationPrefix,
      }),
    );
    const visible = await inPool(
      runs,
      VISIBILITY_CHECKS_IN_FLIGHT,
      async run => {
        try {
          await scope.admit(run.namespace);
          return true;
        } catch (err) {
          if (err instanceof KryptonError && err.code === 'forbidden')
            return false;
          throw err;
        }
      },
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
