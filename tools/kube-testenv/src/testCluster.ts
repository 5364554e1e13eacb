import { KubeConfig } from '@kubernetes/client-node';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ControlPlaneState, TestIdentity } from './controlPlane';

/** Environment variable through which jest's global setup hands the cluster to test workers. */
export const STATE_ENV = 'KRYPTON_TESTENV_STATE';
/** Set this to a kubeconfig to run the tests against an existing cluster (kind, minikube, ...). */
export const EXTERNAL_KUBECONFIG_ENV = 'KRYPTON_TEST_KUBECONFIG';

export type IdentityKey = 'admin' | 'krypton' | 'alice' | 'bob' | 'carol';

/** The users and groups of the test cluster. Users other than admin and krypton have no rights. */
export const TEST_USERS: Record<
  Exclude<IdentityKey, 'admin' | 'krypton'>,
  { user: string; groups: string[] }
> = {
  alice: { user: 'alice', groups: ['team-a'] },
  bob: { user: 'bob', groups: ['team-b', 'team-c'] },
  carol: { user: 'carol', groups: [] },
};

/**
 * The state of an existing cluster named by KRYPTON_TEST_KUBECONFIG: its identity serves as both
 * admin and Krypton (it must be allowed to create namespaces, RBAC objects and to impersonate),
 * and the test users exist only as impersonated names.
 */
export function externalClusterState(kubeconfig: string): ControlPlaneState {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  const server = kc.getCurrentCluster()?.server ?? '';
  const identities: Record<string, TestIdentity> = {
    admin: { key: 'admin', user: '', groups: null, kubeconfig },
    krypton: { key: 'krypton', user: '', groups: null, kubeconfig },
  };
  for (const [key, u] of Object.entries(TEST_USERS)) {
    identities[key] = { key, user: u.user, groups: u.groups, kubeconfig: '' };
  }
  return {
    server,
    caFile: '',
    dir: '',
    etcdUrl: '',
    pid: 0,
    identities,
    startedInMs: 0,
  };
}

/** The cluster that jest's global setup started or connected to. */
export function testClusterState(): ControlPlaneState {
  const raw = process.env[STATE_ENV];
  if (!raw) {
    throw new Error(
      `${STATE_ENV} is not set: run the tests through a jest project whose globalSetup is @krypton/kube-testenv's jestGlobalSetup`,
    );
  }
  return JSON.parse(raw) as ControlPlaneState;
}

/** A KubeConfig that authenticates as the given identity of the test cluster. */
export function kubeConfigFor(key: 'admin' | 'krypton'): KubeConfig;
export function kubeConfigFor(key: IdentityKey): KubeConfig | undefined;
export function kubeConfigFor(key: IdentityKey): KubeConfig | undefined {
  const id = testClusterState().identities[key];
  if (!id?.kubeconfig) return undefined;
  const kc = new KubeConfig();
  kc.loadFromFile(id.kubeconfig);
  return kc;
}

/**
 * The run's control plane serving certificate and key (for localhost and 127.0.0.1, signed by the
 * cluster's CA): a webhook served on loopback with them is one the API server already trusts.
 * Only the control plane that the test run starts has them.
 */
export function loopbackServingCertificate(): { cert: Buffer; key: Buffer } {
  const { dir } = testClusterState();
  if (!dir) throw new Error('an existing cluster has no loopback certificate');
  return {
    cert: readFileSync(join(dir, 'pki', 'apiserver.crt')),
    key: readFileSync(join(dir, 'pki', 'apiserver.key')),
  };
}
