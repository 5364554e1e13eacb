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
  KUBERNETES_NAMESPACE_ANNOTATION,
  entitySecretLinks,
  hasLinkedSecrets,
  kryptonLinkAnnotations,
  kryptonSecretsAnnotation,
  linkedSecrets,
} from './components/linkedSecrets';
export { useKryptonAnnotationPrefix } from './components/annotationPrefix';
export type {
  EntitySecretLinks,
  KryptonLinkAnnotations,
  SecretRef,
  SecretSelector,
} from './components/linkedSecrets';
