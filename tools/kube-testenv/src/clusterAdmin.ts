import { KubeConfig } from '@kubernetes/client-node';
import type { NativeSecret } from '@krypton/core';
import https from 'node:https';
import { eventually } from './eventually';
import { kubeConfigFor } from './testCluster';

/** One request of the admin to the API server. */
export interface AdminRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Absolute API path with its segments encoded, e.g. /api/v1/namespaces/ns/secrets/name. */
  path: string;
  query?: Record<string, string | undefined>;
  body?: unknown;
  /** Defaults to application/json; PATCH callers choose the patch type. */
  contentType?: string;
  accept?: string;
}

/** The answer's status and its parsed JSON body (undefined when empty or not JSON). */
export interface AdminResponse {
  status: number;
  body: unknown;
  /** Bytes received, for tests that measure what a list weighs. */
  bytes: number;
}

/** A Secret as the API server returns it: with the metadata that every stored object has. */
export type StoredSecret = NativeSecret & {
  metadata: {
    name: string;
    namespace: string;
    uid: string;
    resourceVersion: string;
  };
};

/** Who an RBAC grant is for. */
export interface Subject {
  kind: 'User' | 'Group';
  name: string;
}

/** A namespaced object of the core API group that tests apply. */
export interface CoreObject {
  apiVersion: 'v1';
  kind: 'Secret' | 'ServiceAccount';
  metadata: {
    name: string;
    namespace: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  [field: string]: unknown;
}

const CORE_PLURAL: Record<CoreObject['kind'], string> = {
  Secret: 'secrets',
  ServiceAccount: 'serviceaccounts',
};

const SECRET_VERBS = ['get', 'list', 'create', 'update', 'patch', 'delete'];

/**
 * The cluster's administrator in tests, benches and the browser suite: setup and checks of what
 * the cluster holds, through a connection of its own and never through the code under test.
 */
export class ClusterAdmin {
  private readonly kc: KubeConfig;
  private readonly agent = new https.Agent({ keepAlive: true });
  private options?: Promise<https.RequestOptions>;

  /** The test run's cluster, or the control plane whose admin kubeconfig is given. */
  constructor(kubeconfig?: string) {
    if (kubeconfig) {
      this.kc = new KubeConfig();
      this.kc.loadFromFile(kubeconfig);
    } else {
      this.kc = kubeConfigFor('admin');
    }
  }

  /** The API server's URL. */
  get server(): string {
    const server = this.kc.getCurrentCluster()?.server;
    if (!server) throw new Error('the admin kubeconfig names no server');
    return server;
  }

  async request(req: AdminRequest): Promise<AdminResponse> {
    const url = new URL(this.server + req.path);
    for (const [k, v] of Object.entries(req.query ?? {})) {
      if (v !== undefined) url.searchParams.set(k, v);
    }
    // With its length: Node would send a DELETE's body unframed (see the recorder's kubeSend).
    const payload =
      req.body === undefined
        ? undefined
        : Buffer.from(JSON.stringify(req.body), 'utf8');
    const base = await this.connectionOptions();
    return new Promise<AdminResponse>((resolve, reject) => {
      const r = https.request(
        url,
        {
          ...base,
          agent: this.agent,
          method: req.method,
          headers: {
            ...base.headers,
            Accept: req.accept ?? 'application/json',
            ...(payload === undefined
              ? {}
              : {
                  'Content-Type': req.contentType ?? 'application/json',
                  'Content-Length': String(payload.length),
                }),
          },
        },
        res => {
          const chunks: Buffer[] = [];
          res.on('data', c => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const raw = Buffer.concat(chunks);
            const text = raw.toString('utf8');
            let body: unknown;
            try {
              body = text ? JSON.parse(text) : undefined;
            } catch {
              body = undefined;
            }
            resolve({ status: res.statusCode ?? 0, body, bytes: raw.length });
          });
        },
      );
      r.on('error', reject);
      r.end(payload);
    });
  }

