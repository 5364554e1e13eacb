import { readFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import { readFileSync } from 'node:fs';
import { AddressInfo, Socket } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import {
  HeadlampServer,
  startHeadlampServer,
} from '../src/__testUtils__/headlampServer';

/** Where Headlamp's server lists a development plugin, and the folder it serves it from. */
export const PLUGIN_FOLDER = 'krypton-headlamp';

export interface HeadlampHost {
  /** Loopback origin of the page, a secure context for Web Crypto as `localhost` is. */
  url: string;
  /** The stand-in that forwards `/clusters/<cluster>/...` with the user's token. */
  readonly clusters: HeadlampServer;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.png': 'image/png',
};

/**
 * Headlamp's i18n backend imports its translations as modules
 * (`import('./locales/<lng>/<ns>.json?import=default')`), which Vite leaves to run time in a page
 * build; Headlamp's own build bundles them. They are served as the modules it expects.
 */
const LOCALES = join(
  __dirname,
  '../node_modules/@kinvolk/headlamp-plugin/lib/i18n/locales',
);

/**
 * What Headlamp's server does for its frontend, in Node: it serves the built page (any other
 * path answers the page, as a single-page app), lists the plugin at `/plugins` and serves its
 * `main.js` and `package.json` from `/plugins/<folder>/`, as Headlamp does for a plugin in its
 * plugins directory, and forwards `/clusters/<cluster>/...` to the API server with the user's
 * token: plain requests through the tests' stand-in (headlampServer.ts), and WebSocket upgrades
 * (Headlamp's watches) straight to the API server, which the stand-in does not do.
 */
export async function startHeadlampHost(options: {
  /** browser-host/dist, the built page. */
  pageDir: string;
  /** The plugin's built `main.js` (dist/main.js of `headlamp-plugin build`). */
  pluginMain: string;
  /** The plugin's package.json as the archive ships it. */
  pluginPackageJson: Record<string, unknown>;
  apiServer: string;
  caFile: string;
  cluster: string;
  token: string;
}): Promise<HeadlampHost> {
  const clusters = await startHeadlampServer({
    apiServer: options.apiServer,
    caFile: options.caFile,
    cluster: options.cluster,
    token: options.token,
  });
  const stand = new URL(clusters.url);
  const upstream = new URL(options.apiServer);
  const ca = options.caFile ? readFileSync(options.caFile) : undefined;
  const pluginPrefix = `/plugins/${PLUGIN_FOLDER}/`;
  const clusterPrefix = `/clusters/${options.cluster}/`;
  const sockets = new Set<Socket>();

  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    const path = url.split('?')[0];
    if (url.startsWith('/clusters/')) {
      const forward = http.request(
        {
          hostname: stand.hostname,
          port: stand.port,
          method: req.method,
          path: url,
          headers: req.headers,
        },
        answer => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => {
        if (!res.headersSent) res.writeHead(502).end();
        else res.destroy();
      });
      req.pipe(forward);
      return;
    }
    if (req.method !== 'GET') {
      res.writeHead(405).end();
      return;
    }
    if (path === '/plugins') {
      // Headlamp's server lists each plugin by its folder; the loader fetches `<path>/main.js`.
      sendJson(res, [
        {
          name: PLUGIN_FOLDER,
          path: `plugins/${PLUGIN_FOLDER}`,
          type: 'development',
        },
      ]);
      return;
    }
    if (path === `${pluginPrefix}package.json`) {
      sendJson(res, options.pluginPackageJson);
      return;
    }
    if (path === `${pluginPrefix}main.js`) {
      void sendFile(res, options.pluginMain);
      return;
    }
    const locale = /^\/assets\/locales\/([a-zA-Z-]+)\/(\w+)\.json$/.exec(path);
    if (locale) {
      void sendLocale(res, join(LOCALES, locale[1], `${locale[2]}.json`));
      return;
    }
    void sendPage(res, options.pageDir, path);
  });
  server.on('connection', socket => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('upgrade', (req, socket: Socket, head: Buffer) => {
    const url = req.url ?? '';
    if (!url.startsWith(clusterPrefix)) {
      socket.destroy();
      return;
    }
    // Origin passes: the API server's watch (golang.org/x/net/websocket) refuses a handshake
    // without one.
    const headers: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (
        value !== undefined &&
        !['host', 'cookie', 'authorization'].includes(name)
      )
        headers[name] = value;
    }
    headers.authorization = `Bearer ${options.token}`;
    const forward = https.request({
      hostname: upstream.hostname,
      port: upstream.port,
      path: url.slice(clusterPrefix.length - 1),
      method: 'GET',
      headers,
      ca,
    });
    forward.on('upgrade', (answer, upSocket, upHead) => {
      const lines = [`HTTP/1.1 101 Switching Protocols`];
      for (let i = 0; i < answer.rawHeaders.length; i += 2)
        lines.push(`${answer.rawHeaders[i]}: ${answer.rawHeaders[i + 1]}`);
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (upHead.length > 0) socket.write(upHead);
      if (head.length > 0) upSocket.write(head);
      upSocket.pipe(socket).pipe(upSocket);
      upSocket.on('error', () => socket.destroy());
      socket.on('error', () => upSocket.destroy());
      socket.on('close', () => upSocket.destroy());
    });
    forward.on('response', answer => {
      socket.end(`HTTP/1.1 ${answer.statusCode ?? 502} Refused\r\n\r\n`);
      answer.resume();
    });
    forward.on('error', () => socket.destroy());
    forward.end();
  });

  await new Promise<void>(resolve =>
    server.listen(0, '127.0.0.1', () => resolve()),
  );
  const { port } = server.address() as AddressInfo;
  return {
    // A loopback origin is a secure context, so the page has Web Crypto without TLS.
    url: `http://127.0.0.1:${port}`,
    clusters,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>(resolve => server.close(() => resolve()));
      await clusters.close();
    },
  };
}

function sendJson(res: http.ServerResponse, body: unknown): void {
  res
    .writeHead(200, { 'Content-Type': 'application/json' })
    .end(JSON.stringify(body));
}

async function sendFile(res: http.ServerResponse, file: string): Promise<void> {
  try {
    const bytes = await readFile(file);
    res
      .writeHead(200, {
        'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
      })
      .end(bytes);
  } catch {
    res.writeHead(404).end();
  }
}

async function sendLocale(res: http.ServerResponse, file: string) {
  try {
    const json = await readFile(file, 'utf8');
    res
      .writeHead(200, { 'Content-Type': TYPES['.js'] })
      .end(`export default ${json};`);
  } catch {
    res.writeHead(404).end();
  }
}

/** A file of the built page, or the page itself for any path that names none (client routes). */
async function sendPage(
  res: http.ServerResponse,
  pageDir: string,
  path: string,
): Promise<void> {
  const file = normalize(join(pageDir, decodeURIComponent(path)));
  if (file.startsWith(pageDir + sep) && extname(file) !== '') {
    await sendFile(res, file);
    return;
  }
  await sendFile(res, join(pageDir, 'index.html'));
}
