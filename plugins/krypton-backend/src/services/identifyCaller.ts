import { LoggerService, UserInfoService } from '@backstage/backend-plugin-api';
import {
  KryptonError,
  Principal,
  RequestGateways,
  tryNormalizeEntityRef,
} from '@krypton/core';
import { KryptonBackendConfig } from '../config';
import { timed } from '../diagnostics/serverTiming';
import { impersonationFor } from '../identity';
import { Cluster } from '../kubernetes/clusters';
import { HttpKubeGateway } from '../kubernetes/kubeGateway';
import { CallerInput, ClusterRequestContext } from './requestContext';

/**
 * The gateways of one person on a cluster: theirs (impersonated, or Krypton's own in
 * serviceAccount mode) and Krypton's. Headers that a client sent never reach Kubernetes: the
 * impersonation comes only from the Backstage identity.
 */
export function gatewaysFor(
  deps: { config: KryptonBackendConfig; logger: LoggerService },
  cluster: Cluster,
  principal: Principal,
): RequestGateways {
  const { config, logger } = deps;
  const krypton = new HttpKubeGateway(cluster.transport, logger);
  return {
    krypton,
    user:
      config.identity === 'serviceAccount'
        ? krypton
        : new HttpKubeGateway(
            cluster.transport,
            logger,
            impersonationFor(principal, config),
          ),
  };
}

/**
 * Who asks, on which cluster, and the gateways of both identities: the user's (impersonated, or
 * Krypton's own in serviceAccount mode) and Krypton's.
 */
export function createCallerIdentifier(deps: {
  config: KryptonBackendConfig;
  clusters: Cluster[];
  userInfo: UserInfoService;
  logger: LoggerService;
}) {
  const { clusters, userInfo } = deps;
  const clusterByName = new Map(clusters.map(c => [c.name, c]));
  return async function identify(
    input: CallerInput,
  ): Promise<ClusterRequestContext> {
    const { credentials, request } = input;
    const cluster = clusterByName.get(input.cluster ?? clusters[0].name);
    if (!cluster) throw new KryptonError('not_found', 'Unknown cluster.');
    const info = await timed('user', () => userInfo.getUserInfo(credentials));
    const principal: Principal = {
      userEntityRef: info.userEntityRef,
      ownershipEntityRefs: info.ownershipEntityRefs,
    };
    const gateways = gatewaysFor(deps, cluster, principal);
    const actor =
      tryNormalizeEntityRef(principal.userEntityRef) ?? principal.userEntityRef;
    return { request, cluster, credentials, principal, actor, gateways };
  };
}
