import { OwnerSyncOffer, OwnerSyncResult } from '@krypton/core';
import { AUDIT_EVENTS } from './audit';
import { admitSecretName } from './callers';
import { ServiceDeps } from './deps';
import { SecretTarget } from './requestContext';

/**
 * Requests to a Secret's owner to write it again from its source (External Secrets' force-sync):
 * the offer, proven by a dry run as the user, and the request, audited.
 */
export class OwnerSyncService {
  constructor(private readonly deps: ServiceDeps) {}

  async offer(target: SecretTarget, name: string): Promise<OwnerSyncOffer> {
    admitSecretName(name);
    const ctx = await this.deps.callers.context(target);
    return ctx.ownerSync.offer(ctx.namespace, name, ctx.gate);
  }

  async request(target: SecretTarget, name: string): Promise<OwnerSyncResult> {
    admitSecretName(name);
    const ctx = await this.deps.callers.context(target);
    return this.deps.audited(
      ctx,
      AUDIT_EVENTS.ownerSync,
      ctx.auditMeta(name),
      async () => {
        const result = await ctx.ownerSync.request(
          ctx.namespace,
          name,
          ctx.gate,
        );
        return {
          result,
          meta: {
            ownerKind: result.target.kind,
            ownerName: result.target.name,
            annotation: `${result.annotation.key}=${result.annotation.value}`,
          },
        };
      },
    );
  }
}
