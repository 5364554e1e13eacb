import {
  MANAGED_BY_VALUE,
  NativeSecret,
  isManagedSecret,
  kryptonKeys,
} from '@krypton/core';

/**
 * What the plugin reads of the object on Headlamp's details view: Headlamp's KubeObject has these
 * members, and tests pass plain objects.
 */
export interface HeadlampResource {
  kind: string;
  cluster: string;
  jsonData: unknown;
}

/** The Secret a details view shows, as the engines take it. */
export interface ShownSecret {
  cluster: string;
  namespace: string;
  name: string;
  /** The object as Headlamp read it, with the user's credentials: the live side of every diff. */
  native: NativeSecret;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringMap(value: unknown): value is Record<string, string> {
  return (
    value === undefined ||
    (isRecord(value) && Object.values(value).every(v => typeof v === 'string'))
  );
}

/**
 * The Secret on the view, or undefined for any other object. Headlamp hands over what the API
 * server answered; the shape the engines rely on is checked once here, in one pass.
 */
export function shownSecret(
  resource: HeadlampResource | null | undefined,
): ShownSecret | undefined {
  if (!resource || resource.kind !== 'Secret') return undefined;
  const json = resource.jsonData;
  if (!isRecord(json) || !isRecord(json.metadata)) return undefined;
  const { name, namespace, labels, annotations } = json.metadata;
  if (typeof name !== 'string' || name === '') return undefined;
  if (typeof namespace !== 'string' || namespace === '') return undefined;
  if (
    !isStringMap(labels) ||
    !isStringMap(annotations) ||
    !isStringMap(json.data)
  )
    return undefined;
  return {
    cluster: resource.cluster,
    namespace,
    name,
    native: json as unknown as NativeSecret,
  };
}

/** The label that marks a Secret as Krypton's, as `name=value`. */
export function managedLabel(annotationPrefix: string): string {
  return `${kryptonKeys(annotationPrefix).managedBy}=${MANAGED_BY_VALUE}`;
}

/** Whether Krypton manages the Secret, by the core's rule under the engines' prefix. */
export function isManaged(
  secret: ShownSecret,
  annotationPrefix: string,
): boolean {
  return isManagedSecret(
    secret.native.metadata.labels,
    kryptonKeys(annotationPrefix),
  );
}
