import { kubeConfigFor } from '@krypton/kube-testenv';
import { KubeConfig } from '@kubernetes/client-node';
import { NativeSecret } from '@krypton/core';
import { KubeTransport } from '../kubernetes/transport';

/** Admin-side helpers for integration tests: native objects and RBAC grants. */
export class AdminClient {
  readonly transport: KubeTransport;

  /** The test run's cluster, or the control plane whose admin kubeconfig is given. */
  constructor(kubeconfig?: string) {
    const kc = kubeconfig ? new KubeConfig() : kubeConfigFor('admin');
    if (kubeconfig) kc.loadFromFile(kubeconfig);
    this.transport = new KubeTransport(kc);
  }

  async grantSecrets(
    namespace: string,
    subject: { kind: 'User' | 'Group'; name: string },
    verbs = ['get', 'list', 'create', 'update', 'patch', 'delete'],
  ): Promise<void> {
    const rbac = `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}`;
    const id = `${subject.kind}-${subject.name}`
      .toLowerCase()
      .replace(/[^a-z0-9-]/g, '-');
    const role = await this.transport.request({
      method: 'POST',
      path: `${rbac}/roles`,
      body: {
        metadata: { name: `secrets-${id}` },
        rules: [{ apiGroups: [''], resources: ['secrets'], verbs }],
      },
    });
    const binding = await this.transport.request({
      method: 'POST',
      path: `${rbac}/rolebindings`,
      body: {
        metadata: { name: `secrets-${id}` },
        roleRef: {
          apiGroup: 'rbac.authorization.k8s.io',
          kind: 'Role',
          name: `secrets-${id}`,
        },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', ...subject }],
      },
    });
    if (role.status !== 201 || binding.status !== 201) {
      throw new Error(`RBAC grant failed: ${role.status}/${binding.status}`);
    }
  }

  async createSecret(namespace: string, body: Record<string, unknown>) {
    const res = await this.transport.request({
      method: 'POST',
      path: `/api/v1/namespaces/${namespace}/secrets`,
      body,
    });
    if (res.status !== 201) throw new Error(`create failed: ${res.status}`);
    return res.body as { metadata: { resourceVersion: string; uid: string } };
  }

  getSecret(namespace: string, name: string) {
    return this.transport.request({
      method: 'GET',
      path: `/api/v1/namespaces/${namespace}/secrets/${name}`,
    });
  }

  /** The Secret as it is stored, failing the test when it is absent. */
  async secret(namespace: string, name: string): Promise<NativeSecret> {
    const res = await this.getSecret(namespace, name);
    if (res.status !== 200)
      throw new Error(`get ${name} failed: ${res.status}`);
    return res.body as NativeSecret;
  }

  async listSecrets(namespace: string, labelSelector?: string) {
    const res = await this.transport.request({
      method: 'GET',
      path: `/api/v1/namespaces/${namespace}/secrets`,
      query: { labelSelector },
    });
    if (res.status !== 200) throw new Error(`list failed: ${res.status}`);
    return (res.body as { items: NativeSecret[] }).items;
  }

  /** A merge patch of a Secret, as kubectl or another controller would make. */
  async patchSecret(namespace: string, name: string, patch: unknown) {
    const res = await this.transport.request({
      method: 'PATCH',
      path: `/api/v1/namespaces/${namespace}/secrets/${name}`,
      body: patch,
      contentType: 'application/merge-patch+json',
    });
    if (res.status !== 200)
      throw new Error(`patch ${name} failed: ${res.status}`);
    return res.body as NativeSecret;
  }

  /** The history snapshots of the namespace, as the cluster holds them. */
  snapshots(namespace: string) {
    return this.listSecrets(namespace, 'krypton.io/kind=history');
  }

  /** Grants a user or group the given verbs on some resources of a namespace. */
  async grant(
    namespace: string,
    id: string,
    subject: { kind: 'User' | 'Group'; name: string },
    rules: Array<Record<string, string[]>>,
  ): Promise<void> {
    const rbac = `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}`;
    const role = await this.transport.request({
      method: 'POST',
      path: `${rbac}/roles`,
      body: { metadata: { name: id }, rules },
    });
    const binding = await this.transport.request({
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

  /** Grants what the consumers view and restart-consumers need on a namespace's workloads. */
  grantWorkloads(
    namespace: string,
    subject: { kind: 'User' | 'Group'; name: string },
    verbs = ['get', 'list', 'patch'],
  ): Promise<void> {
    const id = `workloads-${subject.kind}-${subject.name}`
      .toLowerCase()
      .replace(/[^a-z0-9-]/g, '-');
    return this.grant(namespace, id, subject, [
      {
        apiGroups: ['apps'],
        resources: ['deployments', 'statefulsets', 'daemonsets'],
        verbs,
      },
    ]);
  }

  close() {
    this.transport.close();
  }
}

// The suites take every RBAC helper from this module, waiting for a grant included.
export { eventually } from '@krypton/kube-testenv';
