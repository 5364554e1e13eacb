import { parseSecretResourceRef } from '@krypton/plugin-krypton-common';
import { validateNamespace } from '@krypton/core';
import { Cluster } from '../kubernetes/clusters';
import { KryptonSecretResource } from './resource';

/**
 * Loads Secrets for the permission backend, which calls this when a policy answers a check with a
 * resource ref with conditions. The permission backend does not say who asks, so a Secret could
 * only be read with Krypton's own identity, for refs that any signed-in user may send by the
 * thousand to `POST /api/permission/authorize`: that would tell them which Secrets exist, and
 * what their labels and rules say, in namespaces where they have no RBAC. So a named Secret is
 * never read here and is answered as unknown, which the permission backend answers as a denial.
 * Krypton's own routes judge the conditions on the Secret they read as the caller, and the summary
 * route answers the policy for each action (`policy`), which is what the portal's buttons follow.
 *
 * A ref of `cluster/namespace/*` is a Secret not yet created, judged by where it would be; it
 * needs no read.
 */
export function createResourceLoader(deps: { clusters: Cluster[] }) {
  const clusters = new Set(deps.clusters.map(cluster => cluster.name));
  const load = (ref: string): KryptonSecretResource | undefined => {
    const parts = parseSecretResourceRef(ref);
    if (!parts || parts.name !== '*' || !clusters.has(parts.cluster))
      return undefined;
    try {
      validateNamespace(parts.namespace);
    } catch {
      return undefined;
    }
    return {
      cluster: parts.cluster,
      namespace: parts.namespace,
      name: '',
      labels: {},
      managed: true,
      access: { owners: [], editors: [], viewers: [] },
    };
  };
  return async (refs: string[]) => refs.map(load);
}
