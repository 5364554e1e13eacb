import {
  ConsumerVersionsResult,
  ConsumersResult,
  KryptonError,
  LastRestart,
  RestartResult,
  messages,
} from '@krypton/core';
import { AUDIT_EVENTS } from './audit';
import { admitSecretName } from './callers';
import { SecretTarget } from './requestContext';
import { ServiceDeps } from './deps';

/** The workloads that consume a Secret: the dry run, restart-consumers, and its last result. */
export class RestartService {
  constructor(private readonly deps: ServiceDeps) {}

  /** Refuses (403) while restart-consumers is disabled; before anything else is judged. */
  assertEnabled(): void {
    if (!this.deps.config.restartEnabled) {
      throw new KryptonError('forbidden', messages.restartDisabled);
    }
  }

  async restart(target: SecretTarget, name: string): Promise<RestartResult> {
    this.assertEnabled();
    admitSecretName(name);
    const ctx = await this.deps.callers.context(target);
    const { logger, restartResults } = this.deps;
    return this.deps.audited(
      ctx,
      AUDIT_EVENTS.restart,
      ctx.auditMeta(name),
      async () => {
        const live = await ctx.live.gateRestart(ctx.namespace, name, ctx.gate);
        const out = await ctx.restart.restart(ctx.namespace, name);
        try {
          await restartResults.save(
            {
              cluster: ctx.cluster.name,
              namespace: ctx.namespace,
              name,
              uid: live.metadata.uid ?? '',
            },
            {
              result: out,
              requestedBy: ctx.actor,
              requestedAt: new Date().toISOString(),
            },
          );
        } catch (err) {
          // The rollouts were requested either way; only the record for teammates is missing.
          logger.warn(
            `Could not store the restart result of ${ctx.namespace}/${name}: ${
              (err as Error).name
            }`,
          );
        }
        // Every result is news to the owners, a failed one most of all.
        this.deps.notifier.notify({
          event: 'restart',
          status: out.status,
          requested: out.requested.length,
          failed: out.failures.length,
          ...ctx.changeOf(live),
        });
        return {
          result: out,
          meta: {
            status: out.status,
            matched: out.matched,
            requested: out.requested.map(w => ({ ...w })),
            failures: out.failures.map(f => ({ ...f })),
            discoveryFailures: out.discoveryFailures.map(f => ({ ...f })),
          },
          outcome:
            out.status === 'partial' || out.status === 'failed'
              ? new Error(out.message)
              : undefined,
        };
      },
    );
  }

  /** The last restart result of this live Secret (its UID), whoever requested it. */
  async last(target: SecretTarget, name: string): Promise<LastRestart | null> {
    admitSecretName(name);
    const ctx = await this.deps.callers.context(target);
    const live = await ctx.live.loadGated(
      ctx.namespace,
      name,
      ['read'],
      ctx.gate,
      { metadataOnly: true },
    );
    const last = await this.deps.restartResults.load({
      cluster: ctx.cluster.name,
      namespace: ctx.namespace,
      name,
      uid: live.metadata.uid ?? '',
    });
    return last ?? null;
  }

  async consumers(
    target: SecretTarget,
    name: string,
  ): Promise<ConsumersResult> {
    admitSecretName(name);
    const ctx = await this.deps.callers.context(target);
    await ctx.live.loadGated(ctx.namespace, name, ['read'], ctx.gate, {
      metadataOnly: true,
    });
    return ctx.restart.consumers(ctx.namespace, name);
  }

  /** The consumers with their pods and the version each holds; read-only. */
  async consumerVersions(
    target: SecretTarget,
    name: string,
  ): Promise<ConsumerVersionsResult> {
    admitSecretName(name);
    const ctx = await this.deps.callers.context(target);
    return ctx.consumerVersions.read(ctx.namespace, name, ctx.gate);
  }
}
