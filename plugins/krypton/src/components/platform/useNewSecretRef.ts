import { newSecretResourceRef } from '@krypton/plugin-krypton-common';
import { NamespaceLocation } from '../../api/KryptonApi';
import { useKryptonConfig } from '../access/useKryptonConfig';

/**
 * The permission resource ref of a Secret not yet created in this namespace, on the named cluster
 * or the default one; undefined until the config says which cluster is the default.
 */
export function useNewSecretRef(
  location: NamespaceLocation,
): string | undefined {
  const { config } = useKryptonConfig();
  const cluster = location.cluster ?? config?.defaultCluster;
  return cluster === undefined
    ? undefined
    : newSecretResourceRef(cluster, location.namespace);
}
