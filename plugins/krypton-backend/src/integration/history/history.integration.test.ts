import {
  FaultProxy,
  startFaultProxy,
  testClusterState,
  useTestNamespace,
  ClusterAdmin,
  eventually,
} from '@krypton/kube-testenv';
import { NativeSecret } from '@krypton/core';
import request from 'supertest';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from '../../__testUtils__/testBackend';
import { b64 } from '../../__testUtils__/history';

const CANARY = 'history-canary-5d1e';
const BINARY = Buffer.from([0x00, 0xff, 0xfe, 0x80, 0xc3, 0x28]).toString(
  'base64',
);
const versionOf = (s: NativeSecret) =>
  s.metadata.annotations?.['krypton.io/version'];

describe('history through HTTP against a real kube-apiserver', () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  let proxy: FaultProxy;
  let krypton: KryptonTestBackend;
  const api = () => request(krypton.server);
  const base = () => `/api/krypton/namespaces/${ns.name}/secrets`;
  const create = (body: Record<string, unknown>, user = 'alice') =>
    api().post(base()).set('Authorization', as(user)).send(body);
  const get = (name: string, user = 'alice') =>
    api().get(`${base()}/${name}`).set('Authorization', as(user));
  const put = (name: string, body: Record<string, unknown>, user = 'alice') =>
    api().put(`${base()}/${name}`).set('Authorization', as(user)).send(body);
  const versions = (name: string, user = 'alice') =>
    api().get(`${base()}/${name}/versions`).set('Authorization', as(user));
  const version = (name: string, v: number | string, user = 'alice') =>
    api().get(`${base()}/${name}/versions/${v}`).set('Authorization', as(user));
  const restore = (
    name: string,
    body: Record<string, unknown>,
    user = 'alice',
  ) =>
    api()
      .post(`${base()}/${name}/restore`)
      .set('Authorization', as(user))
      .send(body);
  const remove = (name: string, query: string, user = 'alice') =>
    api().delete(`${base()}/${name}?${query}`).set('Authorization', as(user));
  /** Changes the data and returns the answer; the revision is read first. */
  const edit = async (name: string, data: Record<string, string>) => {
    const current = await get(name);
    return put(name, { resourceVersion: current.body.resourceVersion, data });
  };
  const snapshotsOf = async (uid: string) =>
    (await admin.snapshots(ns.name)).filter(
      s => s.metadata.annotations?.['krypton.io/source-uid'] === uid,
    );

  beforeAll(async () => {
    const state = testClusterState();
    proxy = await startFaultProxy({
      target: state.server,
      caFile: state.caFile || undefined,
    });
    krypton = await startKryptonBackend({}, { clusterUrl: proxy.url });
    for (const user of ['alice', 'root']) {
      await admin.grantSecrets(ns.name, {
        kind: 'User',
        name: `user:default/${user}`,
      });
    }
    await eventually(
      () => api().get(base()).set('Authorization', as('alice')),
      r => r.status === 200,
    );
  });
  afterEach(() => proxy.clear());
  afterAll(async () => {
    await krypton.stop();
    await proxy.close();
    admin.close();
  });

  it('archives each replaced state, lists versions newest first and reads one with its values', async () => {
    const created = await create({ name: 'db', data: { password: 'one' } });
    expect(created.status).toBe(201);
    const second = await edit('db', { password: 'two' });
    expect(second.status).toBe(200);
    expect(second.body.version).toBe(2);
    await edit('db', { password: CANARY });

    const list = await versions('db');
    expect(list.status).toBe(200);
    expect(list.headers['cache-control']).toBe('no-store');
    expect(list.body.items.map((v: { version: number }) => v.version)).toEqual([
      2, 1,
    ]);
    expect(list.body.items[1]).toEqual({
      version: 1,
      snapshotAt: expect.any(String),
      snapshotBy: 'user:default/alice',
      sourceType: 'Opaque',
      sourceResourceVersion: created.body.resourceVersion,
      keys: ['password'],
    });
    expect(JSON.stringify(list.body)).not.toContain(b64('one'));

    const v1 = await version('db', 1);
    expect(v1.status).toBe(200);
    expect(v1.body).toMatchObject({
      name: 'db',
      version: 1,
      data: { password: 'one' },
      binaryData: {},
    });

    const snaps = await snapshotsOf(created.body.uid);
    expect(snaps).toHaveLength(2);
    for (const s of snaps) {
      expect(s.metadata.name).toMatch(/^krypton-h-[0-9a-f]{32}-v[12]$/);
      expect(s.immutable).toBe(true);
      expect(s.type).toBe('Opaque');
      expect(s.metadata.labels).toMatchObject({
        'krypton.io/managed-by': 'krypton',
        'krypton.io/kind': 'history',
      });
      expect(s.metadata.annotations?.['krypton.io/history-of']).toBe('db');
    }
    // Snapshots never show in the list, and their names are 404 on every route.
    const names = (
      await api().get(base()).set('Authorization', as('alice'))
    ).body.items.map((s: { name: string }) => s.name);
    expect(names).toEqual(['db']);
    const snapName = snaps[0].metadata.name!;
    for (const res of [
      await get(snapName, 'root'),
      await versions(snapName, 'root'),
      await version(snapName, 1, 'root'),
      await restore(snapName, { version: 1, resourceVersion: '1' }, 'root'),
      await remove(snapName, 'resourceVersion=1&bogus=1', 'root'),
    ]) {
      expect(res.status).toBe(404);
    }
  });

  it('keeps snapshot names within 60 characters for a 253-character live name', async () => {
    const name = [61, 63, 63, 63].map((n, i) => 'abcd'[i].repeat(n)).join('.');
    expect(name).toHaveLength(253);
    const created = await create({ name, data: { k: 'v1' } });
    expect(created.status).toBe(201);
    expect((await edit(name, { k: 'v2' })).status).toBe(200);
    const [snap] = await snapshotsOf(created.body.uid);
    expect(snap.metadata.name!.length).toBeLessThanOrEqual(60);
    expect(snap.metadata.annotations?.['krypton.io/history-of']).toBe(name);
    expect(
      Object.values(snap.metadata.labels ?? {}).some(v => v === name),
    ).toBe(false);
  });

  it('restores binary data, a BOM, __proto__ and empty values byte-exact, keeping live metadata', async () => {
    const data = JSON.parse(
      `{"__proto__":"p","bom":"\\ufeffhello","empty":""}`,
    );
    const created = await create({
      name: 'exact',
      data,
      binaryData: { 'blob.bin': BINARY },
      access: { owners: ['user:default/alice'] },
    });
    const original = (await admin.secret(ns.name, 'exact')).data;
    await edit('exact', { plain: 'replaced' });
    await admin.patchSecret(ns.name, 'exact', {
      metadata: {
        finalizers: ['example.com/keep'],
        annotations: { 'krypton.io/description': 'current' },
      },
    });
    const current = await get('exact');
    const res = await restore('exact', {
      version: 1,
      resourceVersion: current.body.resourceVersion,
    });
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(3);
    const stored = await admin.secret(ns.name, 'exact');
    expect(stored.data).toEqual(original);
    expect(Object.keys(stored.data!).sort()).toEqual(
      ['__proto__', 'blob.bin', 'bom', 'empty'].sort(),
    );
    expect(stored.metadata.uid).toBe(created.body.uid);
    expect(stored.metadata.finalizers).toEqual(['example.com/keep']);
    expect(stored.metadata.annotations?.['krypton.io/description']).toBe(
      'current',
    );
    expect(stored.metadata.annotations?.['krypton.io/owners']).toBe(
      'user:default/alice',
    );
    // Rolling back is itself reversible: the state rolled back from is v2.
    const v2 = await version('exact', 2);
    expect(v2.body.data).toEqual({ plain: 'replaced' });
    await admin.patchSecret(ns.name, 'exact', {
      metadata: { finalizers: null },
    });
  });

  it('refuses restores of pending, stale, unknown and immutable-changing targets', async () => {
    await create({ name: 'frozen', data: { a: '1' } });
    await edit('frozen', { a: '2' });
    await admin.patchSecret(ns.name, 'frozen', { immutable: true });
    let current = await get('frozen');
    // The live state is v2; only v1 is history.
    const live = await restore('frozen', {
      version: 2,
      resourceVersion: current.body.resourceVersion,
    });
    expect(live.status).toBe(404);
    const change = await restore('frozen', {
      version: 1,
      resourceVersion: current.body.resourceVersion,
    });
    expect(change.status).toBe(422);
    expect(change.body).toEqual({
      error: 'The Secret is immutable: its data cannot be changed.',
    });

    await create({ name: 'same', data: { a: '1' } });
    await edit('same', { a: '2' });
    await edit('same', { a: '1' });
    await admin.patchSecret(ns.name, 'same', { immutable: true });
    current = await get('same');
    const identical = await restore('same', {
      version: 1,
      resourceVersion: current.body.resourceVersion,
    });
    expect(identical.status).toBe(200);
    expect(identical.body.resourceVersion).toBe(current.body.resourceVersion);

    const stale = await restore('same', { version: 1, resourceVersion: '1' });
    expect(stale.status).toBe(409);
    const unknown = await restore('same', {
      version: 9,
      resourceVersion: current.body.resourceVersion,
    });
    expect(unknown.body).toEqual({
      error: "That version is not in this Secret's history.",
    });

    await create({ name: 'leaving', data: { a: '1' } });
    await edit('leaving', { a: '2' });
    await admin.patchSecret(ns.name, 'leaving', {
      metadata: { finalizers: ['example.com/hold'] },
    });
    const before = await get('leaving');
    const deleted = await remove(
      'leaving',
      `resourceVersion=${before.body.resourceVersion}&keepHistory=true`,
    );
    expect(deleted.status).toBe(202);
    const pending = await get('leaving');
    expect(pending.body.deletionTimestamp).toBeTruthy();
    const refused = await restore('leaving', {
      version: 1,
      resourceVersion: pending.body.resourceVersion,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/being deleted/);
    await admin.patchSecret(ns.name, 'leaving', {
      metadata: { finalizers: null },
    });
  });

  it('answers a source conflict with 409 when a saved snapshot outlived a failed write and the Secret changed', async () => {
    const created = await create({ name: 'conflict', data: { k: 'v1' } });
    proxy.inject({
      method: 'PUT',
      path: /\/secrets\/conflict$/,
      action: { respond: { status: 500, body: '{}' } },
      times: 1,
    });
    const failed = await put('conflict', {
      resourceVersion: created.body.resourceVersion,
      data: { k: 'v2' },
    });
    expect(failed.status).toBe(503);
    expect(await snapshotsOf(created.body.uid)).toHaveLength(1);
    // An exact-source retry would reuse it; instead the Secret changes outside Krypton.
    await admin.patchSecret(ns.name, 'conflict', {
      metadata: { annotations: { 'example.com/touched': 'yes' } },
    });
    const retry = await edit('conflict', { k: 'v2' });
    expect(retry.status).toBe(409);
    expect(retry.body.error).toMatch(/already holds this version/);
    expect((await admin.secret(ns.name, 'conflict')).data).toEqual({
      k: b64('v1'),
    });
  });

  it('reuses the snapshot of an exact-source retry', async () => {
    const created = await create({ name: 'retry', data: { k: 'v1' } });
    proxy.inject({
      method: 'PUT',
      path: /\/secrets\/retry$/,
      action: { reset: true },
      times: 1,
    });
    const body = {
      resourceVersion: created.body.resourceVersion,
      data: { k: 'v2' },
    };
    expect((await put('retry', body)).status).toBe(503);
    const [first] = await snapshotsOf(created.body.uid);
    const retried = await put('retry', body, 'root');
    expect(retried.status).toBe(200);
    const [again] = await snapshotsOf(created.body.uid);
    expect(again.metadata.uid).toBe(first.metadata.uid);
    expect(again.metadata.annotations?.['krypton.io/snapshot-by']).toBe(
      'user:default/alice',
    );
  });

  it('blocks the write with 503 and counts when a finalizer holds an old snapshot', async () => {
    const limited = await startKryptonBackend({ historyLimit: 1 });
    try {
      const created = await create({ name: 'held', data: { k: 'v1' } });
      await edit('held', { k: 'v2' });
      const [old] = await snapshotsOf(created.body.uid);
      await admin.patchSecret(ns.name, old.metadata.name!, {
        metadata: { finalizers: ['example.com/hold'] },
      });
      const before = await admin.secret(ns.name, 'held');
      const res = await request(limited.server)
        .put(`${base()}/held`)
        .set('Authorization', as('alice'))
        .send({
          resourceVersion: before.metadata.resourceVersion,
          data: { k: 'v3' },
        });
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        error: expect.stringContaining('1 pending'),
        history: { confirmedAbsent: 0, pending: 1, failed: 0 },
      });
      const after = await admin.secret(ns.name, 'held');
      expect(after.metadata.resourceVersion).toBe(
        before.metadata.resourceVersion,
      );
      await admin.patchSecret(ns.name, old.metadata.name!, {
        metadata: { finalizers: null },
      });
    } finally {
      await limited.stop();
    }
  });

  it.each([
    ['1', 1],
    ['100', 100],
  ])(
    'keeps KRYPTON_HISTORY_LIMIT=%s snapshots per live Secret',
    async (raw, limit) => {
      process.env.KRYPTON_HISTORY_LIMIT = raw;
      const limited = await startKryptonBackend();
      delete process.env.KRYPTON_HISTORY_LIMIT;
      try {
        const name = `limit-${limit}`;
        const created = await create({ name, data: { k: '0' } });
        let rv = created.body.resourceVersion;
        for (let i = 1; i <= 3; i++) {
          const res = await request(limited.server)
            .put(`${base()}/${name}`)
            .set('Authorization', as('alice'))
            .send({ resourceVersion: rv, data: { k: String(i) } });
          expect(res.status).toBe(200);
          rv = res.body.resourceVersion;
        }
        const kept = await snapshotsOf(created.body.uid);
        expect(kept.map(versionOf).sort()).toEqual(
          limit === 1 ? ['3'] : ['1', '2', '3'],
        );
      } finally {
        await limited.stop();
      }
    },
  );

  it('refuses history writes with 503 while KRYPTON_HISTORY_LIMIT is invalid', async () => {
    process.env.KRYPTON_HISTORY_LIMIT = '007';
    const broken = await startKryptonBackend();
    delete process.env.KRYPTON_HISTORY_LIMIT;
    try {
      const created = await create({ name: 'unlimited', data: { k: '0' } });
      const res = await request(broken.server)
        .put(`${base()}/unlimited`)
        .set('Authorization', as('alice'))
        .send({
          resourceVersion: created.body.resourceVersion,
          data: { k: '1' },
        });
      expect(res.status).toBe(503);
      expect(await snapshotsOf(created.body.uid)).toHaveLength(0);
    } finally {
      await broken.stop();
    }
  });

  it('ignores legacy copies and malformed records in list, restore, prune and cleanup', async () => {
    const created = await create({ name: 'legacy', data: { k: 'v1' } });
    await edit('legacy', { k: 'v2' });
    const [real] = await snapshotsOf(created.body.uid);
    const labels = real.metadata.labels!;
    await admin.createSecret(ns.name, {
      metadata: {
        name: 'legacy-v1',
        labels: { 'krypton.io/managed-by': 'krypton' },
      },
      data: { k: b64('old') },
    });
    // Partly retagged: the labels and name of a v5, without the format annotations.
    const retagged = real.metadata.name!.replace(/-v1$/, '-v5');
    await admin.createSecret(ns.name, {
      metadata: {
        name: retagged,
        labels,
        annotations: { 'krypton.io/version': '5' },
      },
      immutable: true,
      data: { k: b64('forged') },
    });
    const list = await versions('legacy');
    expect(list.body.items.map((v: { version: number }) => v.version)).toEqual([
      1,
    ]);
    const current = await get('legacy');
    expect(
      (
        await restore('legacy', {
          version: 5,
          resourceVersion: current.body.resourceVersion,
        })
      ).status,
    ).toBe(404);
    const res = await remove(
      'legacy',
      `resourceVersion=${current.body.resourceVersion}`,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'deleted', history: 'cleaned' });
    expect((await admin.getSecret(ns.name, 'legacy-v1')).status).toBe(200);
    expect((await admin.getSecret(ns.name, retagged)).status).toBe(200);
    expect((await admin.getSecret(ns.name, real.metadata.name!)).status).toBe(
      404,
    );
  });

  it('deletes with history cleanup, keeps it on request, and a recreated name starts a new history', async () => {
    const first = await create({ name: 'cycle', data: { k: 'v1' } });
    await edit('cycle', { k: 'v2' });
    const live = await get('cycle');
    const kept = await remove(
      'cycle',
      `resourceVersion=${encodeURIComponent(
        live.body.resourceVersion,
      )}&keepHistory=true`,
    );
    expect(kept.status).toBe(200);
    expect(kept.body).toEqual({ status: 'deleted', history: 'kept' });
    expect(await snapshotsOf(first.body.uid)).toHaveLength(1);

    const second = await create({ name: 'cycle', data: { k: 'new' } });
    expect(second.body.uid).not.toBe(first.body.uid);
    const fresh = await versions('cycle');
    expect(fresh.body).toEqual({ items: [] });
    const edited = await edit('cycle', { k: 'newer' });
    expect(edited.body.version).toBe(2);
    const current = await get('cycle');
    const cleaned = await remove(
      'cycle',
      `resourceVersion=${current.body.resourceVersion}`,
    );
    expect(cleaned.body).toEqual({ status: 'deleted', history: 'cleaned' });
    expect(await snapshotsOf(second.body.uid)).toHaveLength(0);
    // The predecessor's kept snapshot is not this lifetime's to clean.
    expect(await snapshotsOf(first.body.uid)).toHaveLength(1);
  });

  it('answers 202 pending while a finalizer holds the live Secret', async () => {
    await create({ name: 'finalized', data: { k: 'v1' } });
    await edit('finalized', { k: 'v2' });
    await admin.patchSecret(ns.name, 'finalized', {
      metadata: { finalizers: ['example.com/hold'] },
    });
    const live = await get('finalized');
    const res = await remove(
      'finalized',
      `resourceVersion=${live.body.resourceVersion}`,
    );
    expect(res.body).toEqual({ status: 'pending', history: 'cleaned' });
    expect(res.status).toBe(202);
    expect((await get('finalized')).body.deletionTimestamp).toBeTruthy();
    await admin.patchSecret(ns.name, 'finalized', {
      metadata: { finalizers: null },
    });
  });

  it('refuses a stale delete with 409 before any history request, and checks its query', async () => {
    const created = await create({ name: 'stale-delete', data: { k: 'v1' } });
    await edit('stale-delete', { k: 'v2' });
    proxy.resetRecordings();
    const res = await remove(
      'stale-delete',
      `resourceVersion=${created.body.resourceVersion}`,
    );
    expect(res.status).toBe(409);
    expect(
      proxy.seen.filter(r => !r.endsWith('/secrets/stale-delete')),
    ).toEqual([]);
    expect((await remove('stale-delete', '')).status).toBe(400);
    expect(
      (await remove('stale-delete', 'resourceVersion=1&keepHistory=maybe'))
        .status,
    ).toBe(400);
    expect(
      (await remove('stale-delete', 'resourceVersion=1&resourceVersion=2'))
        .status,
    ).toBe(400);
    expect((await remove('stale-delete', 'resourceVersion=1&x=1')).status).toBe(
      400,
    );
  });

  it('authorizes the current access rules before any snapshot is read', async () => {
    const created = await create({
      name: 'guarded',
      data: { k: CANARY },
      access: { owners: ['user:default/alice'] },
    });
    await edit('guarded', { k: 'v2' });
    await admin.grantSecrets(ns.name, {
      kind: 'Group',
      name: 'group:default/team-c',
    });
    await eventually(
      () => get('guarded', 'bob'),
      r =>
        r.body.error ===
        "You are not allowed to do this by the Secret's access rules.",
    );
    proxy.resetRecordings();
    for (const res of [
      await versions('guarded', 'bob'),
      await version('guarded', 1, 'bob'),
      await restore(
        'guarded',
        { version: 1, resourceVersion: created.body.resourceVersion },
        'bob',
      ),
      await remove(
        'guarded',
        `resourceVersion=${created.body.resourceVersion}`,
        'bob',
      ),
    ]) {
      expect(res.status).toBe(403);
      expect(JSON.stringify(res.body)).not.toContain(CANARY);
    }
    expect(proxy.seen.every(r => r.includes('/secrets/guarded'))).toBe(true);
  });

  it('audits restore, delete and version reads without values', async () => {
    const events = krypton.sink.audits;
    for (const eventId of [
      'secret-restore',
      'secret-delete',
      'secret-version-read',
    ]) {
      expect(events).toContainEqual(
        expect.objectContaining({ eventId, status: 'succeeded' }),
      );
    }
    expect(events).toContainEqual(
      expect.objectContaining({
        eventId: 'secret-update',
        status: 'succeeded',
        meta: expect.objectContaining({ archivedVersion: 1, prunedCount: 0 }),
      }),
    );
    expect(krypton.sink.text()).not.toContain(CANARY);
    expect(krypton.sink.text()).not.toContain(b64(CANARY));
    expect(krypton.sink.text()).not.toContain(BINARY);
  });
});
