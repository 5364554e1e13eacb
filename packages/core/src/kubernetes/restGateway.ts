import {
  DeleteOutcome,
  JsonPatchOperation,
  KubeApiError,
  KubeGateway,
  KubeObject,
  Page,
  PageRequest,
  Preconditions,
  ResourceType,
  TableRow,
  sanitizeReason,
} from './types';

/**
 * The overall deadline of one Kubernetes request, from sending it to the end of its answer, when
 * the deployment sets none (the backend's krypton.kubernetes.requestTimeoutMs).
 *
 * @public
 */
export const KUBE_REQUEST_DEADLINE_MS = 30_000;

/**
 * The largest answer accepted for a request that names no budget of its own (list pages name
 * theirs). One Secret is at most 1 MiB of bytes, about 1.4 MiB as base64 JSON.
 *
 * @public
 */
export const KUBE_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/**
 * Answers of these media types carry metadata only, never a Secret's data.
 *
 * @public
 */
export const METADATA_LIST_ACCEPT =
  'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
/** @public */
export const METADATA_ACCEPT =
  'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';
/**
 * A list as a Table, as kubectl asks for it. With `includeObject=Metadata` each row carries the
 * object's PartialObjectMetadata. No fallback type is offered: a server that cannot answer a
 * Table must fail rather than send full objects.
 *
 * @public
 */
export const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io';

/**
 * One request of the Kubernetes REST API, as RestKubeGateway shapes it.
 *
 * @public
 */
export interface KubeRestRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Absolute API path, e.g. /api/v1/namespaces/ns/secrets/name; its segments are encoded. */
  path: string;
  query?: Record<string, string | undefined>;
  /** Sent as JSON. */
  body?: unknown;
  /** application/json when absent; patches name their patch type. */
  contentType?: string;
  /** application/json when absent. */
  accept?: string;
  /**
   * The answer is abandoned with KubeApiError(0, 'ResponseTooLarge') once it exceeds this many
   * bytes; KUBE_MAX_RESPONSE_BYTES when absent.
   */
  maxResponseBytes?: number;
  /** The resource's plural, for log lines, which never name an object. */
  resource: string;
}

/**
 * The API server's answer, whatever its status.
 *
 * @public
 */
export interface KubeRestResponse {
  status: number;
  /** The parsed JSON body, or undefined when the body was empty or not JSON. */
  body: unknown;
  /** Bytes received, for budgets that are measured on the JSON as sent. */
  bytes: number;
}

/**
 * Sends one request with one identity's credentials, within the request's byte budget and the
 * deployment's deadline, and answers with the API server's status and body. When no usable
 * answer arrived it throws KubeApiError(0, reason) with a LocalReason ('Network', 'Timeout',
 * 'ResponseTooLarge'): the outcome of a mutation is then unknown. A transport that cannot read
 * the body of a failed status (Headlamp's API proxy consumes it) throws KubeApiError(status,
 * reason) itself, with the reason it can vouch for.
 *
 * @public
 */
export type KubeRestSend = (
  request: KubeRestRequest,
) => Promise<KubeRestResponse>;

const seg = encodeURIComponent;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isKubeObject(value: unknown): value is KubeObject {
  return isObject(value) && isObject(value.metadata);
}

/** A Go slice that may be nil: null stands for an empty one. */
function sliceOf(value: unknown): unknown[] | undefined {
  if (value === null) return [];
  return Array.isArray(value) ? value : undefined;
}

/**
 * The rows of a Table answer, with the cells of the named columns. Columns are found by their
 * definition's name, never by position: a server may add, drop or reorder columns. A column
 * defined twice, a requested column that is missing, a row whose cells do not match the
 * definitions, or a row without its metadata object makes the whole table unusable (undefined).
 */
function tableRows(
  body: Record<string, unknown>,
  columns: readonly string[],
): TableRow[] | undefined {
  const definitions = sliceOf(body.columnDefinitions);
  const rows = sliceOf(body.rows);
  if (!definitions || !rows) return undefined;
  const index = new Map<string, number>();
  for (let i = 0; i < definitions.length; i++) {
    const definition = definitions[i];
    if (!isObject(definition) || typeof definition.name !== 'string')
      return undefined;
    if (index.has(definition.name)) return undefined;
    index.set(definition.name, i);
  }
  const wanted: Array<[string, number]> = [];
  for (const column of columns) {
    const at = index.get(column);
    if (at === undefined) return undefined;
    wanted.push([column, at]);
  }
  const out: TableRow[] = [];
  for (const row of rows) {
    if (!isObject(row) || !Array.isArray(row.cells)) return undefined;
    if (row.cells.length !== definitions.length) return undefined;
    const object = row.object;
    // Only metadata may come back: a full object would carry the data that this list avoids.
    if (!isKubeObject(object) || object.kind !== 'PartialObjectMetadata')
      return undefined;
    const cells: Record<string, unknown> = Object.create(null);
    for (const [column, at] of wanted) cells[column] = row.cells[at];
    out.push({ cells, object });
  }
  return out;
}

