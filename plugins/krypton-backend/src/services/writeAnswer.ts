import { ResourcePermission } from '@backstage/plugin-permission-common';
import { KRYPTON_SECRET_RESOURCE_TYPE } from '@krypton/plugin-krypton-common';
import {
  LiveSecrets,
  NativeSecret,
  SecretWriteAnswer,
  VALUE_ACTIONS,
} from '@krypton/core';
import { ResourceDecision } from '../permissions/policyGate';
import { KryptonSecretResource } from '../permissions/resource';
import { RequestPolicy, permissionsFor } from './requestPolicy';

/**
 * Starts the reveal check of a write's answer beside the write; the returned function shapes the
 * written Secret: with its values only for a user who may reveal them. The write's own
 * permissions go to the policy in the same request, so that a write costs one round trip to the
 * permission backend, not two.
 */
export function writeAnswerFor(
  deps: {
    live: LiveSecrets;
    policy: RequestPolicy;
    resourceOf: (secret: NativeSecret) => KryptonSecretResource;
    mayReveal: (secret: NativeSecret, policyAllowsReveal: boolean) => boolean;
  },
  writePermissions: ResourcePermission<typeof KRYPTON_SECRET_RESOURCE_TYPE>[],
): (secret: NativeSecret) => Promise<SecretWriteAnswer> {
  const { live, policy, resourceOf, mayReveal } = deps;
  policy.ask([...writePermissions, ...permissionsFor(VALUE_ACTIONS)]);
  // Fails closed: a permission backend that errs after the write withholds the values rather
  // than turning a write that happened into an error.
  const permitted = policy
    .on(permissionsFor(VALUE_ACTIONS))
    .catch((): ResourceDecision => () => false);
  return async secret =>
    mayReveal(secret, (await permitted)(resourceOf(secret)))
      ? live.toDto(secret)
      : { ...live.toSummary(secret), valuesOmitted: true };
}
