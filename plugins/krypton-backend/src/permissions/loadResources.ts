import { LoggerService } from '@backstage/backend-plugin-api';
import {
  parseSecretResourceRef,
  validateNamespace,
} from '@krypton/plugin-krypton-common';
import { LiveSecrets } from '@krypton/plugin-krypton-common/engine';
import { KryptonBackendConfig } from '../config';
import { Cluster } from '../kubernetes/clusters';
import { HttpKubeGateway } from '../kubernetes/kubeGateway';
import { admitSecretName } from '../services/callers';
import { KryptonSecretResource, secretResource } from './resource';

/**
 * Loads Secrets for the permission backend, which calls this when a policy answers a check with a
 * resource ref (the portal's buttons) with conditions. Only the metadata is read, with Krypton's
 * identity: the answer is a yes or no of the policy's own conditions, and every operation is
 * gated again on the live object. A ref of `cluster/namespace/*` is a Secret not yet created,
 * judged by where it would be. Anything unknown, malformed or unreadable is undefined, which the
 * permission backend answers as a denial.
 */
export function createResourceLoader(deps: {
  config: KryptonBackendConfig;
  clusters: Cluster[];
  logger: LoggerService;
}) {
  const { config, logger } = deps;
  // Krypton's own reader of each cluster, made once: nothing in it depends on the caller.
  const readers = new Map(
    deps.clusters.map(cluster => [
      cluster.name,
      new LiveSecrets({
        gateway: new HttpKubeGateway(cluster.transport, logger),
        cluster: cluster.name,
        annotationPrefix: config.annotationPrefix,
        managedOnly: config.managedOnly,
        historyLimit: config.historyLimit,
        proveWrites: false,
      }),
    ]),
  );
  const load = async (
    ref: string,
  ): Promise<KryptonSecretResource | undefined> => {
    const parts = parseSecretResourceRef(ref);
    const live = parts && readers.get(parts.cluster);
    if (!parts || !live) return undefined;
    try {
      validateNamespace(parts.namespace);
      if (parts.name === '*') {
        return {
          cluster: live.cluster,
          namespace: parts.namespace,
          name: '',
          labels: {},
          managed: true,
          access: { owners: [], editors: [], viewers: [] },
        };
      }
      admitSecretName(parts.name);
      return secretResource(
        live,
        await live.loadMetadata(parts.namespace, parts.name),
      );
    } catch {
      return undefined;
    }
  };
  return (refs: string[]) => Promise.all(refs.map(load));
}