/**
 * A success status whose body Krypton cannot use. Status 0, as for a lost answer: no upstream
 * status failed (so none may be reported), and a write answered this way took effect, so it is
 * treated like a write without an answer (its outcome unknown to the caller). A list page this
 * way is incomplete.
 */
function malformed(): KubeApiError {
  return new KubeApiError(0, 'MalformedResponse');
}

/**
 * KubeGateway over the Kubernetes REST API: the paths, media types, preconditions and checks of
 * every answer, the same on every host. Only sending differs: the backend sends through its own
 * transport (impersonating where configured), a Headlamp plugin through Headlamp's API proxy with
 * the user's credentials.
 *
 * @public
 */
export class RestKubeGateway implements KubeGateway {
  constructor(private readonly sendRequest: KubeRestSend) {}

  private path(
    type: ResourceType<KubeObject>,
    namespace: string,
    name?: string,
  ) {
    const base = type.clusterScoped
      ? `${type.apiPath}/${type.plural}`
      : `${type.apiPath}/namespaces/${seg(namespace)}/${type.plural}`;
    return name === undefined ? base : `${base}/${seg(name)}`;
  }

  private async send(
    req: KubeRestRequest,
    expected: number[],
  ): Promise<KubeRestResponse> {
    const res = await this.sendRequest(req);
    if (!expected.includes(res.status)) {
      // Only a fixed reason is kept, never the upstream message.
      throw new KubeApiError(
        res.status,
        sanitizeReason(isObject(res.body) ? res.body.reason : undefined),
      );
    }
    return res;
  }

  private object<T extends KubeObject>(res: KubeRestResponse): T {
    if (!isKubeObject(res.body)) throw malformed();
    return res.body as T;
  }

  private page<T extends KubeObject>(res: KubeRestResponse): Page<T> {
    const body = res.body;
    if (!isObject(body)) throw malformed();
    // An empty PartialObjectMetadataList comes with "items": null (a nil Go slice).
    const items = sliceOf(body.items);
    if (!items || !items.every(isKubeObject)) throw malformed();
    return this.pageOf(res, items as T[]);
  }

  /** A page of these items, with the list metadata of the answer. */
  private pageOf<T>(res: KubeRestResponse, items: T[]): Page<T> {
    const body = res.body;
    if (!isObject(body)) throw malformed();
    // The API server always sends the list's metadata (ListMeta is not a pointer, so omitempty
    // keeps it) and omits "continue" on the last page. A page without metadata, or with a
    // continuation that is not a string, cannot say whether more pages follow: reading it as the
    // last page would silently truncate the list.
    if (!isObject(body.metadata)) throw malformed();
    const next = body.metadata.continue;
    if (next !== undefined && typeof next !== 'string') throw malformed();
    // An estimate for progress only: one that is not a count is left out, never trusted.
    const remaining = body.metadata.remainingItemCount;
    return {
      items,
      continueToken: next === undefined || next === '' ? undefined : next,
      bytes: res.bytes,
      ...(typeof remaining === 'number' &&
      Number.isSafeInteger(remaining) &&
      remaining >= 0
        ? { remainingItemCount: remaining }
        : {}),
    };
  }

  private listRequest(
    type: ResourceType<KubeObject>,
    namespace: string,
    page: PageRequest,
  ): KubeRestRequest {
    return {
      method: 'GET',
      path: this.path(type, namespace),
      query: {
        labelSelector: page.labelSelector,
        fieldSelector: page.fieldSelector,
        limit: String(page.limit),
        continue: page.continueToken,
      },
      maxResponseBytes: page.maxBytes,
      resource: type.plural,
    };
  }

  async get<T extends KubeObject>(
    type: ResourceType<T>,
    namespace: string,
    name: string,
  ) {
    const res = await this.send(
      {
        method: 'GET',
        path: this.path(type, namespace, name),
        resource: type.plural,
      },
      [200],
    );
    return this.object<T>(res);
  }

  async list<T extends KubeObject>(
    type: ResourceType<T>,
    namespace: string,
    page: PageRequest,
  ) {
    const res = await this.send(this.listRequest(type, namespace, page), [200]);
    return this.page<T>(res);
  }

  async getMetadata(
    type: ResourceType<KubeObject>,
    namespace: string,
    name: string,
  ) {
    const res = await this.send(
      {
        method: 'GET',
        path: this.path(type, namespace, name),
        accept: METADATA_ACCEPT,
        resource: type.plural,
      },
      [200],
    );
    if (!isObject(res.body) || res.body.kind !== 'PartialObjectMetadata')
      throw malformed();
    return this.object<KubeObject>(res);
  }

  async listMetadata(
    type: ResourceType<KubeObject>,
    namespace: string,
    page: PageRequest,
  ) {
    const res = await this.send(
      {
        ...this.listRequest(type, namespace, page),
        accept: METADATA_LIST_ACCEPT,
      },
      [200],
    );
    const body = res.body;
    // A server or proxy that ignores the Accept header would send full objects, values included.
    if (!isObject(body) || body.kind !== 'PartialObjectMetadataList')
      throw malformed();
    return this.page<KubeObject>(res);
  }

