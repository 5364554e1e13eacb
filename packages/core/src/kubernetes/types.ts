/**
 * A reference from an object to the object that owns it (a controller, for example).
 *
 * @public
 */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/**
 * The fields of a Kubernetes object's metadata that Krypton reads or must preserve. Objects read
 * from the API server may carry more; a replacement spreads the metadata it read, so nothing the
 * server sent is dropped unless Krypton removes it on purpose.
 *
 * @public
 */
export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  managedFields?: unknown[];
}

/**
 * Any namespaced API object; a metadata-only list returns exactly this shape.
 *
 * @public
 */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
}

/**
 * A core/v1 Secret as the API server returns it: data values are base64.
 *
 * @public
 */
export interface NativeSecret extends KubeObject {
  type?: string;
  immutable?: boolean;
  data?: Record<string, string>;
}

/**
 * An apps/v1 Deployment, StatefulSet or DaemonSet; its spec is read by the engines that need it.
 *
 * @public
 */
export interface Workload extends KubeObject {
  spec?: Record<string, unknown>;
  /** What its controller reports; read by the rollout state, never written. */
  status?: Record<string, unknown>;
}

/**
 * A core/v1 Pod, or an apps/v1 ReplicaSet: spec and status are read by the engines that need
 * them, never written.
 *
 * @public
 */
export interface PodLike extends KubeObject {
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}

/**
 * A namespaced resource of the API: where it lives and what it is called. The type parameter ties
 * gateway calls to the shape of the objects they return.
 *
 * @public
 */
export interface ResourceType<T extends KubeObject> {
  /** `/api/v1` for the core group, `/apis/<group>/<version>` otherwise. */
  readonly apiPath: string;
  readonly plural: string;
  readonly kind: string;
  /** Cluster-scoped resources ignore the namespace argument of gateway calls. */
  readonly clusterScoped?: boolean;
  /** Never set; it only carries T. */
  readonly object?: T;
}

/** @public */
export const SECRETS: ResourceType<NativeSecret> = {
  apiPath: '/api/v1',
  plural: 'secrets',
  kind: 'Secret',
};
/** @public */
export const DEPLOYMENTS: ResourceType<Workload> = {
  apiPath: '/apis/apps/v1',
  plural: 'deployments',
  kind: 'Deployment',
};
/** @public */
export const STATEFUL_SETS: ResourceType<Workload> = {
  apiPath: '/apis/apps/v1',
  plural: 'statefulsets',
  kind: 'StatefulSet',
};
/** @public */
export const DAEMON_SETS: ResourceType<Workload> = {
  apiPath: '/apis/apps/v1',
  plural: 'daemonsets',
  kind: 'DaemonSet',
};

/** @public */
export const PODS: ResourceType<PodLike> = {
  apiPath: '/api/v1',
  plural: 'pods',
  kind: 'Pod',
};
/** @public */
export const REPLICA_SETS: ResourceType<PodLike> = {
  apiPath: '/apis/apps/v1',
  plural: 'replicasets',
  kind: 'ReplicaSet',
};

/** @public */
export const NAMESPACES: ResourceType<KubeObject> = {
  apiPath: '/api/v1',
  plural: 'namespaces',
  kind: 'Namespace',
  clusterScoped: true,
};

/**
 * One page of a list request.
 *
 * @public
 */
export interface PageRequest {
  labelSelector?: string;
  /** A field selector the API server applies before it answers (for Secrets: `type=...`). */
  fieldSelector?: string;
  /** Objects per page (the API's limit parameter). */
  limit: number;
  continueToken?: string;
  /** The page fails with KubeApiError(0, 'ResponseTooLarge') once its body exceeds this. */
  maxBytes: number;
}

/** @public */
export interface Page<T> {
  items: T[];
  /** Absent on the last page. */
  continueToken?: string;
  /** Bytes of the page's JSON body, for byte budgets. */
  bytes: number;
  /**
   * The API server's estimate of the items after this page; it gives one only for lists without
   * a label or field selector.
   */
  remainingItemCount?: number;
}

/**
 * One row of a list in the Kubernetes Table format (`as=Table`, `includeObject=Metadata`): the
 * cells that the caller asked for, by column name, and the object's metadata, never its data.
 *
 * @public
 */
export interface TableRow {
  /** Each requested column's cell, unchecked: its type is the caller's to verify. */
  cells: Record<string, unknown>;
  /** The row's PartialObjectMetadata. */
  object: KubeObject;
}

/**
 * UID and resourceVersion that a mutation must still find on the object.
 *
 * @public
 */
export interface Preconditions {
  uid: string;
  resourceVersion: string;
}

/**
 * One RFC 6902 operation. Paths escape "/" as "~1" and "~" as "~0".
 *
 * @public
 */
export type JsonPatchOperation =
  | { op: 'test' | 'add' | 'replace'; path: string; value: unknown }
  | { op: 'remove'; path: string };

/**
 * What a conditional delete left behind: the object is gone, or it is still there (finalizers
 * hold it, with a deletionTimestamp) and this is its current state.
 *
 * @public
 */
export type DeleteOutcome<T extends KubeObject> =
  | { gone: true }
  | { gone: false; object: T };

/**
 * The small typed view of the Kubernetes API that Krypton's rules and engines are written
 * against. The backend implements it over HTTP, for one identity; unit tests implement it in
 * memory. Failures are thrown as KubeApiError, never mapped here: what a status means depends on
 * the object and the step, so each engine maps them itself.
 *
 * @public
 */
