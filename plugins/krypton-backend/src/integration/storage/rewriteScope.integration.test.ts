import {
  useTestNamespace,
  ClusterAdmin,
  eventually,
} from '@krypton/kube-testenv';
import { messages, STORAGE_REWRITE_RUN_MESSAGES } from '@krypton/core';
import request from 'supertest';
import { b64 } from '../../__testUtils__/history';
import { rewriteToEnd } from '../../__testUtils__/storageRewrite';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from '../../__testUtils__/testBackend';

/** A user of this file only: the right to list namespaces is cluster-wide. */
const DAVE = 'dave-rewrite-scope';
/** Another, who may list every namespace and the Secrets of both of this file's. */
const ERIN = 'erin-rewrite-scope';
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
      subjects: [DAVE, ERIN].map(user => ({
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'User',
        name: `user:default/${user}`,
      })),
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
  const admin = new ClusterAdmin();
  let impersonating: KryptonTestBackend;
  let serviceAccount: KryptonTestBackend;
  const rewrite = (
    backend: KryptonTestBackend,
    namespace?: string,
    user = 'alice',
    dryRun = false,
  ) => {
    const query = new URLSearchParams(
      namespace === undefined ? {} : { namespace },
    );
    if (dryRun) query.set('dryRun', 'true');
    return rewriteToEnd(backend, query.size ? `?${query}` : '', { user });
  };

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
      for (const user of ['bob', ERIN]) {
        await admin.grantSecrets(
          ns,
          { kind: 'User', name: `user:default/${user}` },
          ['list'],
        );
      }
    }
    // dave and erin may also list every namespace of the cluster.
    for (const [kind, body] of Object.entries(daveNamespaces())) {
      const res = await admin.request({
        method: 'POST',
        path: `/apis/rbac.authorization.k8s.io/v1/${kind}`,
        body,
      });
      if (res.status !== 201) throw new Error(`${kind}: ${res.status}`);
    }
    await eventually(
      () => rewrite(impersonating, listed.name, 'alice', true),
      r => r.run?.state === 'succeeded',
    );
    // RBAC reaches the authorizer a moment after it is written.
    await eventually(
      () => rewrite(impersonating, hidden.name, 'bob', true),
      r => r.run?.state === 'succeeded',
    );
    await eventually(
      () => rewrite(impersonating, undefined, DAVE, true),
      r => r.result?.namespaces.length === 1,
    );
  });
  afterAll(async () => {
    for (const kind of Object.keys(daveNamespaces())) {
      await admin.request({
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
      expect(res.start.status).toBe(403);
      expect(res.start.body).toEqual({ error: messages.rewriteScope });
    }
  });

  it('rewrites a namespace the caller may list', async () => {
    for (const backend of [impersonating, serviceAccount]) {
      const res = await rewrite(backend, listed.name);
      expect(res.run?.state).toBe('succeeded');
      expect(res.result?.namespaces).toEqual([listed.name]);
      expect(res.result?.counts).toMatchObject({ seen: 1, failed: 0 });
      expect(res.result?.oldKeyRetirement.verdict).toBe('ready');
      expect(JSON.stringify(res.run)).not.toContain(hidden.name);
    }
  });

  it('shows in /last only the namespaces whose Secrets the caller may list', async () => {
    // bob may list both namespaces, and leaves a run of each in the database.
    for (const ns of [hidden.name, listed.name]) {
      const res = await rewrite(impersonating, ns, 'bob');
      expect(res.run?.state).toBe('succeeded');
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
    const res = await rewrite(impersonating, undefined, DAVE);
    expect(res.run).toMatchObject({ scope: '*', state: 'succeeded' });
    expect(res.result?.namespaces).toEqual([listed.name]);
    expect(res.result?.counts.seen).toBe(1);
    expect(JSON.stringify(res.run)).not.toContain(hidden.name);
  });

  it('keeps a cluster-wide run in serviceAccount mode to the listed namespaces', async () => {
    const res = await rewrite(serviceAccount);
    expect(res.run?.scope).toBe('*');
    expect(['succeeded', 'failed']).toContain(res.run?.state);
    expect(res.result?.namespaces).toEqual([listed.name]);
    expect(JSON.stringify(res.run)).not.toContain(hidden.name);
  });

  it('shows a run only to callers who may list its namespace, and the names of a cluster-wide run filtered', async () => {
    const runs = (user: string, query: Record<string, string> = {}) =>
      request(impersonating.server)
        .get('/api/krypton/storage-rewrite/runs')
        .query(query)
        .set('Authorization', as(user));
    const read = (user: string, id: string) =>
      request(impersonating.server)
        .get(`/api/krypton/storage-rewrite/runs/${id}`)
        .set('Authorization', as(user));
    // erin may list both namespaces; the cluster-wide run she starts covers both.
    const bobsHidden = await rewrite(impersonating, hidden.name, 'bob');
    const erinsAll = await rewrite(impersonating, undefined, ERIN);
    expect(erinsAll.result?.namespaces).toEqual(
      expect.arrayContaining([hidden.name, listed.name]),
    );
    const hiddenId = bobsHidden.run!.id;
    const allId = erinsAll.run!.id;

    const bobs = await runs('bob');
    expect(bobs.status).toBe(200);
    expect(bobs.headers['cache-control']).toBe('no-store');
    const bobsIds = bobs.body.runs.map((r: { id: string }) => r.id);
    // Newest first.
    expect(bobsIds.slice(0, 2)).toEqual([allId, hiddenId]);

    // alice may not list the hidden namespace: its run is unknown to her, 404 as any unknown id.
    const alices = await runs('alice');
    expect(alices.status).toBe(200);
    const alicesIds = alices.body.runs.map((r: { id: string }) => r.id);
    expect(alicesIds).not.toContain(hiddenId);
    expect(alicesIds).toContain(allId);
    expect(await read('alice', hiddenId)).toMatchObject({
      status: 404,
      body: { error: STORAGE_REWRITE_RUN_MESSAGES.notFound },
    });
    const cancelHidden = await request(impersonating.server)
      .post(`/api/krypton/storage-rewrite/runs/${hiddenId}/cancel`)
      .set('Authorization', as('alice'));
    expect(cancelHidden.status).toBe(404);
    // The cluster-wide run shows her only the names of the namespaces she may list.
    const all = await read('alice', allId);
    expect(all.status).toBe(200);
    expect(all.body.result.namespaces).toEqual([listed.name]);
    expect(all.body.result.counts).toEqual(erinsAll.result?.counts);
    expect(JSON.stringify(all.body)).not.toContain(hidden.name);
    expect(JSON.stringify(alices.body)).not.toContain(hidden.name);

    // ?namespace=: the runs of that namespace, and the cluster-wide runs that reached it.
    const ofHidden = await runs('bob', { namespace: hidden.name });
    expect(
      ofHidden.body.runs.map((r: { id: string }) => r.id).slice(0, 2),
    ).toEqual([allId, hiddenId]);
    expect(
      ofHidden.body.runs.every(
        (r: { scope: string }) => r.scope === hidden.name || r.scope === '*',
      ),
    ).toBe(true);
    expect((await runs('alice', { namespace: hidden.name })).body).toEqual({
      runs: [],
    });
    expect((await runs('alice', { namespace: 'Not A Namespace' })).status).toBe(
      400,
    );
  });
});
