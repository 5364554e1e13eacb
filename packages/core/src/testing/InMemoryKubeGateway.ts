import {
  DeleteOutcome,
  JsonPatchOperation,
  KubeApiError,
  KubeGateway,
  KubeObject,
  NativeSecret,
  Page,
  PageRequest,
  Preconditions,
  ResourceType,
  TableRow,
} from '@krypton/core';

/** Matches a label selector of comma-separated `k=v`, `k==v` and `k!=v` terms. */
function matchesSelector(
  labels: Record<string, string> | undefined,
  selector: string | undefined,
): boolean {
  if (!selector) return true;
  return selector.split(',').every(term => {
    const neq = term.indexOf('!=');
    if (neq >= 0) return labels?.[term.slice(0, neq)] !== term.slice(neq + 2);
    const [key, value] = term.split(/==?/);
    return labels?.[key] === value;
  });
}

/** The one field selector Krypton sends: `type=<Secret type>`. */
function matchesFields(object: KubeObject, selector: string | undefined) {
  if (!selector) return true;
  if (!selector.startsWith('type=')) throw new KubeApiError(400, 'BadRequest');
  return ((object as NativeSecret).type ?? 'Opaque') === selector.slice(5);
}

/** RFC 7386: objects merge, null removes, anything else replaces. */
function mergeJson(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch))
    return patch;
  const out: Record<string, unknown> =
    typeof target === 'object' && target !== null && !Array.isArray(target)
      ? { ...(target as Record<string, unknown>) }
      : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergeJson(out[key], value);
  }
  return out;
}

const unescapePointer = (segment: string) =>
  segment.replace(/~1/g, '/').replace(/~0/g, '~');

/** Applies RFC 6902 operations to a plain JSON value, failing like the API server (422). */
function applyPatch(target: unknown, operations: JsonPatchOperation[]) {
  for (const operation of operations) {
    const segments = operation.path.split('/').slice(1).map(unescapePointer);
    const last = segments.pop()!;
    let parent = target as Record<string, unknown>;
    for (const segment of segments) {
      const next = parent?.[segment];
      if (typeof next !== 'object' || next === null) {
        throw new KubeApiError(422, 'Invalid');
      }
      parent = next as Record<string, unknown>;
    }
    switch (operation.op) {
      case 'test':
        if (JSON.stringify(parent[last]) !== JSON.stringify(operation.value))
          throw new KubeApiError(422, 'Invalid');
        break;
      case 'add':
      case 'replace':
        if (operation.op === 'replace' && !(last in parent))
          throw new KubeApiError(422, 'Invalid');
        parent[last] = operation.value;
        break;
      case 'remove':
        if (!(last in parent)) throw new KubeApiError(422, 'Invalid');
        delete parent[last];
        break;
      default:
        throw new KubeApiError(422, 'Invalid');
    }
  }
}

/**
 * A KubeGateway with the API server's semantics that Krypton relies on: UIDs, opaque
 * resourceVersions that change on every write, replace and delete preconditions, AlreadyExists,
 * NotFound, label selectors, paged lists with continuation tokens, metadata-only lists, JSON
 * Patch, immutable Secret data, and finalizers that keep a deleted object present.
 *
 * @public
 */
export class InMemoryKubeGateway implements KubeGateway {
  private readonly objects = new Map<string, KubeObject>();
  private readonly stale = new Set<string>();
  private revision = 1000;
  /** Every call, as "verb resource name" (lists as "list resource"). */
  readonly calls: string[] = [];

  private key(type: ResourceType<KubeObject>, namespace: string, name: string) {
    return `${type.plural}/${type.clusterScoped ? '' : namespace}/${name}`;
  }

  private clone<T>(value: T): T {
    return JSON.parse(JSON.stringify(value));
  }

