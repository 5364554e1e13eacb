import {
  IdentityKey,
  eventually,
  kubeConfigFor,
  testClusterState,
} from '@krypton/kube-testenv';
import { KubeRestSend, SECRETS } from '@krypton/core';
import { HeadlampKubeGateway } from '../gateway/HeadlampKubeGateway';
import { headlampSend } from '../gateway/headlampSend';
import { clusterRequestOn } from './clusterRequest';
import { HeadlampServer, startHeadlampServer } from './headlampServer';

/** Headlamp's name of the test cluster. */
export const CLUSTER = 'test';

/** Headlamp as one identity of the test cluster uses it. */
export interface HeadlampSession {
  server: HeadlampServer;
  gateway: HeadlampKubeGateway;
  /** The gateway's transport, for requests the gateway does not make (a SelfSubjectReview). */
  send: KubeRestSend;
}

/**
 * The stand-in for Headlamp's server holding this identity's token, and the browser gateway on
 * it through the clusterRequest stand-in. Only the control plane that the test run starts has a
 * token per identity.
 */
export async function headlampAs(key: IdentityKey): Promise<HeadlampSession> {
  const state = testClusterState();
  const token = kubeConfigFor(key)?.getCurrentUser()?.token;
  if (!token) throw new Error(`${key} has no token on this cluster`);
  const server = await startHeadlampServer({
    apiServer: state.server,
    caFile: state.caFile,
    cluster: CLUSTER,
    token,
  });
  const proxy = { cluster: CLUSTER, request: clusterRequestOn(server.url) };
  return {
    server,
    gateway: new HeadlampKubeGateway(proxy),
    send: headlampSend(proxy),
  };
}

/**
 * Waits until the session's user may list Secrets in the namespace: the API server authorizes a
 * new RoleBinding a moment after it is written.
 */
export async function untilSecretsListable(
  session: HeadlampSession,
  namespace: string,
): Promise<void> {
  const allowed = await eventually(
    () =>
      session.gateway
        .listMetadata(SECRETS, namespace, { limit: 1, maxBytes: 65536 })
        .then(
          () => true,
          () => false,
        ),
    ok => ok,
  );
  if (!allowed) throw new Error('the RBAC grant did not take effect');
}
