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
 * Who asks, on which cluster, and the gateways of both identities: the user's (impersonated, or
 * Krypton's own in serviceAccount mode) and Krypton's.
 */
export function createCallerIdentifier(deps: {
  config: KryptonBackendConfig;
  clusters: Cluster[];
  userInfo: UserInfoService;
  logger: LoggerService;
}) {
  const { config, clusters, userInfo, logger } = deps;
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
    // Headers that the client sent never reach Kubernetes: the impersonation comes only from the
    // Backstage identity.
    const krypton = new HttpKubeGateway(cluster.transport, logger);
    const gateways: RequestGateways = {
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
    const actor =
      tryNormalizeEntityRef(principal.userEntityRef) ?? principal.userEntityRef;
    return { request, cluster, credentials, principal, actor, gateways };
  };
}
