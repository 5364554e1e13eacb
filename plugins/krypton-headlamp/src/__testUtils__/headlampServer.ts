import http from 'node:http';
import https from 'node:https';
import { readFileSync } from 'node:fs';
import { AddressInfo } from 'node:net';

/** One request as it reached the stand-in. */
export interface SeenRequest {
  method: string;
  /** The path and query the browser asked for, `/clusters/<name>` included. */
  url: string;
  accept: string;
}

export interface HeadlampServer {
  /** Plain-HTTP loopback origin, like Headlamp's own `http://localhost:4466`. */
  url: string;
  readonly seen: SeenRequest[];
  close(): Promise<void>;
}

/** Headers a proxy must not pass on (RFC 9110 section 7.6.1), plus what it replaces. */
const NOT_FORWARDED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'host',
  // Headlamp turns the browser's session into the user's token; neither reaches the cluster.
  'cookie',
  'authorization',
]);

/**
 * A stand-in for Headlamp's server, for tests: `/clusters/<cluster>/<API path>` is forwarded to
 * the API server with `Authorization: Bearer <token>`, the credentials of the signed-in user, as
 * Headlamp's server forwards it with the token of the user's session. Method, query, body and the
 * remaining headers pass unchanged, both ways, as through the Go reverse proxy in Headlamp; any
 * other path, or another cluster's, answers 404.
 */
export async function startHeadlampServer(options: {
  apiServer: string;
  caFile: string;
  cluster: string;
  token: string;
}): Promise<HeadlampServer> {
  const upstream = new URL(options.apiServer);
  const agent = new https.Agent({
    keepAlive: true,
    ca: options.caFile ? readFileSync(options.caFile) : undefined,
  });
  const prefix = `/clusters/${options.cluster}/`;
  const seen: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    const url = req.url ?? '';
    seen.push({
      method: req.method ?? '',
      url,
      accept: String(req.headers.accept ?? ''),
    });
    if (!url.startsWith(prefix)) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    const headers: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (!NOT_FORWARDED.has(name) && value !== undefined)
        headers[name] = value;
    }
    headers.authorization = `Bearer ${options.token}`;
    const forward = (upstream.protocol === 'https:' ? https : http).request(
      {
        protocol: upstream.protocol,
        hostname: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: url.slice(prefix.length - 1),
        headers,
        agent: upstream.protocol === 'https:' ? agent : undefined,
      },
      answer => {
        const back: http.OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(answer.headers)) {
          if (!NOT_FORWARDED.has(name) && value !== undefined)
            back[name] = value;
        }
        res.writeHead(answer.statusCode ?? 502, back);
        answer.pipe(res);
      },
    );
    // The reverse proxy's answer when the API server cannot be reached.
    forward.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    req.pipe(forward);
  });
  await new Promise<void>(resolve =>
    server.listen(0, '127.0.0.1', () => resolve()),
  );
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>(resolve => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
