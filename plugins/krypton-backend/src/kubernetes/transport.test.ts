import { KubeConfig } from '@kubernetes/client-node';
import { mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeTransport, KubeTransportOptions } from './transport';

/** A local plain-HTTP server whose answers the test chooses. */
async function serve(handler: http.RequestListener) {
  const server = http.createServer(handler);
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

function transportFor(
  url: string,
  user: Record<string, unknown>,
  options: KubeTransportOptions = {},
) {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: url, skipTLSVerify: true }],
    users: [{ name: 'u', ...user }],
    contexts: [{ name: 'c', cluster: 'c', user: 'u' }],
    currentContext: 'c',
  });
  return new KubeTransport(kc, options);
}

describe('KubeTransport', () => {
  it('re-reads a rotated token file, and only then', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'krypton-token-'));
    const tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, 'first');
    const seen: Array<string | undefined> = [];
    const server = await serve((req, res) => {
      seen.push(req.headers.authorization);
      res.end('{}');
    });
    const transport = transportFor(
      server.url,
      { authProvider: { name: 'tokenFile', config: { tokenFile } } },
      { fileCheckIntervalMs: 0 },
    );
    try {
      await transport.request({ method: 'GET', path: '/a' });
      await transport.request({ method: 'GET', path: '/a' });
      writeFileSync(tokenFile, 'second');
      // Some file systems keep the mtime within one tick; make the change visible.
      const later = new Date(Date.now() + 5000);
      utimesSync(tokenFile, later, later);
      await transport.request({ method: 'GET', path: '/a' });
    } finally {
      transport.close();
      server.close();
    }
    expect(seen).toEqual(['Bearer first', 'Bearer first', 'Bearer second']);
  });

  it('sends several Impersonate-Group lines and a static token', async () => {
    let headers: string[] = [];
    const server = await serve((req, res) => {
      headers = req.rawHeaders;
      res.end('{}');
    });
    const transport = transportFor(server.url, { token: 't' });
    await transport.request({
      method: 'GET',
      path: '/a',
      impersonate: { user: 'alice', groups: ['g1', 'g2'] },
    });
    transport.close();
    server.close();
    const pairs: string[] = [];
    for (let i = 0; i < headers.length; i += 2)
      pairs.push(`${headers[i].toLowerCase()}: ${headers[i + 1]}`);
    expect(pairs).toEqual(
      expect.arrayContaining([
        'authorization: Bearer t',
        'impersonate-user: alice',
        'impersonate-group: g1',
        'impersonate-group: g2',
      ]),
    );
  });

  it('gives up on a request at its deadline', async () => {
    const server = await serve(() => undefined);
    const transport = transportFor(
      server.url,
      { token: 't' },
      { deadlineMs: 200 },
    );
    const started = Date.now();
    await expect(
      transport.request({ method: 'GET', path: '/slow' }),
    ).rejects.toMatchObject({ name: 'KubeTransportError', reason: 'timeout' });
    expect(Date.now() - started).toBeLessThan(5000);
    transport.close();
    server.close();
  });

  it('caps the size of an answer', async () => {
    const server = await serve((_req, res) => res.end('x'.repeat(64 * 1024)));
    const transport = transportFor(
      server.url,
      { token: 't' },
      { maxResponseBytes: 1024 },
    );
    await expect(
      transport.request({ method: 'GET', path: '/big' }),
    ).rejects.toMatchObject({ reason: 'too_large' });
    await expect(
      transport.request({
        method: 'GET',
        path: '/big',
        maxResponseBytes: 128 * 1024,
      }),
    ).resolves.toMatchObject({ status: 200, bytes: 64 * 1024 });
    transport.close();
    server.close();
  });
});
