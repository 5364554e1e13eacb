import http from 'node:http';
import https from 'node:https';
import { readFileSync } from 'node:fs';
import { AddressInfo } from 'node:net';

/** What the proxy does with a request that a rule matches. */
export type FaultAction =
  | { respond: { status: number; body: string; contentType?: string } }
  /** Drops the client's connection without forwarding: the apiserver never sees the request. */
  | { reset: true }
  /**
   * Forwards the request, reads the apiserver's whole response, then resets the client's
   * connection instead of answering: the request took effect, but the client cannot know.
   * Only for requests whose response ends (not watches).
   */
  | { resetAfterForward: true }
  /** Forwards the request after this long; for clients that wait that long. */
  | { delayMs: number }
  /**
   * Neither forwards nor answers: the request waits at the proxy until the client gives up (its
   * deadline) or the proxy closes. The apiserver never sees it: a timeout before the request
   * took effect.
   */
  | { hold: true }
  /**
   * Forwards the request at once and reads the apiserver's whole answer, then relays it only
   * after this long: the request took effect, the answer is late. A client whose deadline is
   * shorter has gone by then (a timeout after the request took effect) and the answer is
   * dropped. Only for requests whose response ends (not watches).
   */
  | { delayAfterForwardMs: number }
  /**
   * Forwards the request at once, reads the apiserver's whole answer, then answers with a chosen
   * body instead: the request took effect (a write is applied), and the client gets an answer the
   * apiserver would not send, such as a real list page with a corrupted continuation or a 200
   * that cannot be parsed. `body` is fixed, or made from the apiserver's body; `status` is the
   * apiserver's when absent. Only for requests whose response ends (not watches).
   */
  | { respondAfterForward: AfterForwardAnswer };

/** The answer of a respondAfterForward action. */
export interface AfterForwardAnswer {
  status?: number;
  body: string | ((upstream: { status: number; body: string }) => string);
  contentType?: string;
}

export interface FaultRule {
  method?: string;
  path?: RegExp;
  action: FaultAction;
  /** How many matching requests the rule applies to; unlimited when absent. */
  times?: number;
}

/** One request as it reached the proxy. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** Lowercased header names; every header line is its own value, in the order received. */
  headers: Record<string, string[]>;
}

export interface FaultProxy {
  /** Loopback URL to use as the cluster URL: HTTPS with `serving`, plain HTTP without. */
  url: string;
  inject(rule: FaultRule): void;
  /** Removes every rule; the recordings stay (see resetRecordings). */
  clear(): void;
  /** Requests seen, as "METHOD path". */
  readonly seen: string[];
  /** Requests seen, with their headers; in the same order as `seen`. */
  readonly requests: RecordedRequest[];
  /** Empties `seen` and `requests` in place. */
  resetRecordings(): void;
  close(): Promise<void>;
}

/** Groups raw header lines by lowercased name, keeping repeated lines apart. */
function headerLines(raw: string[]): Record<string, string[]> {
  const headers: Record<string, string[]> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    (headers[name] ??= []).push(raw[i + 1]);
  }
  return headers;
}

/**
 * Node joins repeated request headers into one comma-separated value; rebuild them from the raw
 * lines so that, for example, several Impersonate-Group lines reach the apiserver as sent.
 */
function forwardedHeaders(
  lines: Record<string, string[]>,
  host: string,
): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, values] of Object.entries(lines)) {
    if (name === 'host') continue;
    headers[name] = values.length === 1 ? values[0] : [...values];
  }
  headers.host = host;
  return headers;
}

/**
 * A loopback proxy in front of the test apiserver that fails or delays chosen requests, for the
 * failure shapes a real server cannot be made to produce on demand.
 */
