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
 * A gate that remembers the live Secret it last admitted: for a delete's notice, which needs the
 * Secret as the delete's own gate read it (once it is gone nothing else can say, and another read
 * would cost a request).
 */
export function rememberingGate(gate: LiveGate): {
  gate: LiveGate;
  admitted: () => NativeSecret | undefined;
} {
  let last: NativeSecret | undefined;
  return {
    gate: {
      permit: gate.permit,
      admit: (live, actions) => {
        gate.admit(live, actions);
        last = live;
      },
    },
    admitted: () => last,
  };
}

/**
 * The gate of a person who is not signed in now, a change request's requester when it is
 * applied: the Secret's access rules with their principal as it was when they asked. No
 * permission policy can be asked for them (it answers signed-in users only), so the policy's
 * answer is the one that their request passed.
 */
export function rulesOnlyGate(deps: RulesDeps): LiveGate {
  return {
    permit: async () => () => undefined,
    admit: rulesAdmit(deps),
  };
}

interface RulesDeps {
  live: LiveSecrets;
  principal: Principal;
  accessPolicy: AccessPolicy;
}

/** Whether the Secret's access rules deny this principal an action. */
function rulesDeny(
  { live, principal, accessPolicy }: RulesDeps,
  secret: NativeSecret,
  action: SecretAction,
): boolean {
  return (
    evaluateAccess(
      live.accessRules(secret),
      principal,
      action,
      accessPolicy,
    ) === 'deny'
  );
}

/** Refuses (403) actions that the Secret's access rules deny. */
function rulesAdmit(deps: RulesDeps): LiveGate['admit'] {
  return (secret, actions) => {
    if (actions.some(action => rulesDeny(deps, secret, action))) {
      throw new KryptonError('forbidden', messages.forbiddenAcl);
    }
  };
}

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
  const { policy, resourceOf } = deps;
  const aclDenies = (secret: NativeSecret, action: SecretAction) =>
    rulesDeny(deps, secret, action);
  const requirePolicy = (allows: ResourceDecision, secret: NativeSecret) => {
    if (!allows(resourceOf(secret))) throw refusedByPolicy();
  };
  const gate: LiveGate = {
    permit: async actions => {
      const allows = await policy.on(permissionsFor(actions));
      return secret => requirePolicy(allows, secret);
    },
    admit: rulesAdmit(deps),
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