  /** The API server's UID and resourceVersion preconditions: a mismatch is 409. */
  private checkPreconditions(current: KubeObject, pre: Partial<Preconditions>) {
    if (
      current.metadata.uid !== pre.uid ||
      current.metadata.resourceVersion !== pre.resourceVersion
    ) {
      throw new KubeApiError(409, 'Conflict');
    }
  }

  private bump(object: KubeObject) {
    object.metadata.resourceVersion = String(++this.revision);
  }

  async get<T extends KubeObject>(
    type: ResourceType<T>,
    namespace: string,
    name: string,
  ): Promise<T> {
    this.calls.push(`get ${type.plural} ${name}`);
    const obj = this.objects.get(this.key(type, namespace, name));
    if (!obj) throw new KubeApiError(404, 'NotFound');
    return this.clone(obj) as T;
  }

  private page<T extends KubeObject>(
    type: ResourceType<T>,
    namespace: string,
    request: PageRequest,
  ): Page<T> {
    const prefix = `${type.plural}/${type.clusterScoped ? '' : namespace}/`;
    const all = [...this.objects.entries()]
      .filter(
        ([key, obj]) =>
          key.startsWith(prefix) &&
          matchesSelector(obj.metadata.labels, request.labelSelector) &&
          matchesFields(obj, request.fieldSelector),
      )
      .sort(([a], [b]) => (a < b ? -1 : 1));
    // The token names the last key served, like etcd's continuation: opaque to callers.
    const start = request.continueToken
      ? all.findIndex(([key]) => key > atob(request.continueToken!))
      : 0;
    if (start < 0 && request.continueToken) return { items: [], bytes: 2 };
    const slice = all.slice(start, start + request.limit);
    const items = slice.map(([, obj]) => this.clone(obj) as T);
    const bytes = JSON.stringify(items).length;
    if (bytes > request.maxBytes) throw new KubeApiError(0, 'ResponseTooLarge');
    const more = start + request.limit < all.length;
    return {
      items,
      bytes,
      continueToken: more ? btoa(slice[slice.length - 1][0]) : undefined,
    };
  }

  async list<T extends KubeObject>(
    type: ResourceType<T>,
    namespace: string,
    request: PageRequest,
  ): Promise<Page<T>> {
    this.calls.push(`list ${type.plural}`);
    return this.page(type, namespace, request);
  }

  async getMetadata(
    type: ResourceType<KubeObject>,
    namespace: string,
    name: string,
  ): Promise<KubeObject> {
    this.calls.push(`getMetadata ${type.plural} ${name}`);
    const obj = this.objects.get(this.key(type, namespace, name));
    if (!obj) throw new KubeApiError(404, 'NotFound');
    return {
      apiVersion: 'meta.k8s.io/v1',
      kind: 'PartialObjectMetadata',
      metadata: this.clone(obj.metadata),
    };
  }

  async listMetadata(
    type: ResourceType<KubeObject>,
    namespace: string,
    request: PageRequest,
  ): Promise<Page<KubeObject>> {
    this.calls.push(`listMetadata ${type.plural}`);
    const page = this.page(type, namespace, request);
    const items = page.items.map(o => ({
      apiVersion: 'meta.k8s.io/v1',
      kind: 'PartialObjectMetadata',
      metadata: o.metadata,
    }));
    return { ...page, items, bytes: JSON.stringify(items).length };
  }

