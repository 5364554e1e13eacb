import {
  BackstageCredentials,
  PermissionsRegistryService,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import {
  AuthorizeResult,
  BasicPermission,
  PolicyDecision,
  ResourcePermission,
} from '@backstage/plugin-permission-common';
import { createConditionAuthorizer } from '@backstage/plugin-permission-node';
import { KRYPTON_SECRET_RESOURCE_TYPE } from '@krypton/plugin-krypton-common';
import { KryptonError, messages } from '@krypton/core';
import { KryptonSecretResource, kryptonSecretResourceRef } from './resource';
import { timed } from '../diagnostics/serverTiming';

/** Whether a policy's decisions let the caller act on one Secret. */
export type ResourceDecision = (resource: KryptonSecretResource) => boolean;

/** The Backstage permission policy, as Krypton's gates ask it. */
export interface PolicyGate {
  /** The policy's decisions on Secret permissions without a resource, in order, in one request. */
  ask(
    credentials: BackstageCredentials,
    permissions: ResourcePermission<typeof KRYPTON_SECRET_RESOURCE_TYPE>[],
  ): Promise<PolicyDecision[]>;
  /**
   * Any DENY among the decisions is a 403 at once; the conditions of CONDITIONAL decisions come
   * back to be judged against the Secret that Krypton reads (or plans to write), the same object
   * every other gate judges.
   */
  judge(decisions: PolicyDecision[]): ResourceDecision;
  /** `judge` of `ask`. */
  decide(
    credentials: BackstageCredentials,
    permissions: ResourcePermission<typeof KRYPTON_SECRET_RESOURCE_TYPE>[],
  ): Promise<ResourceDecision>;
  /** Fails with 403 unless the policy allows every basic permission. */
  require(
    credentials: BackstageCredentials,
    permissions: BasicPermission[],
  ): Promise<void>;
}

/** The policy's refusal of a Secret: a 403 with one fixed message, whichever permission it was. */
export const refusedByPolicy = () =>
  new KryptonError('forbidden', messages.forbiddenPermission);

export function createPolicyGate(
  permissions: PermissionsService,
  registry: PermissionsRegistryService,
): PolicyGate {
  // Read when first needed: rules that modules add land in the registry after Krypton's init.
  let authorizer:
    | ((decision: PolicyDecision, resource: KryptonSecretResource) => boolean)
    | undefined;
  const applies = () =>
    (authorizer ??= createConditionAuthorizer(
      registry.getPermissionRuleset(kryptonSecretResourceRef),
    ));
  const ask: PolicyGate['ask'] = (credentials, asked) =>
    timed('permission', () =>
      permissions.authorizeConditional(
        asked.map(permission => ({ permission })),
        { credentials },
      ),
    );
  const judge: PolicyGate['judge'] = decisions => {
    if (decisions.some(d => d.result === AuthorizeResult.DENY))
      throw refusedByPolicy();
    const conditional = decisions.filter(
      d => d.result === AuthorizeResult.CONDITIONAL,
    );
    if (conditional.length === 0) return () => true;
    const authorize = applies();
    return resource => conditional.every(d => authorize(d, resource));
  };
  return {
    ask,
    judge,
    async decide(credentials, asked) {
      return judge(await ask(credentials, [...new Set(asked)]));
    },
    async require(credentials, asked) {
      const decisions = await timed('permission', () =>
        permissions.authorize(
          asked.map(permission => ({ permission })),
          { credentials },
        ),
      );
      if (decisions.some(d => d.result !== AuthorizeResult.ALLOW))
        throw refusedByPolicy();
    },
  };
}