  /** The body of a request that must answer `status`; fails the test otherwise. */
  async expect<T>(status: number, req: AdminRequest): Promise<T> {
    const res = await this.request(req);
    if (res.status !== status) {
      throw new Error(
        `${req.method} ${req.path} answered ${res.status}, not ${status}`,
      );
    }
    return res.body as T;
  }

  async createNamespace(name: string): Promise<void> {
    await this.expect(201, {
      method: 'POST',
      path: '/api/v1/namespaces',
      body: { metadata: { name } },
    });
  }

  async deleteNamespace(name: string): Promise<void> {
    await this.request({
      method: 'DELETE',
      path: `/api/v1/namespaces/${name}`,
    });
  }

  /** A Role with the given rules and its RoleBinding to one subject, both named `id`. */
  async grant(
    namespace: string,
    id: string,
    subject: Subject,
    rules: Array<Record<string, string[]>>,
  ): Promise<void> {
    const rbac = `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}`;
    const role = await this.request({
      method: 'POST',
      path: `${rbac}/roles`,
      body: { metadata: { name: id }, rules },
    });
    const binding = await this.request({
      method: 'POST',
      path: `${rbac}/rolebindings`,
      body: {
        metadata: { name: id },
        roleRef: {
          apiGroup: 'rbac.authorization.k8s.io',
          kind: 'Role',
          name: id,
        },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', ...subject }],
      },
    });
    if (role.status !== 201 || binding.status !== 201) {
      throw new Error(`RBAC grant failed: ${role.status}/${binding.status}`);
    }
  }

  /**
   * A ClusterRole with the given rules and its ClusterRoleBinding to one subject, both named `id`;
   * revokeClusterWide removes them. For rights no namespace holds, such as listing namespaces.
   */
  async grantClusterWide(
    id: string,
    subject: Subject,
    rules: Array<Record<string, string[]>>,
  ): Promise<void> {
    const rbac = '/apis/rbac.authorization.k8s.io/v1';
    const role = await this.request({
      method: 'POST',
      path: `${rbac}/clusterroles`,
      body: { metadata: { name: id }, rules },
    });
    const binding = await this.request({
      method: 'POST',
      path: `${rbac}/clusterrolebindings`,
      body: {
        metadata: { name: id },
        roleRef: {
          apiGroup: 'rbac.authorization.k8s.io',
          kind: 'ClusterRole',
          name: id,
        },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', ...subject }],
      },
    });
    if (role.status !== 201 || binding.status !== 201) {
      throw new Error(`RBAC grant failed: ${role.status}/${binding.status}`);
    }
  }

  async revokeClusterWide(id: string): Promise<void> {
    const rbac = '/apis/rbac.authorization.k8s.io/v1';
    for (const kind of ['clusterrolebindings', 'clusterroles']) {
      await this.request({ method: 'DELETE', path: `${rbac}/${kind}/${id}` });
    }
  }

  /**
   * Waits until the authorizer allows this user (with these groups) the request that the
   * attributes describe, as a SubjectAccessReview answers: a RoleBinding reaches the authorizer
   * a moment after it is written. Throws when it never does.
   */
  async untilAllowed(
    user: { user: string; groups?: string[] },
    resourceAttributes: Record<string, string>,
  ): Promise<void> {
    const allowed = (res: AdminResponse) =>
      (res.body as { status?: { allowed?: boolean } } | undefined)?.status
        ?.allowed === true;
    const answer = await eventually(
      () =>
        this.request({
          method: 'POST',
          path: '/apis/authorization.k8s.io/v1/subjectaccessreviews',
          body: {
            apiVersion: 'authorization.k8s.io/v1',
            kind: 'SubjectAccessReview',
            spec: { ...user, resourceAttributes },
          },
        }),
      allowed,
    );
    if (!allowed(answer)) {
      throw new Error(`the authorizer never allowed ${user.user} this request`);
    }
  }

