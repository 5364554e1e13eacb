import { headlampKrypton, HeadlampKrypton } from './engines';
import { apiProxyClusterRequest } from './gateway/apiProxy';
import { HeadlampKubeGateway } from './gateway/HeadlampKubeGateway';

/**
 * What snapshot-by records for versions saved from Headlamp. The browser does not know the
 * user's Kubernetes name without asking the API server; the API server's audit log has it.
 */
export const HEADLAMP_ACTOR = 'headlamp';

/**
 * Krypton's engines for one of Headlamp's clusters, on Headlamp's API proxy with the user's own
 * credentials. Throws Krypton's `unavailable` error without Web Crypto (WEB_CRYPTO_MISSING).
 */
export function connectHeadlamp(cluster: string): HeadlampKrypton {
  return headlampKrypton({
    gateway: new HeadlampKubeGateway({
      cluster,
      request: apiProxyClusterRequest,
    }),
    cluster,
    actor: HEADLAMP_ACTOR,
  });
}
