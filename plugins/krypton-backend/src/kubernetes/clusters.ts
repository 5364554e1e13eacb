import { InputError } from '@backstage/errors';
import { KubeConfig } from '@kubernetes/client-node';
import { existsSync } from 'node:fs';
import { ClusterConfig } from '../config';
import { KubeTransport } from './transport';

export interface Cluster {
  name: string;
  transport: KubeTransport;
}

/** Where a pod finds its projected ServiceAccount token. */
export const IN_CLUSTER_TOKEN_FILE =
  '/var/run/secrets/kubernetes.io/serviceaccount/token';

type User = NonNullable<ReturnType<KubeConfig['getCurrentUser']>>;

/**
 * Krypton's credentials for a configured cluster: its ServiceAccount token, or else the pod's own
 * ServiceAccount when Krypton runs inside a cluster. Without either, every request would be
 * anonymous, so that is a start-up error rather than a stream of 401s.
 */
function credentialsFor(cluster: ClusterConfig, tokenFile: string): User {
  if (cluster.serviceAccountToken) {
    return { name: 'krypton', token: cluster.serviceAccountToken };
  }
  if (existsSync(tokenFile)) {
    return {
      name: 'krypton',
      authProvider: { name: 'tokenFile', config: { tokenFile } },
    };
  }
  throw new InputError(
    `Krypton cluster ${cluster.name} has no serviceAccountToken, and Krypton does not run in a cluster with a ServiceAccount token at ${tokenFile}: it would send anonymous requests`,
  );
}

function kubeConfigFor(cluster: ClusterConfig, tokenFile: string): KubeConfig {
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
    users: [credentialsFor(cluster, tokenFile)],
    contexts: [{ name: cluster.name, cluster: cluster.name, user: 'krypton' }],
    currentContext: cluster.name,
  });
  return kc;
}

function hasCredentials(user: User | null): boolean {
  return Boolean(
    user &&
      (user.token ||
        user.username ||
        user.certFile ||
        user.certData ||
        user.exec ||
        user.authProvider),
  );
}

/**
 * One transport per configured cluster, in config order; the first is the default. Without any
 * configured cluster, Krypton uses the standard KUBECONFIG / in-cluster resolution of client-node.
 */
export function createClusters(
  configs: ClusterConfig[],
  options: {
    inClusterTokenFile?: string;
    /** Deadline of each Kubernetes request; the transport's default (30 s) otherwise. */
    deadlineMs?: number;
  } = {},
): Cluster[] {
  const tokenFile = options.inClusterTokenFile ?? IN_CLUSTER_TOKEN_FILE;
  // Spread over the transport's defaults, so an absent deadline must stay absent, not undefined.
  const transportOptions =
    options.deadlineMs === undefined ? {} : { deadlineMs: options.deadlineMs };
  if (configs.length === 0) {
    const kc = new KubeConfig();
    kc.loadFromDefault();
    if (!hasCredentials(kc.getCurrentUser())) {
      throw new InputError(
        'Krypton found no cluster in its config, and the default kubeconfig has no credentials: it would send anonymous requests',
      );
    }
    return [
      {
        name: kc.getCurrentCluster()?.name ?? 'default',
        transport: new KubeTransport(kc, transportOptions),
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
    return {
      name: c.name,
      transport: new KubeTransport(
        kubeConfigFor(c, tokenFile),
        transportOptions,
      ),
    };
  });
}
