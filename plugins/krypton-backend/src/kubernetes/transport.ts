import { KubeConfig } from '@kubernetes/client-node';
import http from 'node:http';
import https from 'node:https';

/** The Kubernetes identity that a request acts as, on top of the transport's own credentials. */
export interface Impersonation {
  user: string;
  /** Each group travels as its own Impersonate-Group header line; Kubernetes does not split commas. */
  groups: readonly string[];
}

export interface KubeRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Absolute API path, e.g. /api/v1/namespaces/ns/secrets/name. Segments must already be encoded. */
  path: string;
  query?: Record<string, string | undefined>;
  body?: unknown;
  /** Defaults to application/json; PATCH callers choose the patch type. */
  contentType?: string;
  impersonate?: Impersonation;
  /** Abort the response once it exceeds this many bytes (inventory budgets). */
  maxResponseBytes?: number;
}

export interface KubeResponse {
  status: number;
  /** The parsed JSON body, or undefined when the body was empty or not JSON. */
  body: unknown;
  /** Bytes received, for budgets that are measured on decoded JSON. */
  bytes: number;
}

/** A transport failure: no HTTP status was received, so the outcome of a mutation is unknown. */
export class KubeTransportError extends Error {
  constructor(
    message: string,
    readonly reason: 'network' | 'timeout' | 'too_large' | 'bad_response',
  ) {
    super(message);
    this.name = 'KubeTransportError';
  }
}

/**
 * Sends requests to one API server with the credentials of a client-node KubeConfig.
 *
 * client-node's generated clients keep headers in a single-value map, which cannot carry several
 * Impersonate-Group lines, so requests go out through node:https directly. The KubeConfig still
 * supplies TLS material and the (possibly refreshed) Authorization header for every request.
 */
export class KubeTransport {
  private agent?: http.Agent;

  constructor(
    private readonly kubeConfig: KubeConfig,
    private readonly options: { timeoutMs?: number } = {},
  ) {}

  get server(): string {
    const server = this.kubeConfig.getCurrentCluster()?.server;
    if (!server) throw new Error('kubeconfig has no current cluster');
    return server.replace(/\/+$/, '');
  }

  async request(req: KubeRequest): Promise<KubeResponse> {
    const url = new URL(this.server + req.path);
    for (const [k, v] of Object.entries(req.query ?? {})) {
      if (v !== undefined) url.searchParams.set(k, v);
    }
    const opts: https.RequestOptions = {};
    await this.kubeConfig.applyToHTTPSOptions(opts);
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(opts.headers ?? {})) {
      if (typeof v === 'string' || Array.isArray(v)) headers[k] = v;
      else if (typeof v === 'number') headers[k] = String(v);
    }
    if (opts.auth) {
      headers.Authorization = `Basic ${Buffer.from(opts.auth).toString(
        'base64',
      )}`;
    }
    headers.Accept = 'application/json';
    if (req.impersonate) {
      headers['Impersonate-User'] = req.impersonate.user;
      if (req.impersonate.groups.length > 0) {
        headers['Impersonate-Group'] = [...req.impersonate.groups];
      }
    }
    let payload: Buffer | undefined;
    if (req.body !== undefined) {
      payload = Buffer.from(JSON.stringify(req.body), 'utf8');
      headers['Content-Type'] = req.contentType ?? 'application/json';
      headers['Content-Length'] = String(payload.length);
    }
    const isHttps = url.protocol === 'https:';
    const agent = this.agentFor(isHttps, opts);
    return new Promise<KubeResponse>((resolve, reject) => {
      const send = isHttps ? https.request : http.request;
      const r = send(
        url,
        {
          method: req.method,
          headers,
          agent,
          timeout: this.options.timeoutMs ?? 30_000,
        },
        res => {
          const chunks: Buffer[] = [];
          let bytes = 0;
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            if (
              req.maxResponseBytes !== undefined &&
              bytes > req.maxResponseBytes
            ) {
              res.destroy();
              reject(
                new KubeTransportError(
                  'response exceeded its size budget',
                  'too_large',
                ),
              );
              return;
            }
            chunks.push(chunk);
          });
          res.on('error', err =>
            reject(new KubeTransportError(err.message, 'network')),
          );
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let body: unknown;
            if (text.length > 0) {
              try {
                body = JSON.parse(text);
              } catch {
                body = undefined;
              }
            }
            resolve({ status: res.statusCode ?? 0, body, bytes });
          });
        },
      );
      r.on('timeout', () => {
        r.destroy(new KubeTransportError('request timed out', 'timeout'));
      });
      r.on('error', err =>
        reject(
          err instanceof KubeTransportError
            ? err
            : new KubeTransportError(err.message, 'network'),
        ),
      );
      if (payload) r.write(payload);
      r.end();
    });
  }

  /** One keep-alive agent per transport, built from the TLS material that the KubeConfig gave. */
  private agentFor(isHttps: boolean, opts: https.RequestOptions): http.Agent {
    if (!this.agent) {
      this.agent = isHttps
        ? new https.Agent({
            keepAlive: true,
            maxSockets: 16,
            ca: opts.ca,
            cert: opts.cert,
            key: opts.key,
            pfx: opts.pfx,
            passphrase: opts.passphrase,
            rejectUnauthorized: opts.rejectUnauthorized,
            servername: opts.servername,
          })
        : new http.Agent({ keepAlive: true, maxSockets: 16 });
    }
    return this.agent;
  }

  /** Closes pooled connections. */
  close(): void {
    this.agent?.destroy();
    this.agent = undefined;
  }
}
