/**
 * Krypton's Headlamp plugin. Headlamp runs this module when it loads the plugin archive: it adds
 * Krypton's section to the Secret details view and hides Headlamp's raw Edit action on
 * Krypton-managed Secrets (see README.md, "What works today"). It also exports the browser
 * KubeGateway and the wiring of Krypton's engines on it.
 *
 * @packageDocumentation
 */
import { registerKrypton } from './register';

registerKrypton();

export { HeadlampKubeGateway } from './gateway/HeadlampKubeGateway';
export { apiProxyClusterRequest } from './gateway/apiProxy';
export { headlampSend, kubeErrorOfRejection } from './gateway/headlampSend';
export type { HeadlampSendOptions } from './gateway/headlampSend';
export type {
  ClusterRequest,
  ClusterRequestParams,
  KubeQuery,
} from './gateway/clusterRequest';
export {
  DEFAULT_HEADLAMP_SETTINGS,
  RBAC_ONLY_GATE,
  WEB_CRYPTO_MISSING,
  headlampKrypton,
  requireWebCrypto,
} from './engines';
export type { HeadlampKrypton, HeadlampKryptonSettings } from './engines';
