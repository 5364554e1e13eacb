import {
  kryptonSecretCreatePermission,
  kryptonSecretReadPermission,
  kryptonSecretRecreatePermission,
} from '@krypton/plugin-krypton-common';
import {
  DeletedSecretSummary,
  SecretWriteAnswer,
  deletedSecretSummary,
  parseRecreateRequest,
} from '@krypton/core';
import { AUDIT_EVENTS } from './audit';
import { admitSecretName } from './callers';
import { SecretTarget } from './requestContext';
import { ServiceDeps } from './deps';

const RECREATE_PERMISSIONS = [
  kryptonSecretCreatePermission,
  kryptonSecretRecreatePermission,
];

/**
 * Secrets that are gone while their history is kept: the list, and recreating one from a kept
 * version. A deleted Secret has no live object to gate on, so the gates judge it as its newest
 * kept version describes it (recordStandIn): its name, type and last rules, managed, no labels of
 * its own. The user's own list of the namespace's Secrets comes first on both paths.
 */
export class DeletedSecretsService {
  constructor(private readonly deps: ServiceDeps) {}

  /** Not audited, like every read that returns no values and changes nothing. */
  async list(target: SecretTarget): Promise<DeletedSecretSummary[]> {
    const ctx = await this.deps.callers.context(target);
    // As on the Secret list, Kubernetes RBAC answers first and the policy is asked beside it.
    const permitted = ctx.policyOn([kryptonSecretReadPermission]);
    permitted.catch(() => undefined);
    const lifetimes = await ctx.deleted.list(ctx.namespace);
    const allows = await permitted;
    return lifetimes
      .filter(
        ({ standIn }) =>
          ctx.mayList(standIn) && allows(ctx.resourceOf(standIn)),
      )
      .map(deletedSecretSummary);
  }

  /**
   * A new Secret from a kept version: the create as the user, the policy's create and recreate
   * permissions on the Secret as it would be created, and the deleted Secret's last rules
   * (RecreatePlan.actions). Audited; the meta names the old lifetime and version, never values.
   */
  async recreate(
    target: SecretTarget,
    name: string,
    request: unknown,
  ): Promise<SecretWriteAnswer> {
    admitSecretName(name);
    const ctx = await this.deps.callers.context(target);
    const body = parseRecreateRequest(request);
    const meta = {
      ...ctx.auditMeta(name),
      deletedUid: body.uid,
      recreatedFromVersion: String(body.version),
    };
    const answer = ctx.answerFor(RECREATE_PERMISSIONS);
    return this.deps.audited(ctx, AUDIT_EVENTS.recreate, meta, async () => {
      const allows = await ctx.policyOn(RECREATE_PERMISSIONS);
      const secret = await ctx.deleted.recreate(
        ctx.namespace,
        name,
        body,
        plan => {
          ctx.admitPlacement(plan.secret.type ?? 'Opaque');
          ctx.gate.admit(plan.lifetime.standIn, plan.actions);
          ctx.requirePolicy(allows, plan.secret);
        },
      );
      return {
        result: await answer(secret),
        meta: {
          version: 1,
          keyCount: Object.keys(secret.data ?? {}).length,
        },
      };
    });
  }
}
