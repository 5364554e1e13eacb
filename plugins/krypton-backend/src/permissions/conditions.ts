import { createConditionExports } from '@backstage/plugin-permission-node';
import { kryptonSecretResourceRef } from './resource';
import { kryptonSecretRules } from './rules';

const exported = createConditionExports({
  resourceRef: kryptonSecretResourceRef,
  rules: kryptonSecretRules,
});

/**
 * Conditions on a Secret for a permission policy: `isCluster`, `isNamespace`, `hasLabel`,
 * `isManaged`, `hasAccessRole`.
 *
 * @public
 */
export const kryptonSecretConditions = exported.conditions;

/**
 * Wraps conditions into a policy's decision for one of Krypton's Secret permissions.
 *
 * @public
 */
export const createKryptonSecretConditionalDecision =
  exported.createConditionalDecision;
