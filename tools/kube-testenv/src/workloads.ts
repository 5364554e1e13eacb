import type { ClusterAdmin } from './clusterAdmin';

export type WorkloadKind = 'Deployment' | 'StatefulSet' | 'DaemonSet';

const PLURAL: Record<WorkloadKind, string> = {
  Deployment: 'deployments',
  StatefulSet: 'statefulsets',
  DaemonSet: 'daemonsets',
};

/** A workload as the API server stores it, with the fields the tests read. */
export interface StoredWorkload {
  metadata: { name: string; resourceVersion: string; uid: string };
  spec: {
    template: {
      metadata?: { annotations?: Record<string, string> };
      spec: Record<string, unknown>;
    };
  };
}

/** A container that reads nothing; tests add references to it. */
export const container = (extra: Record<string, unknown> = {}) => ({
  name: 'app',
  image: 'example.invalid/app:1',
  ...extra,
});

/** The path of a kind's collection or object in a namespace. */
export function workloadPath(
  namespace: string,
  kind: WorkloadKind,
  name?: string,
): string {
  const base = `/apis/apps/v1/namespaces/${namespace}/${PLURAL[kind]}`;
  return name ? `${base}/${name}` : base;
}

/**
 * Creates a Deployment, StatefulSet or DaemonSet as a plain API object (no controllers run on the
 * test control plane), with the given pod spec and extra top-level spec fields.
 */
export function createWorkload(
  admin: ClusterAdmin,
  namespace: string,
  kind: WorkloadKind,
  name: string,
  podSpec: Record<string, unknown>,
  options: {
    spec?: Record<string, unknown>;
    annotations?: Record<string, string>;
    labels?: Record<string, string>;
    templateMetadata?: Record<string, unknown> | null;
  } = {},
): Promise<StoredWorkload> {
  const labels = { app: name };
  // The API server refuses a template without labels matching the selector, so null keeps them
  // and drops everything else.
  const templateMetadata =
    options.templateMetadata === null
      ? { labels }
      : { labels, ...(options.templateMetadata ?? {}) };
  return admin.expect(201, {
    method: 'POST',
    path: workloadPath(namespace, kind),
    body: {
      metadata: {
        name,
        labels: { ...labels, ...options.labels },
        annotations: options.annotations,
      },
      spec: {
        selector: { matchLabels: labels },
        template: {
          metadata: templateMetadata,
          spec: { containers: [container()], ...podSpec },
        },
        ...(kind === 'StatefulSet' ? { serviceName: name } : {}),
        ...options.spec,
      },
    },
  });
}

/** A workload as stored. */
export function readWorkload(
  admin: ClusterAdmin,
  namespace: string,
  kind: WorkloadKind,
  name: string,
): Promise<StoredWorkload> {
  return admin.expect(200, {
    method: 'GET',
    path: workloadPath(namespace, kind, name),
  });
}
