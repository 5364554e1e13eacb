import { Entity } from '@backstage/catalog-model';
import { hasLinkedSecrets } from '@krypton/plugin-krypton-common';
import { DEFAULT_ANNOTATION_PREFIX } from '@krypton/core';

/**
 * Whether to show Krypton's entity tab or card, as `isKubernetesAvailable` does for the
 * Kubernetes plugin: the entity links Secrets under the default `krypton.io` annotation prefix.
 * It takes the entity only, so it fits both `EntityLayout.Route`'s and `EntitySwitch.Case`'s
 * `if` (which passes a second, context argument that must not be read as a prefix). An app that
 * sets another `krypton.annotationPrefix` uses `entity => hasLinkedSecrets(entity, prefix)`.
 *
 * @public
 */
export function isKryptonAvailable(entity: Entity): boolean {
  return hasLinkedSecrets(entity, DEFAULT_ANNOTATION_PREFIX);
}
