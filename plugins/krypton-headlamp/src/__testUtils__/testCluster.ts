import {
  IdentityKey,
  eventually,
  kubeConfigFor,
  testClusterState,
} from '@krypton/kube-testenv';
import { KubeRestSend, NativeSecret, SECRETS, Workload } from '@krypton/core';
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

export type WorkloadKind = 'Deployment' | 'StatefulSet' | 'DaemonSet';
const PLURAL: Record<WorkloadKind, string> = {
  Deployment: 'deployments',
  StatefulSet: 'statefulsets',
  DaemonSet: 'daemonsets',
};

/**
 * The administrator's side of a test, in plain fetch through the stand-in: setup and checks of
 * what the cluster holds, never through the gateway under test.
 */
export class Admin {
  constructor(private readonly server: HeadlampServer) {}

  async request(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: unknown }> {
    const res = await fetch(`${this.server.url}/clusters/${CLUSTER}${path}`, {
      method,
      headers:
        body === undefined ? undefined : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  private async ok<T>(
    status: number,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<T> {
    const res = await this.request(method, path, body);
    if (res.status !== status)
      throw new Error(`${method} ${path} answered ${res.status}`);
    return res.body as T;
  }

  async secret(namespace: string, name: string): Promise<NativeSecret> {
    return this.ok(
      200,
      'GET',
      `/api/v1/namespaces/${namespace}/secrets/${name}`,
    );
  }

  /** The history snapshots of the namespace, as the cluster holds them. */
  async snapshots(namespace: string): Promise<NativeSecret[]> {
    const list = await this.ok<{ items: NativeSecret[] }>(
      200,
      'GET',
      `/api/v1/namespaces/${namespace}/secrets?labelSelector=krypton.io%2Fkind%3Dhistory`,
    );
    return list.items;
  }

  /** A Role and its RoleBinding for one user of the test cluster. */
  async grant(
    namespace: string,
    id: string,
    user: string,
    rules: Array<Record<string, string[]>>,
  ): Promise<void> {
    const rbac = `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}`;
    await this.ok(201, 'POST', `${rbac}/roles`, {
      metadata: { name: id },
      rules,
    });
    await this.ok(201, 'POST', `${rbac}/rolebindings`, {
      metadata: { name: id },
      roleRef: {
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'Role',
        name: id,
      },
      subjects: [
        { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: user },
      ],
    });
  }

  /** A workload as a plain API object (no controllers run on the test control plane). */
  async createWorkload(
    namespace: string,
    kind: WorkloadKind,
    name: string,
    podSpec: Record<string, unknown>,
  ): Promise<Workload> {
    const labels = { app: name };
    return this.ok(201, 'POST', this.workloadPath(namespace, kind), {
      metadata: { name, labels },
      spec: {
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            containers: [{ name: 'app', image: 'example.invalid/app:1' }],
            ...podSpec,
          },
        },
        ...(kind === 'StatefulSet' ? { serviceName: name } : {}),
      },
    });
  }

  async workload(
    namespace: string,
    kind: WorkloadKind,
    name: string,
  ): Promise<Workload> {
    return this.ok(200, 'GET', this.workloadPath(namespace, kind, name));
  }

  private workloadPath(namespace: string, kind: WorkloadKind, name?: string) {
    const base = `/apis/apps/v1/namespaces/${namespace}/${PLURAL[kind]}`;
    return name ? `${base}/${name}` : base;
  }
}
