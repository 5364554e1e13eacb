import { useTestNamespace } from '@krypton/kube-testenv';
import { messages } from '@krypton/plugin-krypton-common';
import request from 'supertest';
import { b64 } from './__testUtils__/history';
import { AdminClient, eventually } from './__testUtils__/rbac';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from './__testUtils__/testBackend';

/**
 * The storage rewrite runs as Krypton's identity, so its scope must be what the caller could see:
 * a namespace whose Secrets the caller may not list answers 403 and names nothing in it.
 */
describe('storage rewrite scope', () => {
  const hidden = useTestNamespace();
  const listed = useTestNamespace();
  const admin = new AdminClient();
  let impersonating: KryptonTestBackend;
  let serviceAccount: KryptonTestBackend;
  const rewrite = (backend: KryptonTestBackend, namespace?: string) =>
    request(backend.server)
      .post('/api/krypton/storage-rewrite')
      .query(namespace === undefined ? {} : { namespace })
      .set('Authorization', as('alice'));

  beforeAll(async () => {
    [impersonating, serviceAccount] = await Promise.all([
      startKryptonBackend(),
      startKryptonBackend({
        kubernetes: {
          identity: 'serviceAccount',
          serviceAccountMode: { namespaces: [listed.name] },
        },
      }),
    ]);
    for (const ns of [hidden.name, listed.name]) {
      await admin.createSecret(ns, {
        metadata: {
          name: `managed-in-${ns}`,
          labels: { 'krypton.io/managed-by': 'krypton' },
        },
        data: { k: b64('v') },
      });
    }
    // alice may list the Secrets of one namespace only.
    await admin.grantSecrets(
      listed.name,
      { kind: 'User', name: 'user:default/alice' },
      ['list'],
    );
    await eventually(
      () => rewrite(impersonating, listed.name),
      r => r.status === 200,
    );
  });
  afterAll(async () => {
    await Promise.all([impersonating.stop(), serviceAccount.stop()]);
    admin.close();
  });

  it('refuses a namespace whose Secrets the caller may not list, naming nothing there', async () => {
    for (const backend of [impersonating, serviceAccount]) {
      const res = await rewrite(backend, hidden.name);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: messages.rewriteScope });
    }
  });

  it('rewrites a namespace the caller may list', async () => {
    for (const backend of [impersonating, serviceAccount]) {
      const res = await rewrite(backend, listed.name);
      expect(res.status).toBe(200);
      expect(res.body.namespaces).toEqual([listed.name]);
      const names = [...res.body.rewritten, ...res.body.alreadyCurrent].map(
        (o: { name: string }) => o.name,
      );
      expect(names).toEqual([`managed-in-${listed.name}`]);
    }
  });

  it('keeps a cluster-wide run in serviceAccount mode to the listed namespaces', async () => {
    const res = await rewrite(serviceAccount);
    expect([200, 207]).toContain(res.status);
    expect(res.body.namespaces).toEqual([listed.name]);
    expect(JSON.stringify(res.body)).not.toContain(hidden.name);
  });
});
