/**
 * Krypton frontend plugin: versioned Kubernetes Secrets for Backstage.
 *
 * @packageDocumentation
 */
export {
  kryptonPlugin,
  KryptonPage,
  EntityKryptonContent,
  EntityKryptonOverviewCard,
} from './plugin';
export { kryptonApiRef } from './api/KryptonApi';
export type {
  ChangeReasonField,
  ChangeRequestDecision,
  DeleteSecretRequest,
  KryptonApi,
  KryptonHealth,
  NamespaceLocation,
  SecretLocation,
} from './api/KryptonApi';
export { ChangeRequestedError, KryptonClient } from './api/KryptonClient';
// The entity-link rules live in common, which the backend reads too; re-exported here for the
// apps and plugins that import them from the frontend plugin.
export {
  KUBERNETES_NAMESPACE_ANNOTATION,
  entitySecretLinks,
  hasLinkedSecrets,
  kryptonLinkAnnotations,
  kryptonSecretsAnnotation,
  linkedSecrets,
} from '@krypton/plugin-krypton-common';
export { useKryptonAnnotationPrefix } from './components/annotationPrefix';
export { isKryptonAvailable } from './isKryptonAvailable';
export type {
  EntitySecretLinks,
  KryptonLinkAnnotations,
  SecretRef,
  SecretSelector,
} from '@krypton/plugin-krypton-common';
