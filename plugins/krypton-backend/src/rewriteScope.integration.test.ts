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

/** A user of this file only: the right to list namespaces is cluster-wide. */
const DAVE = 'dave-rewrite-scope';
const DAVE_ROLE = 'krypton-test-dave-rewrite-scope-namespaces';

function daveNamespaces() {
  return {
    clusterroles: {
      metadata: { name: DAVE_ROLE },
      rules: [{ apiGroups: [''], resources: ['namespaces'], verbs: ['list'] }],
    },
    clusterrolebindings: {
      metadata: { name: DAVE_ROLE },
      roleRef: {
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'ClusterRole',
        name: DAVE_ROLE,
      },
      subjects: [
        {
          apiGroup: 'rbac.authorization.k8s.io',
          kind: 'User',
          name: `user:default/${DAVE}`,
        },
      ],
    },
  };
}

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
    // alice and dave may list the Secrets of one namespace only, bob of both.
    for (const user of ['alice', DAVE]) {
      await admin.grantSecrets(
        listed.name,
        { kind: 'User', name: `user:default/${user}` },
        ['list'],
      );
    }
    for (const ns of [hidden.name, listed.name]) {
      await admin.grantSecrets(ns, { kind: 'User', name: 'user:default/bob' }, [
        'list',
      ]);
    }
    // dave may also list every namespace of the cluster.
    for (const [kind, body] of Object.entries(daveNamespaces())) {
      const res = await admin.transport.request({
        method: 'POST',
        path: `/apis/rbac.authorization.k8s.io/v1/${kind}`,
        body,
      });
      if (res.status !== 201) throw new Error(`${kind}: ${res.status}`);
    }
    await eventually(
      () => rewrite(impersonating, listed.name),
      r => r.status === 200,
    );
    // RBAC reaches the authorizer a moment after it is written.
    await eventually(
      () =>
        request(impersonating.server)
          .post('/api/krypton/storage-rewrite')
          .query({ namespace: hidden.name, dryRun: 'true' })
          .set('Authorization', as('bob')),
      r => r.status === 200,
    );
    await eventually(
      () =>
        request(impersonating.server)
          .post('/api/krypton/storage-rewrite')
          .query({ dryRun: 'true' })
          .set('Authorization', as(DAVE)),
      r => r.status === 200 && r.body.namespaces.length === 1,
    );
  });
  afterAll(async () => {
    for (const kind of Object.keys(daveNamespaces())) {
      await admin.transport.request({
        method: 'DELETE',
        path: `/apis/rbac.authorization.k8s.io/v1/${kind}/${DAVE_ROLE}`,
      });
    }
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
      expect(res.body.counts).toMatchObject({ seen: 1, failed: 0 });
      expect(res.body.oldKeyRetirement.verdict).toBe('ready');
      expect(JSON.stringify(res.body)).not.toContain(hidden.name);
    }
  });

  it('shows in /last only the namespaces whose Secrets the caller may list', async () => {
    // bob may list both namespaces, and leaves a run of each in the database.
    for (const ns of [hidden.name, listed.name]) {
      const res = await request(impersonating.server)
        .post('/api/krypton/storage-rewrite')
        .query({ namespace: ns })
        .set('Authorization', as('bob'));
      expect(res.status).toBe(200);
    }
    const last = (user: string) =>
      request(impersonating.server)
        .get('/api/krypton/storage-rewrite/last')
        .set('Authorization', as(user));
    const namespacesOf = (res: request.Response) =>
      res.body.runs.map((r: { namespace: string }) => r.namespace).sort();
    const bobs = await last('bob');
    expect(namespacesOf(bobs)).toEqual([hidden.name, listed.name].sort());
    const alices = await last('alice');
    expect(alices.status).toBe(200);
    expect(namespacesOf(alices)).toEqual([listed.name]);
    expect(JSON.stringify(alices.body)).not.toContain(hidden.name);
  });

  it('keeps a cluster-wide run in impersonation mode to the namespaces whose Secrets the caller may list', async () => {
    // dave may list every namespace, but the Secrets of one only.
    const res = await request(impersonating.server)
      .post('/api/krypton/storage-rewrite')
      .set('Authorization', as(DAVE));
    expect(res.status).toBe(200);
    expect(res.body.namespaces).toEqual([listed.name]);
    expect(res.body.counts.seen).toBe(1);
    expect(JSON.stringify(res.body)).not.toContain(hidden.name);
  });

  it('keeps a cluster-wide run in serviceAccount mode to the listed namespaces', async () => {
    const res = await rewrite(serviceAccount);
    expect([200, 207]).toContain(res.status);
    expect(res.body.namespaces).toEqual([listed.name]);
    expect(JSON.stringify(res.body)).not.toContain(hidden.name);
  });
});
