import { KubeConfig } from '@kubernetes/client-node';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startControlPlane } from './controlPlane';

jest.setTimeout(120_000);

function portOf(url: string): number {
  return Number(new URL(url).port);
}

function isListening(port: number): Promise<boolean> {
  return new Promise(resolve => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function adminFetch(
  kubeconfig: string,
  path: string,
  init: RequestInit = {},
) {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  const token = kc.getCurrentUser()?.token;
  const server = kc.getCurrentCluster()!.server;
  // The launcher's CA is private, and Node's fetch cannot take a CA per request.
  const opts: https.RequestOptions = {};
  await kc.applyToHTTPSOptions(opts);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = https.request(
      `${server}${path}`,
      {
        method: init.method ?? 'GET',
        ca: opts.ca,
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
        },
      },
      res => {
        let body = '';
        res.on('data', c => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    if (init.body) req.write(init.body);
    req.end();
  });
}

describe('the kube-testenv launcher', () => {
  it('serves on loopback with RBAC, then stops without leaving processes or ports', async () => {
    const cp = await startControlPlane();
    const { state } = cp;
    const apiPort = portOf(state.server);
    const etcdPort = portOf(state.etcdUrl);
    expect(await isListening(apiPort)).toBe(true);
    expect(await isListening(etcdPort)).toBe(true);

    const ok = await adminFetch(state.identities.admin.kubeconfig, '/readyz');
    expect(ok.status).toBe(200);
    // An unprivileged user holds no rights by default.
    const carol = await adminFetch(
      state.identities.carol.kubeconfig,
      '/api/v1/namespaces/default/secrets',
    );
    expect(carol.status).toBe(403);

    await cp.stop();
    expect(isAlive(state.pid)).toBe(false);
    expect(await isListening(apiPort)).toBe(false);
    expect(await isListening(etcdPort)).toBe(false);
  });

  it('encrypts Secrets at rest with the given EncryptionConfiguration', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'krypton-enc-'));
    const config = join(dir, 'encryption.yaml');
    writeFileSync(
      config,
      [
        'apiVersion: apiserver.config.k8s.io/v1',
        'kind: EncryptionConfiguration',
        'resources:',
        '  - resources: [secrets]',
        '    providers:',
        '      - aescbc:',
        '          keys:',
        `            - name: key1`,
        `              secret: ${randomBytes(32).toString('base64')}`,
        '      - identity: {}',
      ].join('\n'),
    );
    const cp = await startControlPlane({ encryptionConfig: config });
    try {
      const { state } = cp;
      const created = await adminFetch(
        state.identities.admin.kubeconfig,
        '/api/v1/namespaces/default/secrets',
        {
          method: 'POST',
          body: JSON.stringify({
            metadata: { name: 'enc' },
            stringData: { v: 'plaintext-marker' },
          }),
        },
      );
      expect(created.status).toBe(201);
      // Read the stored bytes straight from etcd through its JSON gateway.
      const key = Buffer.from('/registry/secrets/default/enc').toString(
        'base64',
      );
      const res = await fetch(`${state.etcdUrl}/v3/kv/range`, {
        method: 'POST',
        body: JSON.stringify({ key }),
      });
      const { kvs } = (await res.json()) as { kvs: Array<{ value: string }> };
      const stored = Buffer.from(kvs[0].value, 'base64').toString('latin1');
      expect(stored.startsWith('k8s:enc:aescbc:v1:key1:')).toBe(true);
      expect(stored).not.toContain('plaintext-marker');
    } finally {
      await cp.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
