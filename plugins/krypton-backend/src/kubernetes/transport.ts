import { KubeConfig } from '@kubernetes/client-node';
import {
  KRYPTON_FIELD_MANAGER,
  KUBE_MAX_RESPONSE_BYTES,
  KUBE_REQUEST_DEADLINE_MS,
} from '@krypton/core';
import { readFile, stat } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import { timed } from '../diagnostics/serverTiming';
import { version } from '../../package.json';

// Kubernetes names a write's field manager after the User-Agent up to its first "/": every write
// of the server is then `krypton`'s, the name that server-side apply conflicts give.
const KRYPTON_USER_AGENT = `${KRYPTON_FIELD_MANAGER}/${version}`;

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
  /** Defaults to application/json. */
  accept?: string;
  impersonate?: Impersonation;
  /** Abort the response once it exceeds this many bytes; the transport's default otherwise. */
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
    readonly reason: 'network' | 'timeout' | 'too_large',
  ) {
    super(message);
    this.name = 'KubeTransportError';
  }
}

export interface KubeTransportOptions {
  /** Overall deadline of one request, from sending to the end of the answer. */
  deadlineMs?: number;
  /** Largest answer accepted when a request names no budget of its own. */
  maxResponseBytes?: number;
  /** How often the TLS and token files are checked for changes. */
  fileCheckIntervalMs?: number;
}

// The same budgets as every host of Krypton's engines (the core's RestKubeGateway).
const DEFAULTS = {
  deadlineMs: KUBE_REQUEST_DEADLINE_MS,
  maxResponseBytes: KUBE_MAX_RESPONSE_BYTES,
  fileCheckIntervalMs: 10_000,
};

/** A file whose content the connection depends on, and the modification time it was read at. */
interface WatchedFile {
  path: string;
  mtimeMs: number;
}

interface Connection {
  agent: http.Agent;
  /** Authorization header value, when the credentials are static or file-based. */
  authorization?: string;
  /** Credentials from an exec plugin or auth provider, asked of client-node per request. */
  pluginAuth: boolean;
  /** Files to re-read when they change: CA, client certificate and key, token file. */
  files: WatchedFile[];
  checkedAt: number;
}

async function mtimeOf(path: string): Promise<number> {
  return (await stat(path)).mtimeMs;
}

/**
 * Sends requests to one API server with the credentials of a client-node KubeConfig.
 *
 * client-node's generated clients keep headers in a single-value map, which cannot carry several
 * Impersonate-Group lines, so requests go out through node:https directly. The TLS material and
 * the keep-alive agent are built once and rebuilt only when their files change (rotated
 * certificates, projected ServiceAccount tokens); each request only adds its headers. Every
 * request has an overall deadline and a response-size cap.
 */
export class KubeTransport {
  private connection?: Promise<Connection>;
  private readonly settings: Required<KubeTransportOptions>;
  readonly server: string;

  constructor(
    private readonly kubeConfig: KubeConfig,
    options: KubeTransportOptions = {},
  ) {
    this.settings = { ...DEFAULTS, ...options };
    const server = kubeConfig.getCurrentCluster()?.server;
    if (!server) throw new Error('kubeconfig has no current cluster');
    this.server = server.replace(/\/+$/, '');
  }

  /** Builds the agent and static headers from the KubeConfig, reading each file once. */
  private async connect(): Promise<Connection> {
    const cluster = this.kubeConfig.getCurrentCluster()!;
    const user = this.kubeConfig.getCurrentUser();
    const files: WatchedFile[] = [];
    const load = async (path?: string, inline?: string) => {
      if (path) {
        files.push({ path, mtimeMs: await mtimeOf(path) });
        return readFile(path);
      }
      return inline ? Buffer.from(inline, 'base64') : undefined;
    };
    const isHttps = this.server.startsWith('https:');
    const agent = isHttps
      ? new https.Agent({
          keepAlive: true,
          maxSockets: 16,
          ca: await load(cluster.caFile, cluster.caData),
          cert: await load(user?.certFile, user?.certData),
          key: await load(user?.keyFile, user?.keyData),
          rejectUnauthorized: cluster.skipTLSVerify !== true,
          servername: cluster.tlsServerName,
        })
      : new http.Agent({ keepAlive: true, maxSockets: 16 });

    let authorization: string | undefined;
    const tokenFile = user?.authProvider?.config?.tokenFile as
      | string
      | undefined;
    if (user?.token) {
      authorization = `Bearer ${user.token}`;
    } else if (user?.username) {
      authorization = `Basic ${Buffer.from(
        `${user.username}:${user.password ?? ''}`,
      ).toString('base64')}`;
    } else if (user?.authProvider?.name === 'tokenFile' && tokenFile) {
      const token = (await load(tokenFile))!.toString('utf8').trim();
      authorization = `Bearer ${token}`;
    }
    const pluginAuth =
      authorization === undefined &&
      (user?.exec !== undefined || user?.authProvider !== undefined);
    return { agent, authorization, pluginAuth, files, checkedAt: Date.now() };
  }

