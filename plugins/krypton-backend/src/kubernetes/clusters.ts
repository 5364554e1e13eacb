import { InputError } from '@backstage/errors';
import { KubeConfig } from '@kubernetes/client-node';
import { ClusterConfig } from '../config';
import { KubeTransport } from './transport';

export interface Cluster {
  name: string;
  transport: KubeTransport;
}

function kubeConfigFor(cluster: ClusterConfig): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [
      {
        name: cluster.name,
        server: cluster.url,
        caData: cluster.caData,
        caFile: cluster.caFile,
        skipTLSVerify: cluster.skipTLSVerify,
      },
    ],
    users: [{ name: 'krypton', token: cluster.serviceAccountToken }],
    contexts: [{ name: cluster.name, cluster: cluster.name, user: 'krypton' }],
    currentContext: cluster.name,
  });
  return kc;
}

/**
 * One transport per configured cluster, in config order; the first is the default. Without any
 * configured cluster, Krypton uses the standard KUBECONFIG / in-cluster resolution of client-node.
 */
export function createClusters(configs: ClusterConfig[]): Cluster[] {
  if (configs.length === 0) {
    const kc = new KubeConfig();
    kc.loadFromDefault();
    return [
      {
        name: kc.getCurrentCluster()?.name ?? 'default',
        transport: new KubeTransport(kc),
      },
    ];
  }
  return configs.map(c => {
    // client-node refuses plain HTTP at request time; say so at start-up instead.
    if (new URL(c.url).protocol === 'http:' && !c.skipTLSVerify) {
      throw new InputError(
        `Krypton cluster ${c.name} uses http; set skipTLSVerify: true to allow that (local development only)`,
      );
    }
    return { name: c.name, transport: new KubeTransport(kubeConfigFor(c)) };
  });
}
