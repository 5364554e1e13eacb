import { ConfigApi, configApiRef, useApi } from '@backstage/core-plugin-api';
import { DEFAULT_ANNOTATION_PREFIX } from '@krypton/core';

/**
 * The prefix of Krypton's annotations, from the same krypton.annotationPrefix key the backend
 * reads, so that both sides agree on annotation names. Without a config API (an app that never
 * registers one) the default applies, as it does on the backend.
 */
export function readAnnotationPrefix(
  config: Pick<ConfigApi, 'getOptionalString'> | undefined,
): string {
  return (
    config?.getOptionalString('krypton.annotationPrefix') ??
    DEFAULT_ANNOTATION_PREFIX
  );
}

/**
 * The configured prefix of Krypton's annotations, for components.
 *
 * @public
 */
export function useKryptonAnnotationPrefix(): string {
  return readAnnotationPrefix(useApi(configApiRef));
}
