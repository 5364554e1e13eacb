import { Entity } from '@backstage/catalog-model';
import {
  DEFAULT_ANNOTATION_PREFIX,
  hasLinkedSecrets,
} from '@krypton/plugin-krypton-common';

/**
 * Whether to show Krypton's entity tab, as `isKubernetesAvailable` does for the Kubernetes
 * plugin: the entity links Secrets under the annotation prefix, `krypton.io` unless the app sets
 * another `krypton.annotationPrefix` (then pass the same prefix).
 *
 * @public
 */
export function isKryptonAvailable(
  entity: Entity,
  annotationPrefix: string = DEFAULT_ANNOTATION_PREFIX,
): boolean {
  return hasLinkedSecrets(entity, annotationPrefix);
}
