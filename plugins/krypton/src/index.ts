/**
 * Krypton frontend plugin: versioned Kubernetes Secrets for Backstage.
 *
 * @packageDocumentation
 */
export { kryptonPlugin, KryptonPage, EntityKryptonContent } from './plugin';
export { kryptonApiRef } from './api/KryptonApi';
export type {
  KryptonApi,
  KryptonHealth,
  NamespaceLocation,
  SecretLocation,
} from './api/KryptonApi';
export { KryptonClient } from './api/KryptonClient';
export {
  kryptonSecretsAnnotation,
  linkedSecrets,
} from './components/linkedSecrets';
export { useKryptonAnnotationPrefix } from './components/annotationPrefix';
export type { SecretRef } from './components/linkedSecrets';
