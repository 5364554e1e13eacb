import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ControlPlane, startControlPlane } from './controlPlane';
import { Credentials, credentialsOf, kubeHttp } from './__testUtils__/kubeHttp';
import { descendantsOf, listenersOf } from './__testUtils__/procfs';

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

describe('the kube-testenv launcher', () => {
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
      const created = await kubeHttp(
        credentialsOf(state, 'admin'),
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

// One launch serves every check of a running control plane, and last the check that stopping it
// leaves no process or port behind (afterAll's stop is then a no-op).
describe('a running control plane', () => {
  let cp: ControlPlane;
  beforeAll(async () => {
    cp = await startControlPlane();
  });
  afterAll(async () => {
    await cp?.stop();
  });

  it('listens on loopback addresses only, in etcd and in kube-apiserver alike', () => {
    const processes = [
      { pid: cp.state.pid, ppid: process.pid, name: 'kube-testenv' },
      ...descendantsOf(cp.state.pid),
    ];
    const listeners = processes.map(p => ({
      name: p.name,
      listeners: listenersOf(p.pid),
    }));
    expect(listeners.map(p => p.name)).toEqual(
      expect.arrayContaining(['etcd', 'kube-apiserver']),
    );
    const countOf = (name: string) =>
      listeners
        .filter(p => p.name === name)
        .reduce((n, p) => n + p.listeners.length, 0);
    expect(countOf('etcd')).toBeGreaterThan(0);
    expect(countOf('kube-apiserver')).toBeGreaterThan(0);
    const exposed = listeners.flatMap(p =>
      p.listeners
        .filter(l => !l.loopback)
        .map(l => `${p.name} on ${l.address} port ${l.port}`),
    );
    expect(exposed).toEqual([]);
  });

  describe("Krypton's identity may impersonate users and groups, and nothing else", () => {
    let krypton: Credentials;
    beforeAll(() => {
      krypton = credentialsOf(cp.state, 'krypton');
    });
    const review = (headers: Record<string, string | string[]>) =>
      kubeHttp(krypton, '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
        method: 'POST',
        body: JSON.stringify({
          apiVersion: 'authentication.k8s.io/v1',
          kind: 'SelfSubjectReview',
        }),
        headers,
      });

    it('impersonates a user with groups', async () => {
      const res = await review({
        'Impersonate-User': 'alice',
        'Impersonate-Group': ['team-a', 'team-x'],
      });
      expect(res.status).toBe(201);
      expect(JSON.parse(res.body).status.userInfo).toMatchObject({
        username: 'alice',
        groups: ['team-a', 'team-x', 'system:authenticated'],
      });
    });

    it.each([
      [
        'a ServiceAccount',
        { 'Impersonate-User': 'system:serviceaccount:default:default' },
        'serviceaccounts',
      ],
      [
        'a UID',
        { 'Impersonate-User': 'alice', 'Impersonate-Uid': 'alice-uid' },
        'uids',
      ],
      [
        'an extra',
        { 'Impersonate-User': 'alice', 'Impersonate-Extra-Foo': 'bar' },
        'userextras/foo',
      ],
    ])('may not impersonate %s', async (_what, headers, resource) => {
      const res = await review(headers);
      expect(res.status).toBe(403);
      // The refusal comes from the impersonation check, not from the request itself.
      expect(JSON.parse(res.body).message).toContain(
        `cannot impersonate resource "${resource}"`,
      );
    });
  });

  it('serves on loopback with RBAC, then stops without leaving processes or ports', async () => {
    const { state } = cp;
    const apiPort = portOf(state.server);
    const etcdPort = portOf(state.etcdUrl);
    expect(await isListening(apiPort)).toBe(true);
    expect(await isListening(etcdPort)).toBe(true);

    const ok = await kubeHttp(credentialsOf(state, 'admin'), '/readyz');
    expect(ok.status).toBe(200);
    // An unprivileged user holds no rights by default.
    const carol = await kubeHttp(
      credentialsOf(state, 'carol'),
      '/api/v1/namespaces/default/secrets',
    );
    expect(carol.status).toBe(403);

    await cp.stop();
    expect(isAlive(state.pid)).toBe(false);
    expect(await isListening(apiPort)).toBe(false);
    expect(await isListening(etcdPort)).toBe(false);
  });
});
