import {
  ClusterAdmin,
  FaultProxy,
  eventually,
  startFaultProxy,
  testClusterState,
  useTestNamespace,
} from '@krypton/kube-testenv';
import {
  NativeSecret,
  buildSnapshot,
  kryptonKeys,
  snapshotName,
} from '@krypton/core';
import request from 'supertest';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
  testPolicy,
} from '../../__testUtils__/testBackend';
import { b64, hash32 } from '../../__testUtils__/history';

const KEYS = kryptonKeys('krypton.io');
const CANARY = 'deleted-canary-7f3a';
const BINARY = Buffer.from([0x00, 0xff, 0xfe, 0x80, 0xc3, 0x28]).toString(
  'base64',
);
const MISSING_UID = '00000000-0000-4000-8000-000000000000';
const snapshotNameOf = (item: Listed) => snapshotName(hash32(item.uid), 1);

interface Listed {
  name: string;
  uid: string;
  nameTaken: boolean;
  versions: Array<{ version: number }>;
  [key: string]: unknown;
}

describe('deleted Secrets through HTTP against a real kube-apiserver', () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  let krypton: KryptonTestBackend;
  const api = () => request(krypton.server);
  const base = () => `/api/krypton/namespaces/${ns.name}`;
  const create = (body: Record<string, unknown>, user = 'alice') =>
    api().post(`${base()}/secrets`).set('Authorization', as(user)).send(body);
  const put = async (
    name: string,
    body: Record<string, unknown>,
    user = 'alice',
  ) => {
    const live = await admin.secret(ns.name, name);
    return api()
      .put(`${base()}/secrets/${name}`)
      .set('Authorization', as(user))
      .send({ resourceVersion: live.metadata.resourceVersion, ...body });
  };
  const list = (user = 'alice') =>
    api().get(`${base()}/deleted-secrets`).set('Authorization', as(user));
  const recreate = (name: string, body: unknown, user = 'alice') =>
    api()
      .post(`${base()}/deleted-secrets/${name}/recreate`)
      .set('Authorization', as(user))
      .send(body as object);
  const deleted = async (name: string, user = 'alice'): Promise<Listed[]> => {
    const res = await list(user);
    expect(res.status).toBe(200);
    return (res.body.items as Listed[]).filter(i => i.name === name);
  };
  const removeLive = (name: string) =>
    admin.expect(200, {
      method: 'DELETE',
      path: `/api/v1/namespaces/${ns.name}/secrets/${name}`,
    });
  const snapshotsOf = async (uid: string) =>
    (await admin.snapshots(ns.name))
      .filter(s => s.metadata.annotations?.['krypton.io/source-uid'] === uid)
      .map(s => `${s.metadata.name}@${s.metadata.resourceVersion}`)
      .sort();

  /**
   * What the recorder does on a `kubectl delete`: keeps the final state as the next version,
   * marked final-state, then the Secret goes. Answers the deleted UID.
   */
  async function deleteLikeKubectl(name: string): Promise<string> {
    const live = (await admin.secret(ns.name, name)) as NativeSecret;
    const version = Number(live.metadata.annotations?.['krypton.io/version']);
    const final = await buildSnapshot(live, version, KEYS, {
      by: 'kubernetes:admin',
      via: 'kubectl',
      finalState: true,
      at: new Date().toISOString(),
    });
    await admin.createSecret(
      ns.name,
      final as unknown as Record<string, unknown>,
    );
    await removeLive(name);
    return live.metadata.uid!;
  }

  beforeAll(async () => {
    krypton = await startKryptonBackend();
    for (const user of ['alice', 'root']) {
      await admin.grantSecrets(ns.name, {
        kind: 'User',
        name: `user:default/${user}`,
      });
    }
    await eventually(
      () => api().get(`${base()}/secrets`).set('Authorization', as('alice')),
      r => r.status === 200,
    );
  });
  afterAll(async () => {
    await krypton.stop();
    admin.close();
  });

  it('lists a deleted Secret with its kept versions and who deleted it, never its values', async () => {
    expect(
      (await create({ name: 'gone', data: { password: 'one' } })).status,
    ).toBe(201);
    expect((await put('gone', { data: { password: CANARY } })).status).toBe(
      200,
    );
    // A live Secret with history is not deleted.
    await create({ name: 'alive', data: { k: 'a' } });
    await put('alive', { data: { k: 'b' } });
    const uid = await deleteLikeKubectl('gone');

    const res = await list();
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.items.map((i: Listed) => i.name)).not.toContain('alive');
    const [item] = await deleted('gone');
    expect(item).toEqual({
      name: 'gone',
      uid,
      type: 'Opaque',
      deletedBy: 'kubernetes:admin',
      deletedVia: 'kubectl',
      deletedAt: expect.any(String),
      nameTaken: false,
      versions: [
        expect.objectContaining({
          version: 2,
          finalState: true,
          snapshotBy: 'kubernetes:admin',
          keys: ['password'],
        }),
        expect.objectContaining({
          version: 1,
          snapshotBy: 'user:default/alice',
        }),
      ],
    });
    expect(JSON.stringify(res.body)).not.toContain(CANARY);
    expect(JSON.stringify(res.body)).not.toContain(b64(CANARY));
  });

  it('recreates from a kept version: a new UID at version 1, the old history kept unchanged and apart', async () => {
    const [before] = await deleted('gone');
    const kept = await snapshotsOf(before.uid);
    expect(kept).toHaveLength(2);

    const res = await recreate('gone', { uid: before.uid, version: 1 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'gone',
      version: 1,
      data: { password: 'one' },
    });
    const live = await admin.secret(ns.name, 'gone');
    expect(live.metadata.uid).not.toBe(before.uid);
    expect(live.metadata.annotations?.['krypton.io/version']).toBe('1');
    expect(live.metadata.labels?.['krypton.io/managed-by']).toBe('krypton');
    expect(live.data).toEqual({ password: b64('one') });

    // The old lifetime is kept and still listed, now under a taken name; the new Secret's own
    // history starts empty and never reaches the old snapshots.
    expect(await snapshotsOf(before.uid)).toEqual(kept);
    const [after] = await deleted('gone');
    expect(after).toMatchObject({ uid: before.uid, nameTaken: true });
    expect(after.versions).toEqual(before.versions);
    const own = await api()
      .get(`${base()}/secrets/gone/versions`)
      .set('Authorization', as('alice'));
    expect(own.body.items).toEqual([]);
    await put('gone', { data: { password: 'three' } });
    const next = await api()
      .get(`${base()}/secrets/gone/versions`)
      .set('Authorization', as('alice'));
    expect(next.body.items.map((v: { version: number }) => v.version)).toEqual([
      1,
    ]);
    expect(await snapshotsOf(before.uid)).toEqual(kept);

    const again = await recreate('gone', { uid: before.uid, version: 2 });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      error: 'A Secret with this name already exists.',
    });
  });

  it("keeps a version's original bytes and type, binary values included", async () => {
    await create({
      name: 'raw',
      type: 'example.com/custom',
      binaryData: { blob: BINARY },
      data: { note: 'first' },
    });
    await put('raw', { data: { note: 'second' }, binaryData: {} });
    await removeLive('raw');
    const [item] = await deleted('raw');
    // Deleted outside Krypton without the recorder: nobody kept who did it.
    expect(item.deletedBy).toBeUndefined();
    expect(item.versions.map(v => v.version)).toEqual([1]);
    const res = await recreate('raw', { uid: item.uid, version: 1 });
    expect(res.status).toBe(201);
    const live = await admin.secret(ns.name, 'raw');
    expect(live.type).toBe('example.com/custom');
    expect(live.data).toEqual({ blob: BINARY, note: b64('first') });
  });

  it('answers 409 for a Secret that still lives, and 404 for a history or version that is not kept', async () => {
    const alive = await admin.secret(ns.name, 'alive');
    const own = await recreate('alive', {
      uid: alive.metadata.uid,
      version: 1,
    });
    expect(own.status).toBe(409);
    expect(own.body.error).toMatch(/^This Secret is not deleted/);

    await create({ name: 'brief', data: { k: 'v1' } });
    await put('brief', { data: { k: 'v2' } });
    const uid = (await admin.secret(ns.name, 'brief')).metadata.uid!;
    await removeLive('brief');
    const none = await recreate('brief', { uid: MISSING_UID, version: 1 });
    expect(none.status).toBe(404);
    expect(none.body).toEqual({
      error:
        'Krypton keeps no history of a deleted Secret with this name and UID.',
    });
    const otherName = await recreate('other', { uid, version: 1 });
    expect(otherName.status).toBe(404);
    const noVersion = await recreate('brief', { uid, version: 7 });
    expect(noVersion.status).toBe(404);
    expect(noVersion.body).toEqual({
      error: "That version is not in this Secret's history.",
    });
    expect((await admin.getSecret(ns.name, 'brief')).status).toBe(404);
  });

  it('refuses malformed requests with 400 and snapshot names with 404, writing nothing', async () => {
    const [item] = await deleted('brief');
    for (const body of [
      { uid: item.uid },
      { uid: item.uid, version: 0 },
      { uid: item.uid, version: '1' },
      { uid: item.uid.toUpperCase(), version: 1 },
      { uid: `${item.uid} `, version: 1 },
      { uid: 'x'.repeat(100_000), version: 1 },
      { uid: item.uid, version: 1, name: 'other' },
      [],
    ]) {
      const res = await recreate('brief', body);
      expect(res.status).toBe(400);
      expect(typeof res.body.error).toBe('string');
    }
    const query = await api()
      .post(`${base()}/deleted-secrets/brief/recreate?force=true`)
      .set('Authorization', as('alice'))
      .send({ uid: item.uid, version: 1 });
    expect(query.status).toBe(400);
    const listQuery = await api()
      .get(`${base()}/deleted-secrets?all=true`)
      .set('Authorization', as('alice'));
    expect(listQuery.status).toBe(400);
    const snapshot = (await admin.snapshots(ns.name))[0].metadata.name;
    const snap = await recreate(snapshot!, { uid: item.uid, version: 1 });
    expect(snap.status).toBe(404);
    const badName = await recreate('Not_A_Name', { uid: item.uid, version: 1 });
    expect(badName.status).toBe(400);
    expect((await admin.getSecret(ns.name, 'brief')).status).toBe(404);
  });

  it("needs the user's own right to list the namespace's Secrets, and to create there", async () => {
    const [item] = await deleted('brief');
    // carol has no RBAC in this namespace.
    const listed = await list('carol');
    expect(listed.status).toBe(403);
    expect(listed.body.error).toMatch(/^Access denied/);
    const made = await recreate(
      'brief',
      { uid: item.uid, version: 1 },
      'carol',
    );
    expect(made.status).toBe(403);
    expect((await admin.getSecret(ns.name, 'brief')).status).toBe(404);
  });

  it("gates on the deleted Secret's last rules: listing, restore, and managing access to bring other rules back", async () => {
    await create({
      name: 'ruled',
      data: { k: 'one' },
      access: { owners: ['user:default/alice'] },
    });
    await put('ruled', {
      data: { k: 'two' },
      access: {
        owners: ['user:default/bob'],
        editors: ['user:default/alice'],
      },
    });
    await put('ruled', { data: { k: 'three' } });
    await create({
      name: 'bobs',
      data: { k: 'b' },
      access: { owners: ['user:default/bob'] },
    });
    await put('bobs', { data: { k: 'c' } }, 'root');
    await removeLive('ruled');
    await removeLive('bobs');

    // The last rules of bobs name bob alone: alice does not see it; an admin does.
    expect(await deleted('bobs', 'alice')).toEqual([]);
    const [bobs] = await deleted('bobs', 'root');
    const hidden = await recreate('bobs', { uid: bobs.uid, version: 1 });
    expect(hidden.status).toBe(403);
    expect(hidden.body).toEqual({
      error: "You are not allowed to do this by the Secret's access rules.",
    });

    // alice is an editor under the last rules (v2): she may bring v2 back, with its rules, but
    // not v1, whose rules would make her the owner again.
    const [ruled] = await deleted('ruled');
    expect(ruled.versions.map(v => v.version)).toEqual([2, 1]);
    const older = await recreate('ruled', { uid: ruled.uid, version: 1 });
    expect(older.status).toBe(403);
    expect((await admin.getSecret(ns.name, 'ruled')).status).toBe(404);
    const last = await recreate('ruled', { uid: ruled.uid, version: 2 });
    expect(last.status).toBe(201);
    const live = await admin.secret(ns.name, 'ruled');
    expect(live.metadata.annotations).toMatchObject({
      'krypton.io/owners': 'user:default/bob',
      'krypton.io/editors': 'user:default/alice',
    });
    expect(live.data).toEqual({ k: b64('two') });
  });

  it('needs the krypton.secret.recreate permission beside create', async () => {
    const [item] = await deleted('brief');
    testPolicy.denied.add('user:default/alice:krypton.secret.recreate');
    try {
      const res = await recreate('brief', { uid: item.uid, version: 1 });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        error:
          'You are not allowed to do this by the Backstage permission policy.',
      });
      expect((await list()).status).toBe(200);
    } finally {
      testPolicy.denied.delete('user:default/alice:krypton.secret.recreate');
    }
    testPolicy.denied.add('user:default/alice:krypton.secret.read');
    try {
      expect((await list()).status).toBe(403);
    } finally {
      testPolicy.denied.delete('user:default/alice:krypton.secret.read');
    }
    expect((await admin.getSecret(ns.name, 'brief')).status).toBe(404);
  });

  it('audits every recreate attempt without values', async () => {
    const events = krypton.sink.audits.filter(
      e => e.eventId === 'secret-recreate',
    );
    expect(events).toContainEqual(
      expect.objectContaining({
        status: 'succeeded',
        severityLevel: 'high',
        actor: 'user:default/alice',
        meta: expect.objectContaining({
          name: 'gone',
          namespace: ns.name,
          deletedUid: expect.any(String),
          recreatedFromVersion: '1',
        }),
      }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({ status: 'failed' }),
    );
    expect(krypton.sink.text()).not.toContain(CANARY);
    expect(krypton.sink.text()).not.toContain(b64(CANARY));
    expect(krypton.sink.text()).not.toContain(BINARY);
  });
});