  /**
   * A Table list with the API server's Secret columns (Name, Type, Data as the key count, Age);
   * other resources have Name and Age only. A column that the table lacks fails the page as the
   * REST gateway would, as MalformedResponse.
   */
  async listTable(
    type: ResourceType<KubeObject>,
    namespace: string,
    request: PageRequest,
    columns: readonly string[],
  ): Promise<Page<TableRow>> {
    this.calls.push(`listTable ${type.plural}`);
    const page = this.page(type, namespace, request);
    const items = page.items.map(o => {
      const all: Record<string, unknown> = { Name: o.metadata.name, Age: '1m' };
      if (type.plural === 'secrets') {
        const secret = o as NativeSecret;
        all.Type = secret.type ?? 'Opaque';
        all.Data = Object.keys(secret.data ?? {}).length;
      }
      const cells: Record<string, unknown> = {};
      for (const column of columns) {
        if (!(column in all)) throw new KubeApiError(0, 'MalformedResponse');
        cells[column] = all[column];
      }
      return {
        cells,
        object: {
          apiVersion: 'meta.k8s.io/v1',
          kind: 'PartialObjectMetadata',
          metadata: o.metadata,
        },
      };
    });
    return { ...page, items, bytes: JSON.stringify(items).length };
  }

  async create<T extends KubeObject>(
    type: ResourceType<T>,
    namespace: string,
    object: T,
  ): Promise<T> {
    this.calls.push(`create ${type.plural} ${object.metadata.name}`);
    const key = this.key(type, namespace, object.metadata.name!);
    if (this.objects.has(key)) throw new KubeApiError(409, 'AlreadyExists');
    const stored = this.clone(object);
    stored.metadata.namespace = namespace;
    stored.metadata.uid = `uid-${++this.revision}`;
    this.bump(stored);
    this.objects.set(key, stored);
    return this.clone(stored);
  }

  async replace<T extends KubeObject>(
    type: ResourceType<T>,
    namespace: string,
    name: string,
    object: T,
  ): Promise<T> {
    this.calls.push(`replace ${type.plural} ${name}`);
    const current = this.objects.get(this.key(type, namespace, name));
    if (!current) throw new KubeApiError(404, 'NotFound');
    this.checkPreconditions(current, object.metadata);
    const secret = current as NativeSecret;
    if (
      secret.immutable &&
      JSON.stringify(secret.data) !==
        JSON.stringify((object as NativeSecret).data)
    ) {
      throw new KubeApiError(422, 'Invalid');
    }
    const stored = this.clone(object);
    stored.metadata.namespace = namespace;
    this.bump(stored);
    this.objects.set(this.key(type, namespace, name), stored);
    return this.clone(stored);
  }

  async patch<T extends KubeObject>(
    type: ResourceType<T>,
    namespace: string,
    name: string,
    operations: JsonPatchOperation[],
  ): Promise<T> {
    this.calls.push(`patch ${type.plural} ${name}`);
    const current = this.objects.get(this.key(type, namespace, name));
    if (!current) throw new KubeApiError(404, 'NotFound');
    const patched = this.clone(current);
    applyPatch(patched, operations);
    this.bump(patched);
    this.objects.set(this.key(type, namespace, name), patched);
    return this.clone(patched) as T;
  }

  /**
   * A merge patch. Like the API server, a stored object that the patch leaves unchanged is not
   * written again: its resourceVersion stays (`rewrites` lists the names that were written anyway,
   * as a stale encoding would be).
   */
  async mergePatch(
    type: ResourceType<KubeObject>,
    namespace: string,
    name: string,
    patch: Record<string, unknown>,
  ): Promise<KubeObject> {
    this.calls.push(`mergePatch ${type.plural} ${name}`);
    const current = this.objects.get(this.key(type, namespace, name));
    if (!current) throw new KubeApiError(404, 'NotFound');
    const meta = (patch.metadata ?? {}) as {
      uid?: string;
      resourceVersion?: string;
    };
    if (meta.uid !== undefined && meta.uid !== current.metadata.uid)
      throw new KubeApiError(422, 'Invalid');
    if (
      meta.resourceVersion !== undefined &&
      meta.resourceVersion !== current.metadata.resourceVersion
    ) {
      throw new KubeApiError(409, 'Conflict');
    }
    const merged = mergeJson(this.clone(current), patch) as KubeObject;
    merged.metadata.uid = current.metadata.uid;
    merged.metadata.resourceVersion = current.metadata.resourceVersion;
    if (
      JSON.stringify(merged) !== JSON.stringify(current) ||
      this.stale.delete(this.key(type, namespace, name))
    ) {
      this.bump(merged);
      this.objects.set(this.key(type, namespace, name), merged);
    }
    // Like the API server asked for PartialObjectMetadata: the metadata, never the data.
    return {
      apiVersion: 'meta.k8s.io/v1',
      kind: 'PartialObjectMetadata',
      metadata: this.clone(
        this.objects.get(this.key(type, namespace, name))!.metadata,
      ),
    };
  }

