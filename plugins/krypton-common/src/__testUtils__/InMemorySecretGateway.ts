import {
  KubeApiError,
  ListOptions,
  NativeSecret,
  Preconditions,
  SecretGateway,
  SecretPage,
} from '../kubernetes/types';

/**
 * A SecretGateway with the API server's semantics that Krypton relies on: UIDs, opaque
 * resourceVersions that change on every write, replace preconditions, AlreadyExists, NotFound,
 * label selectors of the form a=b, and immutable data.
 */
export class InMemorySecretGateway implements SecretGateway {
  private readonly objects = new Map<string, NativeSecret>();
  private revision = 1000;
  readonly calls: string[] = [];

  private key(namespace: string, name: string) {
    return `${namespace}/${name}`;
  }

  private clone<T>(value: T): T {
    return JSON.parse(JSON.stringify(value));
  }

  async getSecret(namespace: string, name: string): Promise<NativeSecret> {
    this.calls.push(`get ${name}`);
    const obj = this.objects.get(this.key(namespace, name));
    if (!obj) throw new KubeApiError(404, 'NotFound');
    return this.clone(obj);
  }

  async listSecrets(
    namespace: string,
    options: ListOptions = {},
  ): Promise<SecretPage> {
    this.calls.push('list');
    const [labelKey, labelValue] = options.labelSelector?.split('=') ?? [];
    const items = [...this.objects.values()].filter(
      s =>
        s.metadata.namespace === namespace &&
        (labelKey === undefined ||
          s.metadata.labels?.[labelKey] === labelValue),
    );
    return { items: this.clone(items) };
  }

  async createSecret(
    namespace: string,
    secret: NativeSecret,
  ): Promise<NativeSecret> {
    this.calls.push(`create ${secret.metadata.name}`);
    const key = this.key(namespace, secret.metadata.name!);
    if (this.objects.has(key)) throw new KubeApiError(409, 'AlreadyExists');
    const stored = this.clone(secret);
    stored.metadata.namespace = namespace;
    stored.metadata.uid = `uid-${++this.revision}`;
    stored.metadata.resourceVersion = String(++this.revision);
    this.objects.set(key, stored);
    return this.clone(stored);
  }

  async replaceSecret(
    namespace: string,
    name: string,
    secret: NativeSecret,
  ): Promise<NativeSecret> {
    this.calls.push(`replace ${name}`);
    const current = this.objects.get(this.key(namespace, name));
    if (!current) throw new KubeApiError(404, 'NotFound');
    if (
      secret.metadata.resourceVersion !== current.metadata.resourceVersion ||
      (secret.metadata.uid !== undefined &&
        secret.metadata.uid !== current.metadata.uid)
    ) {
      throw new KubeApiError(409, 'Conflict');
    }
    if (
      current.immutable &&
      JSON.stringify(current.data) !== JSON.stringify(secret.data)
    ) {
      throw new KubeApiError(422, 'Invalid');
    }
    const stored = this.clone(secret);
    stored.metadata.namespace = namespace;
    stored.metadata.uid = current.metadata.uid;
    stored.metadata.resourceVersion = String(++this.revision);
    this.objects.set(this.key(namespace, name), stored);
    return this.clone(stored);
  }

  async deleteSecret(
    namespace: string,
    name: string,
    pre: Preconditions,
  ): Promise<void> {
    this.calls.push(`delete ${name}`);
    const current = this.objects.get(this.key(namespace, name));
    if (!current) throw new KubeApiError(404, 'NotFound');
    if (
      current.metadata.uid !== pre.uid ||
      current.metadata.resourceVersion !== pre.resourceVersion
    ) {
      throw new KubeApiError(409, 'Conflict');
    }
    this.objects.delete(this.key(namespace, name));
  }

  /** Writes an object directly, as another client would. */
  put(namespace: string, secret: NativeSecret): NativeSecret {
    const stored = this.clone(secret);
    stored.metadata.namespace = namespace;
    stored.metadata.uid ??= `uid-${++this.revision}`;
    stored.metadata.resourceVersion = String(++this.revision);
    this.objects.set(this.key(namespace, secret.metadata.name!), stored);
    return this.clone(stored);
  }
}