export async function startFaultProxy(options: {
  target: string;
  caFile?: string;
  /**
   * A certificate and key to serve HTTPS with, for a client that refuses plain HTTP (such as
   * kubectl krypton); `loopbackServingCertificate()` is one that the cluster's CA signed.
   */
  serving?: { cert: Buffer; key: Buffer };
}): Promise<FaultProxy> {
  const target = new URL(options.target);
  const agent = new https.Agent({
    keepAlive: true,
    ca: options.caFile ? readFileSync(options.caFile) : undefined,
  });
  const rules: FaultRule[] = [];
  const seen: string[] = [];
  const requests: RecordedRequest[] = [];

  const handle: http.RequestListener = (req, res) => {
    const path = req.url ?? '/';
    const method = req.method ?? 'GET';
    const lines = headerLines(req.rawHeaders);
    seen.push(`${method} ${path}`);
    requests.push({ method, path, headers: lines });
    const rule = rules.find(
      r =>
        (r.method === undefined || r.method === method) &&
        (r.path === undefined || r.path.test(path)) &&
        (r.times === undefined || r.times > 0),
    );
    if (rule?.times !== undefined) rule.times--;
    const forward = (onResponse: (up: http.IncomingMessage) => void) => {
      const upstream = https.request(
        {
          host: target.hostname,
          port: target.port,
          method,
          path,
          headers: forwardedHeaders(lines, target.host),
          agent,
        },
        onResponse,
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    };
    const relay = (up: http.IncomingMessage) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    };
    if (!rule) {
      forward(relay);
      return;
    }
    const { action } = rule;
    if ('reset' in action) {
      req.resume();
      req.socket.destroy();
    } else if ('resetAfterForward' in action) {
      forward(up => {
        // Waiting for the end means the apiserver has committed the change before the client
        // loses the connection; an RST rather than a FIN is what a dropped link looks like.
        up.resume();
        up.once('end', () => req.socket.resetAndDestroy());
        up.once('error', () => req.socket.resetAndDestroy());
      });
    } else if ('hold' in action) {
      // Read the body so the client's send completes, then never answer.
      req.resume();
    } else if ('delayAfterForwardMs' in action) {
      let gone = false;
      let timer: NodeJS.Timeout | undefined;
      // Also emitted after a normal end; by then there is nothing left to cancel.
      res.once('close', () => {
        gone = true;
        clearTimeout(timer);
      });
      forward(up => {
        const chunks: Buffer[] = [];
        up.on('data', (chunk: Buffer) => chunks.push(chunk));
        up.once('error', () => res.destroy());
        up.once('end', () => {
          if (gone) return;
          timer = setTimeout(() => {
            const body = Buffer.concat(chunks);
            const headers = { ...up.headers };
            // Relayed whole, so the length is known even when the apiserver sent chunks.
            delete headers['transfer-encoding'];
            headers['content-length'] = String(body.length);
            res.writeHead(up.statusCode ?? 502, headers);
            res.end(body);
          }, action.delayAfterForwardMs);
        });
      });
    } else if ('respondAfterForward' in action) {
      const answer = action.respondAfterForward;
      forward(up => {
        const chunks: Buffer[] = [];
        up.on('data', (chunk: Buffer) => chunks.push(chunk));
        up.once('error', () => res.destroy());
        up.once('end', () => {
          const status = up.statusCode ?? 502;
          const body =
            typeof answer.body === 'string'
              ? answer.body
              : answer.body({
                  status,
                  body: Buffer.concat(chunks).toString('utf8'),
                });
          res.writeHead(answer.status ?? status, {
            'Content-Type': answer.contentType ?? 'application/json',
          });
          res.end(body);
        });
      });
    } else if ('respond' in action) {
      req.resume();
      res.writeHead(action.respond.status, {
        'Content-Type': action.respond.contentType ?? 'application/json',
      });
      res.end(action.respond.body);
    } else {
      setTimeout(() => forward(relay), action.delayMs);
    }
  };
  const server = options.serving
    ? https.createServer(options.serving, handle)
    : http.createServer(handle);
  // Node closes a connection idle for 5 s by default; a client that reuses it just then gets a
  // reset that no rule asked for. Idle connections stay open until the client or close() ends
  // them, so every failure a test sees is one it injected.
  server.keepAliveTimeout = 0;
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.serving ? 'https' : 'http'}://127.0.0.1:${port}`,
    inject: rule => rules.unshift(rule),
    clear: () => {
      rules.length = 0;
    },
    seen,
    requests,
    resetRecordings: () => {
      // In place, because callers may hold the arrays.
      seen.length = 0;
      requests.length = 0;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>(resolve => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