  /** Rights on a namespace's Secrets, every verb the engines use unless narrowed. */
  grantSecrets(
    namespace: string,
    subject: Subject,
    verbs = SECRET_VERBS,
  ): Promise<void> {
    return this.grant(namespace, grantId('secrets', subject), subject, [
      { apiGroups: [''], resources: ['secrets'], verbs },
    ]);
  }

  /** What the consumers view and restart-consumers need on a namespace's workloads. */
  grantWorkloads(
    namespace: string,
    subject: Subject,
    verbs = ['get', 'list', 'patch'],
  ): Promise<void> {
    return this.grant(namespace, grantId('workloads', subject), subject, [
      {
        apiGroups: ['apps'],
        resources: ['deployments', 'statefulsets', 'daemonsets'],
        verbs,
      },
    ]);
  }

  /** What the consumers view reads of a workload's pods: its ReplicaSets and Pods. */
  grantPods(namespace: string, subject: Subject): Promise<void> {
    return this.grant(namespace, grantId('pods', subject), subject, [
      { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] },
      {
        apiGroups: ['apps'],
        resources: ['replicasets'],
        verbs: ['get', 'list'],
      },
    ]);
  }

  createSecret(
    namespace: string,
    body: Record<string, unknown>,
  ): Promise<StoredSecret> {
    return this.expect(201, {
      method: 'POST',
      path: `/api/v1/namespaces/${namespace}/secrets`,
      body,
    });
  }

  getSecret(namespace: string, name: string): Promise<AdminResponse> {
    return this.request({
      method: 'GET',
      path: `/api/v1/namespaces/${namespace}/secrets/${name}`,
    });
  }

  /** The Secret as it is stored, failing the test when it is absent. */
  secret(namespace: string, name: string): Promise<StoredSecret> {
    return this.expect(200, {
      method: 'GET',
      path: `/api/v1/namespaces/${namespace}/secrets/${name}`,
    });
  }

  async listSecrets(
    namespace: string,
    labelSelector?: string,
  ): Promise<StoredSecret[]> {
    const list = await this.expect<{ items: StoredSecret[] }>(200, {
      method: 'GET',
      path: `/api/v1/namespaces/${namespace}/secrets`,
      query: { labelSelector },
    });
    return list.items;
  }

  /** A merge patch of a Secret, as kubectl or another controller would make. */
  patchSecret(
    namespace: string,
    name: string,
    patch: unknown,
  ): Promise<StoredSecret> {
    return this.expect(200, {
      method: 'PATCH',
      path: `/api/v1/namespaces/${namespace}/secrets/${name}`,
      body: patch,
      contentType: 'application/merge-patch+json',
    });
  }

  /** The history snapshots of the namespace, as the cluster holds them. */
  snapshots(namespace: string): Promise<StoredSecret[]> {
    return this.listSecrets(namespace, 'krypton.io/kind=history');
  }

  /**
   * Creates or updates a namespaced core object by server-side apply, as `kubectl apply
   * --server-side` would: the test's own field manager, forcing conflicts.
   */
  async apply(manifest: CoreObject): Promise<void> {
    const { kind, metadata } = manifest;
    const res = await this.request({
      method: 'PATCH',
      path: `/api/v1/namespaces/${metadata.namespace}/${CORE_PLURAL[kind]}/${metadata.name}`,
      query: { fieldManager: 'krypton-tests', force: 'true' },
      body: manifest,
      contentType: 'application/apply-patch+yaml',
    });
    if (res.status !== 200 && res.status !== 201) {
      throw new Error(`apply ${kind} ${metadata.name} answered ${res.status}`);
    }
  }

  close(): void {
    this.agent.destroy();
  }

  private connectionOptions(): Promise<https.RequestOptions> {
    this.options ??= (async () => {
      const opts: https.RequestOptions = {};
      await this.kc.applyToHTTPSOptions(opts);
      return opts;
    })();
    return this.options;
  }
}

function grantId(what: string, subject: Subject): string {
  return `${what}-${subject.kind}-${subject.name}`
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-');
}