  /** Marks objects as stored with an old encoding: their next no-op write re-encodes them. */
  markStale(type: ResourceType<KubeObject>, namespace: string, name: string) {
    this.stale.add(this.key(type, namespace, name));
  }

  async delete<T extends KubeObject>(
    type: ResourceType<T>,
    namespace: string,
    name: string,
    pre: Preconditions,
  ): Promise<DeleteOutcome<T>> {
    this.calls.push(`delete ${type.plural} ${name}`);
    const key = this.key(type, namespace, name);
    const current = this.objects.get(key);
    if (!current) throw new KubeApiError(404, 'NotFound');
    this.checkPreconditions(current, pre);
    if ((current.metadata.finalizers ?? []).length > 0) {
      if (!current.metadata.deletionTimestamp) {
        current.metadata.deletionTimestamp = new Date().toISOString();
        this.bump(current);
      }
      return { gone: false, object: this.clone(current) as T };
    }
    this.objects.delete(key);
    return { gone: true };
  }

  /** Dry runs that this gateway refuses with 403, as RBAC would; tests fill it. */
  readonly dryRunDenied = new Set<'replace' | 'delete' | 'patch'>();

  async dryRunReplace<T extends KubeObject>(
    type: ResourceType<T>,
    namespace: string,
    name: string,
    object: T,
  ): Promise<void> {
    this.calls.push(`dryRunReplace ${type.plural} ${name}`);
    if (this.dryRunDenied.has('replace'))
      throw new KubeApiError(403, 'Forbidden');
    const current = this.objects.get(this.key(type, namespace, name));
    if (!current) throw new KubeApiError(404, 'NotFound');
    this.checkPreconditions(current, object.metadata);
  }

  async dryRunMergePatch(
    type: ResourceType<KubeObject>,
    namespace: string,
    name: string,
    patch: Record<string, unknown>,
  ): Promise<void> {
    this.calls.push(`dryRunMergePatch ${type.plural} ${name}`);
    if (this.dryRunDenied.has('patch')) throw new KubeApiError(403, 'Forbidden');
    const current = this.objects.get(this.key(type, namespace, name));
    if (!current) throw new KubeApiError(404, 'NotFound');
    const meta = (patch.metadata ?? {}) as { uid?: string };
    if (meta.uid !== undefined && meta.uid !== current.metadata.uid)
      throw new KubeApiError(422, 'Invalid');
  }

  async dryRunDelete(
    type: ResourceType<KubeObject>,
    namespace: string,
    name: string,
    pre: Preconditions,
  ): Promise<void> {
    this.calls.push(`dryRunDelete ${type.plural} ${name}`);
    if (this.dryRunDenied.has('delete'))
      throw new KubeApiError(403, 'Forbidden');
    const current = this.objects.get(this.key(type, namespace, name));
    if (!current) throw new KubeApiError(404, 'NotFound');
    this.checkPreconditions(current, pre);
  }

  /** Writes an object directly, as another client would. */
  put<T extends KubeObject>(
    type: ResourceType<T>,
    namespace: string,
    object: T,
  ): T {
    const stored = this.clone(object);
    stored.metadata.namespace = namespace;
    stored.metadata.uid ??= `uid-${++this.revision}`;
    this.bump(stored);
    this.objects.set(this.key(type, namespace, object.metadata.name!), stored);
    return this.clone(stored);
  }
}
