import {
  AccessPolicy,
  KryptonError,
  LiveGate,
  LiveSecrets,
  NativeSecret,
  Principal,
  SecretAction,
  VALUE_ACTIONS,
  messages,
  evaluateAccess,
  valuesShown,
} from '@krypton/core';
import { ResourceDecision, refusedByPolicy } from '../permissions/policyGate';
import { KryptonSecretResource } from '../permissions/resource';
import { RequestPolicy, permissionsFor } from './requestPolicy';

/**
 * The gates of one request on a live Secret: the permission policy (with its conditions judged
 * on the Secret) and the Secret's own access rules, and what the two allow together.
 */
export function secretGates(deps: {
  live: LiveSecrets;
  principal: Principal;
  accessPolicy: AccessPolicy;
  policy: RequestPolicy;
  resourceOf: (secret: NativeSecret) => KryptonSecretResource;
}) {
  const { live, principal, accessPolicy, policy, resourceOf } = deps;
  const aclDenies = (secret: NativeSecret, action: SecretAction) =>
    evaluateAccess(
      live.accessRules(secret),
      principal,
      action,
      accessPolicy,
    ) === 'deny';
  const requirePolicy = (allows: ResourceDecision, secret: NativeSecret) => {
    if (!allows(resourceOf(secret))) throw refusedByPolicy();
  };
  const gate: LiveGate = {
    permit: async actions => {
      const allows = await policy.on(permissionsFor(actions));
      return secret => requirePolicy(allows, secret);
    },
    admit: (secret, actions) => {
      if (actions.some(action => aclDenies(secret, action))) {
        throw new KryptonError('forbidden', messages.forbiddenAcl);
      }
    },
  };
  return {
    gate,
    requirePolicy,
    mayList: (secret: NativeSecret) => !aclDenies(secret, 'read'),
    mayReveal: (secret: NativeSecret, policyAllowsReveal: boolean) =>
      policyAllowsReveal &&
      !VALUE_ACTIONS.some(action => aclDenies(secret, action)) &&
      valuesShown(secret),
  };
}