// In hybrid mode Krypton's identity reads the history, and the user's own identity lists the
// namespace and creates: Krypton's identity writes nothing.
describe('deleted Secrets in hybrid mode', () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  let proxy: FaultProxy;
  let krypton: KryptonTestBackend;
  const base = () => `/api/krypton/namespaces/${ns.name}`;

  beforeAll(async () => {
    const state = testClusterState();
    proxy = await startFaultProxy({
      target: state.server,
      caFile: state.caFile || undefined,
    });
    krypton = await startKryptonBackend(
      { kubernetes: { identity: 'hybrid' } },
      { clusterUrl: proxy.url },
    );
    const live = (await admin.createSecret(ns.name, {
      metadata: {
        name: 'old',
        labels: { 'krypton.io/managed-by': 'krypton' },
        annotations: { 'krypton.io/version': '1' },
      },
      data: { k: b64('v1') },
    })) as NativeSecret;
    const snapshot = await buildSnapshot(live, 1, KEYS, {
      by: 'kubernetes:admin',
      finalState: true,
      at: new Date().toISOString(),
    });
    await admin.createSecret(
      ns.name,
      snapshot as unknown as Record<string, unknown>,
    );
    await admin.expect(200, {
      method: 'DELETE',
      path: `/api/v1/namespaces/${ns.name}/secrets/old`,
    });
    // alice may list Secrets but not create them; bob may do both.
    await admin.grantSecrets(
      ns.name,
      { kind: 'User', name: 'user:default/alice' },
      ['list'],
    );
    await admin.grantSecrets(
      ns.name,
      { kind: 'User', name: 'user:default/bob' },
      ['list', 'create'],
    );
    await eventually(
      () =>
        request(krypton.server)
          .get(`${base()}/deleted-secrets`)
          .set('Authorization', as('alice')),
      r => r.status === 200,
    );
  });
  afterAll(async () => {
    await krypton.stop();
    await proxy.close();
    admin.close();
  });

  const impersonated = () =>
    proxy.requests.map(
      r =>
        `${r.method} ${r.path.split('?')[0]} as ${
          r.headers['impersonate-user']?.[0] ?? 'krypton'
        }`,
    );

  it("creates as the user, so Krypton's reads of history never stand in for the user's create right", async () => {
    const listed = await request(krypton.server)
      .get(`${base()}/deleted-secrets`)
      .set('Authorization', as('alice'));
    expect(listed.status).toBe(200);
    const [item] = listed.body.items as Listed[];
    expect(item).toMatchObject({ name: 'old', deletedBy: 'kubernetes:admin' });

    const refused = await request(krypton.server)
      .post(`${base()}/deleted-secrets/old/recreate`)
      .set('Authorization', as('alice'))
      .send({ uid: item.uid, version: 1 });
    expect(refused.status).toBe(403);
    expect((await admin.getSecret(ns.name, 'old')).status).toBe(404);

    proxy.resetRecordings();
    const made = await request(krypton.server)
      .post(`${base()}/deleted-secrets/old/recreate`)
      .set('Authorization', as('bob'))
      .send({ uid: item.uid, version: 1 });
    expect(made.status).toBe(201);
    const secrets = `/api/v1/namespaces/${ns.name}/secrets`;
    expect(impersonated()).toEqual([
      `GET ${secrets} as user:default/bob`,
      `GET ${secrets} as krypton`,
      `GET ${secrets}/${snapshotNameOf(item)} as krypton`,
      `POST ${secrets} as user:default/bob`,
    ]);
    expect((await admin.secret(ns.name, 'old')).data).toEqual({
      k: b64('v1'),
    });
  });
});
