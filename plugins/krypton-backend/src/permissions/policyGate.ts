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
import {
  KRYPTON_SECRET_RESOURCE_TYPE,
  KryptonError,
  messages,
} from '@krypton/plugin-krypton-common';
import { KryptonSecretResource, kryptonSecretResourceRef } from './resource';

/** Whether a policy's decisions let the caller act on one Secret. */
export type ResourceDecision = (resource: KryptonSecretResource) => boolean;

/** The Backstage permission policy, as Krypton's gates ask it. */
export interface PolicyGate {
  /**
   * Asks about Secret permissions without a resource: any DENY is a 403 at once, and the
   * conditions of CONDITIONAL decisions come back to be judged against the Secret that Krypton
   * reads (or plans to write), the same object every other gate judges.
   */
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

const refused = () =>
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
  return {
    async decide(credentials, asked) {
      const decisions = await permissions.authorizeConditional(
        [...new Set(asked)].map(permission => ({ permission })),
        { credentials },
      );
      if (decisions.some(d => d.result === AuthorizeResult.DENY))
        throw refused();
      const conditional = decisions.filter(
        d => d.result === AuthorizeResult.CONDITIONAL,
      );
      if (conditional.length === 0) return () => true;
      const authorize = applies();
      return resource => conditional.every(d => authorize(d, resource));
    },
    async require(credentials, asked) {
      const decisions = await permissions.authorize(
        asked.map(permission => ({ permission })),
        { credentials },
      );
      if (decisions.some(d => d.result !== AuthorizeResult.ALLOW))
        throw refused();
    },
  };
}
