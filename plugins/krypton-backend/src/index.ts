/**
 * Krypton backend plugin: versioned Kubernetes Secrets for Backstage.
 *
 * @packageDocumentation
 */
export { kryptonPlugin as default } from './plugin';
export {
  kryptonSecretConditions,
  createKryptonSecretConditionalDecision,
} from './permissions/conditions';
export type {
  KryptonSecretFilter,
  KryptonSecretResource,
} from './permissions/resource';
