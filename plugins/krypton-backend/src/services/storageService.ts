import {
  StorageMigrationStatus,
  StorageRewriteResult,
  StorageRewriteRun,
  kryptonStorageRewritePermission,
  validateNamespace,
} from '@krypton/plugin-krypton-common';
import {
  StorageRewrite,
  rewriteResultFor,
  storageMigrationStatus,
} from '@krypton/plugin-krypton-common/engine';
import { AUDIT_EVENTS } from './audit';
import { CallerInput } from './callers';
import { ServiceDeps } from './deps';

/** Whether a rewrite left objects or namespaces on the old key. */
export function rewriteIncomplete(result: StorageRewriteResult): boolean {
  return result.counts.failed > 0 || result.namespaceFailures.length > 0;
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
    options: { namespace?: string },
  ): Promise<StorageRewriteResult> {
    const { config, logger, storageRewrites } = this.deps;
    const namespace =
      options.namespace === undefined
        ? undefined
        : validateNamespace(options.namespace);
    const meta = { scope: namespace ?? '*' };
    return this.deps.audited(
      input,
      AUDIT_EVENTS.storageRewrite,
      meta,
      async () => {
        const ctx = await this.operator(input);
        const rewrite = new StorageRewrite({
          gateway: ctx.gateways.krypton,
          annotationPrefix: config.annotationPrefix,
        });
        const scope = this.deps.callers.rewriteScope(ctx, rewrite);
        if (namespace !== undefined) await scope.admit(namespace);
        const out = await rewrite.run({
          namespace,
          lister: ctx.gateways.user,
          include: scope.include,
        });
        try {
          await storageRewrites.save(
            ctx.cluster.name,
            out.namespaces.map(ns => ({
              namespace: ns,
              result: rewriteResultFor(out, ns),
              requestedBy: ctx.actor,
              requestedAt: out.startedAt,
            })),
          );
        } catch (err) {
          logger.warn(
            `Could not store the storage rewrite result: ${
              (err as Error).name
            }`,
          );
        }
        return {
          result: out,
          meta: {
            cluster: ctx.cluster.name,
            namespaces: out.namespaces.length,
            ...out.counts,
            namespaceFailures: out.namespaceFailures.length,
          },
          outcome: rewriteIncomplete(out)
            ? new Error('The storage rewrite did not cover every object.')
            : undefined,
        };
      },
    );
  }

  async lastRuns(input: CallerInput): Promise<StorageRewriteRun[]> {
    const ctx = await this.operator(input);
    return this.deps.storageRewrites.list(ctx.cluster.name);
  }

  async migrations(input: CallerInput): Promise<StorageMigrationStatus> {
    const ctx = await this.operator(input);
    return storageMigrationStatus(ctx.gateways.krypton);
  }
}
