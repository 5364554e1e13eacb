import {
  KubeApiError,
  ListOptions,
  NativeSecret,
  Preconditions,
  SecretGateway,
  SecretPage,
} from '@krypton/plugin-krypton-common';
import {
  Impersonation,
  KubeRequest,
  KubeTransport,
  KubeTransportError,
} from './transport';

const seg = encodeURIComponent;

function reasonOf(body: unknown): string | undefined {
  if (typeof body === 'object' && body !== null && 'reason' in body) {
    const reason = (body as { reason: unknown }).reason;
    return typeof reason === 'string' ? reason : undefined;
  }
  return undefined;
}

function isSecret(body: unknown): body is NativeSecret {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as NativeSecret).metadata === 'object' &&
    (body as NativeSecret).metadata !== null
  );
}

/**
 * SecretGateway over the core/v1 REST API. With an impersonation, every request acts as that
 * Kubernetes user and groups; without, as the transport's own identity (Krypton's).
 */
export class KubeSecretGateway implements SecretGateway {
  constructor(
    private readonly transport: KubeTransport,
    private readonly impersonate?: Impersonation,
  ) {}

  private async send(req: KubeRequest, expected: number[]): Promise<unknown> {
    let res;
    try {
      res = await this.transport.request({
        ...req,
        impersonate: this.impersonate,
      });
    } catch (err) {
      if (err instanceof KubeTransportError)
        throw new KubeApiError(0, err.reason);
      throw err;
    }
    if (!expected.includes(res.status))
      throw new KubeApiError(res.status, reasonOf(res.body));
    return res.body;
  }

  private secretOrThrow(body: unknown): NativeSecret {
    if (!isSecret(body)) throw new KubeApiError(502, 'MalformedResponse');
    return body;
  }

  async getSecret(namespace: string, name: string): Promise<NativeSecret> {
    const body = await this.send(
      {
        method: 'GET',
        path: `/api/v1/namespaces/${seg(namespace)}/secrets/${seg(name)}`,
      },
      [200],
    );
    return this.secretOrThrow(body);
  }

  async listSecrets(
    namespace: string,
    options: ListOptions = {},
  ): Promise<SecretPage> {
    const body = (await this.send(
      {
        method: 'GET',
        path: `/api/v1/namespaces/${seg(namespace)}/secrets`,
        query: {
          labelSelector: options.labelSelector,
          limit:
            options.limit === undefined ? undefined : String(options.limit),
          continue: options.continueToken,
        },
      },
      [200],
    )) as { items?: unknown; metadata?: { continue?: unknown } } | undefined;
    if (!body || !Array.isArray(body.items) || !body.items.every(isSecret)) {
      throw new KubeApiError(502, 'MalformedResponse');
    }
    const next = body.metadata?.continue;
    return {
      items: body.items,
      continueToken: typeof next === 'string' && next !== '' ? next : undefined,
    };
  }

  async createSecret(
    namespace: string,
    secret: NativeSecret,
  ): Promise<NativeSecret> {
    const body = await this.send(
      {
        method: 'POST',
        path: `/api/v1/namespaces/${seg(namespace)}/secrets`,
        body: secret,
      },
      [201, 200],
    );
    return this.secretOrThrow(body);
  }

  async replaceSecret(
    namespace: string,
    name: string,
    secret: NativeSecret,
  ): Promise<NativeSecret> {
    const body = await this.send(
      {
        method: 'PUT',
        path: `/api/v1/namespaces/${seg(namespace)}/secrets/${seg(name)}`,
        body: secret,
      },
      [200],
    );
    return this.secretOrThrow(body);
  }

  async deleteSecret(
    namespace: string,
    name: string,
    preconditions: Preconditions,
  ): Promise<void> {
    await this.send(
      {
        method: 'DELETE',
        path: `/api/v1/namespaces/${seg(namespace)}/secrets/${seg(name)}`,
        body: { apiVersion: 'v1', kind: 'DeleteOptions', preconditions },
      },
      [200, 202],
    );
  }
}