  /**
   * The current connection. Files are checked at most once per interval; when one changed, the
   * next requests use a new agent, and the old one is closed once its requests had time to end.
   */
  private async current(): Promise<Connection> {
    this.connection ??= this.connect();
    let conn: Connection;
    try {
      conn = await this.connection;
    } catch (err) {
      this.connection = undefined;
      throw err;
    }
    if (Date.now() - conn.checkedAt < this.settings.fileCheckIntervalMs)
      return conn;
    conn.checkedAt = Date.now();
    const changed = await Promise.all(
      conn.files.map(f =>
        mtimeOf(f.path).then(
          m => m !== f.mtimeMs,
          () => true,
        ),
      ),
    );
    if (changed.some(Boolean)) {
      const next = this.connect();
      this.connection = next;
      const old = conn.agent;
      setTimeout(() => old.destroy(), this.settings.deadlineMs).unref();
      return next;
    }
    return conn;
  }

  /**
   * Credentials that only client-node knows how to produce (exec plugins, OIDC, cloud). It also
   * rebuilds TLS options on each call, so this path is slower; Backstage's cluster config
   * (a ServiceAccount token) and the in-cluster token file never take it.
   */
  private async pluginAuthorization(): Promise<string | undefined> {
    const opts: https.RequestOptions = {};
    await this.kubeConfig.applyToHTTPSOptions(opts);
    const headers = opts.headers;
    if (!headers || Array.isArray(headers)) return undefined;
    const value = (headers as http.OutgoingHttpHeaders).Authorization;
    return typeof value === 'string' ? value : undefined;
  }

  request(req: KubeRequest): Promise<KubeResponse> {
    return timed('kube', () => this.exchange(req));
  }

  private async exchange(req: KubeRequest): Promise<KubeResponse> {
    const conn = await this.current();
    const url = new URL(this.server + req.path);
    for (const [k, v] of Object.entries(req.query ?? {})) {
      if (v !== undefined) url.searchParams.set(k, v);
    }
    const headers: Record<string, string | string[]> = {
      Accept: req.accept ?? 'application/json',
      // Kubernetes names the field manager of a write after the client (what precedes the first
      // "/"), so managedFields and the portal's "last change" say "krypton", not "unknown".
      'User-Agent': KRYPTON_USER_AGENT,
    };
    const authorization = conn.pluginAuth
      ? await this.pluginAuthorization()
      : conn.authorization;
    if (authorization) headers.Authorization = authorization;
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
    const maxBytes = req.maxResponseBytes ?? this.settings.maxResponseBytes;
    const signal = AbortSignal.timeout(this.settings.deadlineMs);
    const send = url.protocol === 'https:' ? https.request : http.request;

    return new Promise<KubeResponse>((resolve, reject) => {
      const r = send(
        url,
        { method: req.method, headers, agent: conn.agent, signal },
        res => {
          const chunks: Buffer[] = [];
          let bytes = 0;
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            if (bytes > maxBytes) {
              res.destroy(
                new KubeTransportError(
                  'response exceeded its size budget',
                  'too_large',
                ),
              );
              return;
            }
            chunks.push(chunk);
          });
          res.on('error', err => reject(classify(err, signal)));
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
      r.on('error', err => reject(classify(err, signal)));
      r.end(payload);
    });
  }

  /** Closes pooled connections. */
  close(): void {
    const conn = this.connection;
    this.connection = undefined;
    conn?.then(c => c.agent.destroy()).catch(() => undefined);
  }
}

function classify(err: Error, signal: AbortSignal): KubeTransportError {
  if (err instanceof KubeTransportError) return err;
  if (signal.aborted)
    return new KubeTransportError('request deadline exceeded', 'timeout');
  return new KubeTransportError(err.message, 'network');
}
