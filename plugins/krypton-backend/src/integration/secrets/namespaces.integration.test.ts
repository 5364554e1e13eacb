import {
  useTestNamespace,
  ClusterAdmin,
  eventually,
} from '@krypton/kube-testenv';
import { messages } from '@krypton/core';
import { randomBytes } from 'crypto';
import request from 'supertest';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
  testPolicy,
} from '../../__testUtils__/testBackend';

/**
 * The platform page's namespace picker: the list is made as the user, so Kubernetes RBAC decides
 * it, except in serviceAccount mode, where the operator's allow-list is the answer.
 */
describe('GET /namespaces', () => {
  const ns = useTestNamespace('krypton-ns');
  const admin = new ClusterAdmin();
  // A user of this file only: no other test's user gains a cluster-wide right while it runs.
  const lister = `nslister-${randomBytes(4).toString('hex')}`;
  const grant = `krypton-test-${lister}`;
  const allowList = ['zeta-team', 'alpha-team', 'payments'];
  let impersonating: KryptonTestBackend;
  let hybrid: KryptonTestBackend;
  let serviceAccount: KryptonTestBackend;

  const get = (
    backend: KryptonTestBackend,
    user: string | undefined,
    path = '/api/krypton/namespaces',
  ) => {
    const req = request(backend.server).get(path);
    return user === undefined ? req : req.set('Authorization', as(user));
  };

  beforeAll(async () => {
    [impersonating, hybrid, serviceAccount] = await Promise.all([
      startKryptonBackend(),
      startKryptonBackend({ kubernetes: { identity: 'hybrid' } }),
      // No Kubernetes behind it at all: the allow-list needs no call.
      startKryptonBackend(
        {
          kubernetes: {
            identity: 'serviceAccount',
            serviceAccountMode: { namespaces: allowList },
          },
        },
        { clusterUrl: 'http://127.0.0.1:9' },
      ),
    ]);
    await admin.grantClusterWide(
      grant,
      { kind: 'User', name: `user:default/${lister}` },
      [{ apiGroups: [''], resources: ['namespaces'], verbs: ['list'] }],
    );
    await eventually(
      () => get(impersonating, lister),
      r => r.status === 200,
    );
  });
  afterAll(async () => {
    await admin.revokeClusterWide(grant).catch(() => undefined);
    await Promise.all([
      impersonating.stop(),
      hybrid.stop(),
      serviceAccount.stop(),
    ]);
    admin.close();
  });
  afterEach(() => testPolicy.reset());

  it('lists, as the user, the names of every namespace, sorted', async () => {
    for (const [backend, path] of [
      [impersonating, '/api/krypton/namespaces'],
      [impersonating, '/api/krypton/clusters/test/namespaces'],
      [hybrid, '/api/krypton/namespaces'],
    ] as const) {
      const res = await get(backend, lister, path);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(Object.keys(res.body)).toEqual(['items']);
      const items: unknown[] = res.body.items;
      expect(items.every(item => typeof item === 'string')).toBe(true);
      expect(items).toContain(ns.name);
      expect(items).toContain('krypton-system');
      expect(items).toEqual([...(items as string[])].sort());
    }
    // Listing namespaces reveals no values and changes nothing: no audit event.
    expect(impersonating.sink.audits).toEqual([]);
    expect(
      testPolicy.requests.map(r => `${r.permission} ${r.resourceRef ?? '-'}`),
    ).toContain('krypton.secret.read -');
  });

  it('refuses a user whom Kubernetes RBAC refuses, with the fixed 403 and no names', async () => {
    for (const backend of [impersonating, hybrid]) {
      const res = await get(backend, 'carol');
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: messages.forbiddenKubernetes });
      expect(res.text).not.toContain(ns.name);
      expect(res.text).not.toContain('krypton-system');
      // Impersonation headers from the client never pass through.
      const forged = await get(backend, 'carol')
        .set('Impersonate-User', 'system:admin')
        .set('Impersonate-Group', 'system:masters');
      expect(forged.status).toBe(403);
      expect(forged.body).toEqual({ error: messages.forbiddenKubernetes });
    }
  });

  it('refuses a user whom the permission policy denies krypton.secret.read', async () => {
    testPolicy.denied.add(`user:default/${lister}:krypton.secret.read`);
    for (const backend of [impersonating, serviceAccount]) {
      const res = await get(backend, lister);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: messages.forbiddenPermission });
      expect(res.text).not.toContain(ns.name);
      expect(res.text).not.toContain('alpha-team');
    }
  });

  it("answers serviceAccount mode's allow-list, sorted, without asking Kubernetes", async () => {
    // carol has no RBAC at all, and this backend's cluster does not answer: the list comes from
    // the configuration, never from Krypton's identity, which would see every namespace.
    for (const path of [
      '/api/krypton/namespaces',
      '/api/krypton/clusters/test/namespaces',
    ]) {
      const res = await get(serviceAccount, 'carol', path);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({
        items: ['alpha-team', 'payments', 'zeta-team'],
      });
    }
  });

  it('refuses query parameters, unknown clusters and callers without a sign-in', async () => {
    for (const query of ['?limit=5', '?namespace=x', '?continue=abc']) {
      const res = await get(
        impersonating,
        lister,
        `/api/krypton/namespaces${query}`,
      );
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^Unknown query parameter/);
      expect(res.text).not.toContain(ns.name);
    }
    const unknown = await get(
      impersonating,
      lister,
      '/api/krypton/clusters/elsewhere/namespaces',
    );
    expect(unknown.status).toBe(404);
    for (const backend of [impersonating, serviceAccount]) {
      const res = await get(backend, undefined);
      expect(res.status).toBe(401);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.text).not.toContain(ns.name);
      expect(res.text).not.toContain('alpha-team');
    }
  });
});
