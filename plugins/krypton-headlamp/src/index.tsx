/**
 * Krypton's Headlamp plugin. Headlamp runs this module when it loads the plugin archive. It
 * registers nothing on Headlamp's views yet (see README.md, "What works today"); it carries the
 * browser KubeGateway and the wiring of Krypton's engines on it.
 *
 * @packageDocumentation
 */
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
