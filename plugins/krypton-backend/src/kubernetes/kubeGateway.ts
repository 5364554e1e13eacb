import { LoggerService } from '@backstage/backend-plugin-api';
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
  sanitizeReason,
} from '@krypton/plugin-krypton-common/engine';
import {
  Impersonation,
  KubeRequest,
  KubeResponse,
  KubeTransport,
  KubeTransportError,
} from './transport';

const seg = encodeURIComponent;

const METADATA_LIST_ACCEPT =
  'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
const METADATA_ACCEPT =
  'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';

const LOCAL_REASON = {
  network: 'Network',
  timeout: 'Timeout',
  too_large: 'ResponseTooLarge',
} as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isKubeObject(value: unknown): value is KubeObject {
  return isObject(value) && isObject(value.metadata);
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
 * KubeGateway over the Kubernetes REST API, for one identity: with an impersonation, every
 * request acts as that user and groups; without, as the transport's own identity (Krypton's).
 * Failures that point at the deployment rather than the request (Krypton's credentials refused,
 * outages, timeouts) are logged with their status and fixed reason, never with a body.
 */
export class HttpKubeGateway implements KubeGateway {
  constructor(
    private readonly transport: KubeTransport,
    private readonly logger: LoggerService,
    private readonly impersonate?: Impersonation,
  ) {}

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
    type: ResourceType<KubeObject>,
    req: KubeRequest,
    expected: number[],
  ): Promise<KubeResponse> {
    let res: KubeResponse;
    try {
      res = await this.transport.request({
        ...req,
        impersonate: this.impersonate,
      });
    } catch (err) {
      if (!(err instanceof KubeTransportError)) throw err;
      const reason = LOCAL_REASON[err.reason];
      if (err.reason !== 'too_large') this.report(req, type, 0, reason);
      throw new KubeApiError(0, reason);
    }
    if (!expected.includes(res.status)) {
      const reason = sanitizeReason(
        isObject(res.body) ? res.body.reason : undefined,
      );
      if (res.status === 401 || res.status >= 500)
        this.report(req, type, res.status, reason);
      throw new KubeApiError(res.status, reason);
    }
    return res;
  }

  private report(
    req: KubeRequest,
    type: ResourceType<KubeObject>,
    status: number,
    reason: string | undefined,
  ) {
    const what =
      status === 401
        ? "Krypton's Kubernetes credentials were refused"
        : 'Kubernetes is unavailable';
    this.logger.error(
      `${what}: ${req.method} ${type.plural} answered ${status || 'nothing'} (${
        reason ?? 'no reason'
      })`,
      {
        code: status === 401 ? 'credentials_refused' : 'unavailable',
        status,
        reason: reason ?? '',
      },
    );
  }

  private object<T extends KubeObject>(res: KubeResponse): T {
    if (!isKubeObject(res.body)) throw malformed();
    return res.body as T;
  }

  private page<T extends KubeObject>(res: KubeResponse): Page<T> {
    const body = res.body;
    if (!isObject(body)) throw malformed();
    // An empty PartialObjectMetadataList comes with "items": null (a nil Go slice).
    const items = body.items === null ? [] : body.items;
    if (!Array.isArray(items) || !items.every(isKubeObject)) throw malformed();
    // The API server always sends the list's metadata (ListMeta is not a pointer, so omitempty
    // keeps it) and omits "continue" on the last page. A page without metadata, or with a
    // continuation that is not a string, cannot say whether more pages follow: reading it as the
    // last page would silently truncate the list.
    if (!isObject(body.metadata)) throw malformed();
    const next = body.metadata.continue;
    if (next !== undefined && typeof next !== 'string') throw malformed();
    return {
      items: items as T[],
      continueToken: next === undefined || next === '' ? undefined : next,
      bytes: res.bytes,
    };
  }

  private listRequest(
    type: ResourceType<KubeObject>,
    namespace: string,
    page: PageRequest,
  ): KubeRequest {
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
    };
  }

  async get<T extends KubeObject>(
    type: ResourceType<T>,
    namespace: string,
    name: string,
  ) {
    const res = await this.send(
      type,
      { method: 'GET', path: this.path(type, namespace, name) },
      [200],
    );
    return this.object<T>(res);
  }

  async list<T extends KubeObject>(
    type: ResourceType<T>,
    namespace: string,
    page: PageRequest,
  ) {
    const res = await this.send(type, this.listRequest(type, namespace, page), [
      200,
    ]);
    return this.page<T>(res);
  }

  async getMetadata(
    type: ResourceType<KubeObject>,
    namespace: string,
    name: string,
  ) {
    const res = await this.send(
      type,
      {
        method: 'GET',
        path: this.path(type, namespace, name),
        accept: METADATA_ACCEPT,
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
      type,
      {
        ...this.listRequest(type, namespace, page),
        accept: METADATA_LIST_ACCEPT,
      },
      [200],
    );
    const body = res.body;
    // A server that ignores the Accept header would send full objects, values included.
    if (!isObject(body) || body.kind !== 'PartialObjectMetadataList')
      throw malformed();
    return this.page<KubeObject>(res);
  }

  async create<T extends KubeObject>(
    type: ResourceType<T>,
    namespace: string,
    object: T,
  ) {
    const res = await this.send(
      type,
      { method: 'POST', path: this.path(type, namespace), body: object },
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
      type,
      {
        method: 'PUT',
        path: this.path(type, namespace, name),
        query: dryRun ? { dryRun: 'All' } : undefined,
        body: object,
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
      type,
      {
        method: 'DELETE',
        path: this.path(type, namespace, name),
        body: {
          apiVersion: 'v1',
          kind: 'DeleteOptions',
          preconditions,
          dryRun: ['All'],
        },
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
      type,
      {
        method: 'PATCH',
        path: this.path(type, namespace, name),
        body: operations,
        contentType: 'application/json-patch+json',
      },
      [200],
    );
    return this.object<T>(res);
  }

  async mergePatch<T extends KubeObject>(
    type: ResourceType<T>,
    namespace: string,
    name: string,
    patch: Record<string, unknown>,
  ) {
    const res = await this.send(
      type,
      {
        method: 'PATCH',
        path: this.path(type, namespace, name),
        body: patch,
        contentType: 'application/merge-patch+json',
      },
      [200],
    );
    return this.object<T>(res);
  }

  async delete<T extends KubeObject>(
    type: ResourceType<T>,
    namespace: string,
    name: string,
    preconditions: Preconditions,
  ): Promise<DeleteOutcome<T>> {
    const res = await this.send(
      type,
      {
        method: 'DELETE',
        path: this.path(type, namespace, name),
        body: { apiVersion: 'v1', kind: 'DeleteOptions', preconditions },
      },
      [200, 202],
    );
    // An object deleted at once answers with a Status; one that finalizers hold answers with
    // itself, now carrying a deletionTimestamp.
    if (isObject(res.body) && res.body.kind === 'Status') return { gone: true };
    return { gone: false, object: this.object<T>(res) };
  }
}