  async listTable(
    type: ResourceType<KubeObject>,
    namespace: string,
    page: PageRequest,
    columns: readonly string[],
  ) {
    const request = this.listRequest(type, namespace, page);
    const res = await this.send(
      {
        ...request,
        query: { ...request.query, includeObject: 'Metadata' },
        accept: TABLE_ACCEPT,
      },
      [200],
    );
    const body = res.body;
    // A server or proxy that ignores the Accept header would send full objects, values included.
    if (!isObject(body) || body.kind !== 'Table') throw malformed();
    const rows = tableRows(body, columns);
    if (!rows) throw malformed();
    return this.pageOf(res, rows);
  }

  async create<T extends KubeObject>(
    type: ResourceType<T>,
    namespace: string,
    object: T,
  ) {
    const res = await this.send(
      {
        method: 'POST',
        path: this.path(type, namespace),
        body: object,
        resource: type.plural,
      },
      [201, 200],
    );
    return this.object<T>(res);
  }

  /** A PUT with the UID and resourceVersion preconditions that the API server checks. */
  private put(
    type: ResourceType<KubeObject>,
    namespace: string,
    name: string,
    object: KubeObject,
    dryRun: boolean,
  ) {
    // The API server checks metadata.resourceVersion and metadata.uid of a PUT body against the
    // stored object: without both, the write would not be conditional.
    if (!object.metadata.uid || !object.metadata.resourceVersion)
      throw new Error(
        'replace needs the UID and resourceVersion preconditions',
      );
    return this.send(
      {
        method: 'PUT',
        path: this.path(type, namespace, name),
        query: dryRun ? { dryRun: 'All' } : undefined,
        body: object,
        resource: type.plural,
      },
      [200],
    );
  }

  async replace<T extends KubeObject>(
    type: ResourceType<T>,
    namespace: string,
    name: string,
    object: T,
  ) {
    return this.object<T>(await this.put(type, namespace, name, object, false));
  }

  async dryRunReplace<T extends KubeObject>(
    type: ResourceType<T>,
    namespace: string,
    name: string,
    object: T,
  ) {
    // The answer is the object as it would be stored, values included: it proves the write and
    // is dropped unread.
    await this.put(type, namespace, name, object, true);
  }

  async dryRunDelete(
    type: ResourceType<KubeObject>,
    namespace: string,
    name: string,
    preconditions: Preconditions,
  ) {
    await this.send(
      {
        method: 'DELETE',
        path: this.path(type, namespace, name),
        body: {
          apiVersion: 'v1',
          kind: 'DeleteOptions',
          preconditions,
          dryRun: ['All'],
        },
        resource: type.plural,
      },
      [200, 202],
    );
  }

  async patch<T extends KubeObject>(
    type: ResourceType<T>,
    namespace: string,
    name: string,
    operations: JsonPatchOperation[],
  ) {
    const res = await this.send(
      {
        method: 'PATCH',
        path: this.path(type, namespace, name),
        body: operations,
        contentType: 'application/json-patch+json',
        resource: type.plural,
      },
      [200],
    );
    return this.object<T>(res);
  }

  private sendMergePatch(
    type: ResourceType<KubeObject>,
    namespace: string,
    name: string,
    patch: Record<string, unknown>,
    dryRun: boolean,
  ) {
    return this.send(
      {
        method: 'PATCH',
        path: this.path(type, namespace, name),
        query: dryRun ? { dryRun: 'All' } : undefined,
        body: patch,
        contentType: 'application/merge-patch+json',
        // The API server answers a write in the requested form as well: the metadata, without
        // the values of a Secret that may hold up to 1 MiB of them.
        accept: METADATA_ACCEPT,
        resource: type.plural,
      },
      [200],
    );
  }

  async mergePatch(
    type: ResourceType<KubeObject>,
    namespace: string,
    name: string,
    patch: Record<string, unknown>,
  ) {
    const res = await this.sendMergePatch(type, namespace, name, patch, false);
    if (!isObject(res.body) || res.body.kind !== 'PartialObjectMetadata')
      throw malformed();
    return this.object<KubeObject>(res);
  }

  async dryRunMergePatch(
    type: ResourceType<KubeObject>,
    namespace: string,
    name: string,
    patch: Record<string, unknown>,
  ) {
    await this.sendMergePatch(type, namespace, name, patch, true);
  }

  async delete<T extends KubeObject>(
    type: ResourceType<T>,
    namespace: string,
    name: string,
    preconditions: Preconditions,
  ): Promise<DeleteOutcome<T>> {
    const res = await this.send(
      {
        method: 'DELETE',
        path: this.path(type, namespace, name),
        body: { apiVersion: 'v1', kind: 'DeleteOptions', preconditions },
        resource: type.plural,
      },
      [200, 202],
    );
    // An object deleted at once answers with a Status; one that finalizers hold answers with
    // itself, now carrying a deletionTimestamp.
    if (isObject(res.body) && res.body.kind === 'Status') return { gone: true };
    return { gone: false, object: this.object<T>(res) };
  }
}
