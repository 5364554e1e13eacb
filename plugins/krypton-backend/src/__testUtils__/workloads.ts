import { AdminClient } from './rbac';

export type Kind = 'Deployment' | 'StatefulSet' | 'DaemonSet';

const PLURAL: Record<Kind, string> = {
  Deployment: 'deployments',
  StatefulSet: 'statefulsets',
  DaemonSet: 'daemonsets',
};

type PodSpec = Record<string, unknown>;

/** A container that reads nothing; tests add references to it. */
export const container = (extra: Record<string, unknown> = {}) => ({
  name: 'app',
  image: 'example.invalid/app:1',
  ...extra,
});

/** The path of a kind's collection or object in a namespace. */
export function workloadPath(namespace: string, kind: Kind, name?: string) {
  const base = `/apis/apps/v1/namespaces/${namespace}/${PLURAL[kind]}`;
  return name ? `${base}/${name}` : base;
}

/**
 * Creates a Deployment, StatefulSet or DaemonSet as a plain API object (no controllers run on the
 * test control plane), with the given pod spec and extra top-level spec fields.
 */
export async function createWorkload(
  admin: AdminClient,
  namespace: string,
  kind: Kind,
  name: string,
  podSpec: PodSpec,
  options: {
    spec?: Record<string, unknown>;
    annotations?: Record<string, string>;
    labels?: Record<string, string>;
    templateMetadata?: Record<string, unknown> | null;
  } = {},
): Promise<{ metadata: { resourceVersion: string; uid: string } }> {
  const labels = { app: name };
  const template: Record<string, unknown> = {
    spec: { containers: [container()], ...podSpec },
  };
  // null leaves the template without metadata at all; the selector still needs labels on a real
  // controller, but the API server accepts it for plain objects only with labels, so keep them.
  template.metadata =
    options.templateMetadata === null
      ? { labels }
      : { labels, ...(options.templateMetadata ?? {}) };
  const spec: Record<string, unknown> = {
    selector: { matchLabels: labels },
    template,
    ...(kind === 'StatefulSet' ? { serviceName: name } : {}),
    ...options.spec,
  };
  const res = await admin.transport.request({
    method: 'POST',
    path: workloadPath(namespace, kind),
    body: {
      metadata: {
        name,
        labels: { ...labels, ...options.labels },
        annotations: options.annotations,
      },
      spec,
    },
  });
  if (res.status !== 201) {
    throw new Error(`create ${kind} ${name} failed: ${res.status}`);
  }
  return res.body as { metadata: { resourceVersion: string; uid: string } };
}

/** A workload as stored. */
export async function readWorkload(
  admin: AdminClient,
  namespace: string,
  kind: Kind,
  name: string,
) {
  const res = await admin.transport.request({
    method: 'GET',
    path: workloadPath(namespace, kind, name),
  });
  if (res.status !== 200) throw new Error(`get ${kind} ${name}: ${res.status}`);
  return res.body as {
    metadata: { resourceVersion: string; uid: string };
    spec: {
      template: { metadata?: { annotations?: Record<string, string> } };
    };
  };
}
