import { headlampActor } from './actor';
import { headlampKrypton, HeadlampKrypton } from './engines';
import { apiProxyClusterRequest } from './gateway/apiProxy';
import { HeadlampKubeGateway } from './gateway/HeadlampKubeGateway';
import { headlampSend } from './gateway/headlampSend';

/**
 * Krypton's engines for one of Headlamp's clusters, on Headlamp's API proxy with the user's own
 * credentials. Throws Krypton's `unavailable` error without Web Crypto (WEB_CRYPTO_MISSING).
 */
export function connectHeadlamp(cluster: string): HeadlampKrypton {
  const proxy = { cluster, request: apiProxyClusterRequest };
  return headlampKrypton({
    gateway: new HeadlampKubeGateway(proxy),
    cluster,
    actor: headlampActor(headlampSend(proxy)),
  });
}