export interface KubeGateway {
  get<T extends KubeObject>(
    type: ResourceType<T>,
    namespace: string,
    name: string,
  ): Promise<T>;
  /** One page of full objects. */
  list<T extends KubeObject>(
    type: ResourceType<T>,
    namespace: string,
    page: PageRequest,
  ): Promise<Page<T>>;
  /** One object as PartialObjectMetadata: its metadata, never its data. */
  getMetadata(
    type: ResourceType<KubeObject>,
    namespace: string,
    name: string,
  ): Promise<KubeObject>;
  /** One page of PartialObjectMetadata: names, labels, annotations, revisions; never data. */
  listMetadata(
    type: ResourceType<KubeObject>,
    namespace: string,
    page: PageRequest,
  ): Promise<Page<KubeObject>>;
  /**
   * One page in the Table format with each row's PartialObjectMetadata: the server's columns
   * (for Secrets: Name, Type, Data as the key count, Age), never data. Every named column must be
   * defined by the table, and every row must carry cells for all columns and a metadata object;
   * otherwise the page fails as MalformedResponse.
   */
  listTable(
    type: ResourceType<KubeObject>,
    namespace: string,
    page: PageRequest,
    columns: readonly string[],
  ): Promise<Page<TableRow>>;
  create<T extends KubeObject>(
    type: ResourceType<T>,
    namespace: string,
    object: T,
  ): Promise<T>;
  /**
   * Full replacement. The object's metadata.uid and metadata.resourceVersion are required: they
   * are the preconditions that the API server checks.
   */
  replace<T extends KubeObject>(
    type: ResourceType<T>,
    namespace: string,
    name: string,
    object: T,
  ): Promise<T>;
  /** An RFC 6902 JSON Patch; put `test` operations first to make it conditional. */
  patch<T extends KubeObject>(
    type: ResourceType<T>,
    namespace: string,
    name: string,
    operations: JsonPatchOperation[],
  ): Promise<T>;
  /**
   * A JSON merge patch (RFC 7386). With metadata.uid and metadata.resourceVersion in it, it is
   * conditional on both: another revision answers 409, another UID 422. The answer is the
   * object's PartialObjectMetadata, never its data: the storage rewrite sends one per object and
   * reads only the revision.
   */
  mergePatch(
    type: ResourceType<KubeObject>,
    namespace: string,
    name: string,
    patch: Record<string, unknown>,
  ): Promise<KubeObject>;
  /**
   * A merge patch with `dryRun=All`: authorization, admission and any UID or resourceVersion in
   * the patch are checked, nothing is stored. It proves that this identity may make the patch.
   */
  dryRunMergePatch(
    type: ResourceType<KubeObject>,
    namespace: string,
    name: string,
    patch: Record<string, unknown>,
  ): Promise<void>;
  /** A delete with UID and resourceVersion preconditions. */
  delete<T extends KubeObject>(
    type: ResourceType<T>,
    namespace: string,
    name: string,
    preconditions: Preconditions,
  ): Promise<DeleteOutcome<T>>;
  /**
   * A replace with `dryRun=All`: authorization, admission and the preconditions run, nothing is
   * stored. It proves that this identity may make the write; the answer is not kept.
   */
  dryRunReplace<T extends KubeObject>(
    type: ResourceType<T>,
    namespace: string,
    name: string,
    object: T,
  ): Promise<void>;
  /** A conditional delete with `dryRun=All`: proves that this identity may delete the object. */
  dryRunDelete(
    type: ResourceType<KubeObject>,
    namespace: string,
    name: string,
    preconditions: Preconditions,
  ): Promise<void>;
}

/** The reasons of metav1.Status that Krypton recognizes; anything else is reported as Unknown. */
const STATUS_REASONS = new Set([
  'Unauthorized',
  'Forbidden',
  'NotFound',
  'AlreadyExists',
  'Conflict',
  'Gone',
  'Invalid',
  'ServerTimeout',
  'Timeout',
  'TooManyRequests',
  'BadRequest',
  'MethodNotAllowed',
  'NotAcceptable',
  'RequestEntityTooLarge',
  'UnsupportedMediaType',
  'InternalError',
  'Expired',
  'ServiceUnavailable',
]);

/**
 * Reasons for failures that produced no usable answer (status 0, or a 2xx that was unusable).
 *
 * @public
 */
export type LocalReason =
  | 'Network'
  | 'Timeout'
  | 'ResponseTooLarge'
  | 'MalformedResponse';
const LOCAL_REASONS = new Set<string>([
  'Network',
  'Timeout',
  'ResponseTooLarge',
  'MalformedResponse',
]);

/**
 * An upstream reason as Krypton may repeat it: one of the API's fixed reasons, or Unknown. The
 * field comes from the response body, so it is never trusted as free text.
 *
 * @public
 */
export function sanitizeReason(raw: unknown): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  return typeof raw === 'string' &&
    (STATUS_REASONS.has(raw) || LOCAL_REASONS.has(raw))
    ? raw
    : 'Unknown';
}

/**
 * A failed Kubernetes request. status is the HTTP status, or 0 when no usable answer arrived (the
 * outcome of a mutation is then unknown). The upstream message is kept out of this error on
 * purpose, and the reason is one of a fixed set: nothing that reaches a log, an audit event or a
 * response can carry upstream text.
 *
 * @public
 */
export class KubeApiError extends Error {
  readonly reason?: string;

  constructor(readonly status: number, reason?: string) {
    const safe = sanitizeReason(reason);
    super(
      `Kubernetes request failed with ${status || 'no response'}${
        safe ? ` (${safe})` : ''
      }`,
    );
    this.name = 'KubeApiError';
    this.reason = safe;
  }
}
