import type { ClusterAdmin } from './clusterAdmin';
import { StoredWorkload, WorkloadKind, workloadPath } from './workloads';

/*
 * The test control plane runs no controllers and no kubelet, so tests stand in for both: they
 * create a workload's ReplicaSets and Pods as API objects, owned as the controllers would own
 * them, and write their status through the status subresource as a kubelet would.
 */

/** An object as the API server stores it, with what these helpers read back. */
export interface StoredObject {
  metadata: {
    name: string;
    uid: string;
    resourceVersion: string;
    labels?: Record<string, string>;
  };
}

const owner = (kind: string, object: StoredObject) => ({
  apiVersion: 'apps/v1',
  kind,
  name: object.metadata.name,
  uid: object.metadata.uid,
  controller: true,
  blockOwnerDeletion: true,
});

/**
 * A ReplicaSet of a Deployment, as the Deployment controller makes one: owned by it, selecting its
 * pods with the Deployment's labels and a pod-template-hash.
 */
export function createReplicaSet(
  admin: ClusterAdmin,
  namespace: string,
  deployment: StoredWorkload,
  hash: string,
  podSpec: Record<string, unknown>,
): Promise<StoredObject> {
  const labels = { app: deployment.metadata.name, 'pod-template-hash': hash };
  return admin.expect(201, {
    method: 'POST',
    path: `/apis/apps/v1/namespaces/${namespace}/replicasets`,
    body: {
      metadata: {
        name: `${deployment.metadata.name}-${hash}`,
        labels,
        ownerReferences: [owner('Deployment', deployment)],
      },
      spec: {
        selector: { matchLabels: labels },
        template: { metadata: { labels }, spec: podSpec },
      },
    },
  });
}

/** Namespaces whose `default` ServiceAccount this process has made. */
const withServiceAccount = new WeakMap<ClusterAdmin, Set<string>>();

/**
 * The ServiceAccount admission plugin refuses a pod whose ServiceAccount does not exist, and no
 * controller makes a namespace's `default` one here.
 */
async function ensureDefaultServiceAccount(
  admin: ClusterAdmin,
  namespace: string,
): Promise<void> {
  const done = withServiceAccount.get(admin) ?? new Set<string>();
  withServiceAccount.set(admin, done);
  if (done.has(namespace)) return;
  await admin.apply({
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: 'default', namespace },
  });
  done.add(namespace);
}

/**
 * A pod owned by `controller` (a ReplicaSet, StatefulSet or DaemonSet), with the owner's labels
 * (an `app` label, and a ReplicaSet's pod-template-hash).
 */
export async function createPod(
  admin: ClusterAdmin,
  namespace: string,
  name: string,
  controller: { kind: 'ReplicaSet' | WorkloadKind; object: StoredObject },
  podSpec: Record<string, unknown>,
  labels: Record<string, string> = {},
): Promise<StoredObject> {
  const ownerLabels = { ...(controller.object.metadata.labels ?? {}) };
  await ensureDefaultServiceAccount(admin, namespace);
  return admin.expect(201, {
    method: 'POST',
    path: `/api/v1/namespaces/${namespace}/pods`,
    body: {
      metadata: {
        name,
        labels: { ...ownerLabels, ...labels },
        ownerReferences: [owner(controller.kind, controller.object)],
      },
      spec: podSpec,
    },
  });
}

/** When a container started, as a kubelet reports it (to the second). */
export const startedAt = (date: Date) => `${date.toISOString().slice(0, 19)}Z`;

/** A running container's status, as a kubelet reports it. */
export function runningContainer(
  name: string,
  started: Date,
  extra: Record<string, unknown> = {},
) {
  return {
    name,
    image: 'example.invalid/app:1',
    imageID: '',
    ready: true,
    restartCount: 0,
    started: true,
    state: { running: { startedAt: startedAt(started) } },
    ...extra,
  };
}

/** Writes a pod's status through its status subresource, as the kubelet does. */
export async function setPodStatus(
  admin: ClusterAdmin,
  namespace: string,
  name: string,
  status: Record<string, unknown>,
): Promise<void> {
  await admin.expect(200, {
    method: 'PATCH',
    path: `/api/v1/namespaces/${namespace}/pods/${name}/status`,
    contentType: 'application/merge-patch+json',
    body: { status },
  });
}

/** A running, ready pod whose containers started at `started`. */
export function runningPod(containers: string[], started: Date) {
  return {
    phase: 'Running',
    conditions: [{ type: 'Ready', status: 'True' }],
    containerStatuses: containers.map(c => runningContainer(c, started)),
  };
}

/** Writes a workload's status through its status subresource, as its controller does. */
export async function setWorkloadStatus(
  admin: ClusterAdmin,
  namespace: string,
  kind: WorkloadKind,
  name: string,
  status: Record<string, unknown>,
): Promise<void> {
  await admin.expect(200, {
    method: 'PATCH',
    path: `${workloadPath(namespace, kind, name)}/status`,
    contentType: 'application/merge-patch+json',
    body: { status },
  });
}
