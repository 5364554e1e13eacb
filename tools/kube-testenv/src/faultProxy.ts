import http from 'node:http';
import https from 'node:https';
import { readFileSync } from 'node:fs';
import { AddressInfo } from 'node:net';

/** What the proxy does with a request that a rule matches. */
export type FaultAction =
  | { respond: { status: number; body: string; contentType?: string } }
  | { reset: true }
  | { delayMs: number };

export interface FaultRule {
  method?: string;
  path?: RegExp;
  action: FaultAction;
  /** How many matching requests the rule applies to; unlimited when absent. */
  times?: number;
}

export interface FaultProxy {
  /** Plain-HTTP loopback URL to use as the cluster URL. */
  url: string;
  inject(rule: FaultRule): void;
  clear(): void;
  /** Requests seen, as "METHOD path". */
  readonly seen: string[];
  close(): Promise<void>;
}

/**
 * Node joins repeated request headers into one comma-separated value; rebuild them from the raw
 * lines so that, for example, several Impersonate-Group lines reach the apiserver as sent.
 */
function forwardedHeaders(
  raw: string[],
  host: string,
): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    if (name === 'host') continue;
    const current = headers[name];
    if (current === undefined) headers[name] = raw[i + 1];
    else
      headers[name] = [
        ...(Array.isArray(current) ? current : [current]),
        raw[i + 1],
      ];
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
}): Promise<FaultProxy> {
  const target = new URL(options.target);
  const agent = new https.Agent({
    keepAlive: true,
    ca: options.caFile ? readFileSync(options.caFile) : undefined,
  });
  const rules: FaultRule[] = [];
  const seen: string[] = [];

  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    seen.push(`${req.method} ${path}`);
    const rule = rules.find(
      r =>
        (r.method === undefined || r.method === req.method) &&
        (r.path === undefined || r.path.test(path)) &&
        (r.times === undefined || r.times > 0),
    );
    if (rule?.times !== undefined) rule.times--;
    const forward = () => {
      const upstream = https.request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path,
          headers: forwardedHeaders(req.rawHeaders, target.host),
          agent,
        },
        up => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    };
    if (!rule) {
      forward();
      return;
    }
    const { action } = rule;
    if ('reset' in action) {
      req.resume();
      req.socket.destroy();
    } else if ('respond' in action) {
      req.resume();
      res.writeHead(action.respond.status, {
        'Content-Type': action.respond.contentType ?? 'application/json',
      });
      res.end(action.respond.body);
    } else {
      setTimeout(forward, action.delayMs);
    }
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    inject: rule => rules.unshift(rule),
    clear: () => {
      rules.length = 0;
    },
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>(resolve => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
