import {
  FaultProxy,
  startFaultProxy,
  testClusterState,
  useTestNamespace,
  ClusterAdmin,
  eventually,
} from '@krypton/kube-testenv';
import {
  kryptonKeys,
  messages,
  NativeSecret,
  buildSnapshot,
} from '@krypton/core';
import { JsonObject } from '@backstage/types';
import request from 'supertest';
import { b64, hash32 } from '../../__testUtils__/history';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from '../../__testUtils__/testBackend';

const KEYS = kryptonKeys('krypton.io');
const version = (s: NativeSecret) =>
  Number(s.metadata.annotations?.['krypton.io/version']);

/** The history spec's promises, each proven on the real apiserver. */
describe('history promises', () => {
  const admin = new ClusterAdmin();
  afterAll(() => admin.close());

  /** A backend in impersonation mode, in front of a fault proxy, for root with full RBAC. */
  function backendFor(ns: { name: string }, kryptonConfig: JsonObject = {}) {
    const env: { proxy?: FaultProxy; krypton?: KryptonTestBackend } = {};
    beforeAll(async () => {
      const state = testClusterState();
      env.proxy = await startFaultProxy({
        target: state.server,
        caFile: state.caFile || undefined,
      });
      env.krypton = await startKryptonBackend(kryptonConfig, {
        clusterUrl: env.proxy.url,
      });
      await admin.grantSecrets(ns.name, {
        kind: 'User',
        name: 'user:default/root',
      });
      await eventually(
        () =>
          request(env.krypton!.server)
            .get(`/api/krypton/namespaces/${ns.name}/secrets`)
            .set('Authorization', as('root')),
        r => r.status === 200,
      );
    });
    afterAll(async () => {
      await env.krypton?.stop();
      await env.proxy?.close();
    });
    const api = (method: 'get' | 'put' | 'post' | 'delete', url: string) =>
      request(env.krypton!.server)
        [method](`/api/krypton/namespaces/${ns.name}/secrets${url}`)
        .set('Authorization', as('root'));
    /** Creates a Secret through Krypton and writes each further value as a new version. */
    const withVersions = async (name: string, values: string[]) => {
      const created = await api('post', '').send({
        name,
        data: { k: values[0] },
      });
      expect(created.status).toBe(201);
      let rv: string = created.body.resourceVersion;
      for (const value of values.slice(1)) {
        const res = await api('put', `/${name}`).send({
          resourceVersion: rv,
          data: { k: value },
        });
        expect(res.status).toBe(200);
        rv = res.body.resourceVersion;
      }
      return { uid: created.body.uid as string, resourceVersion: rv };
    };
    const snapshots = async (uid: string) =>
      (await admin.snapshots(ns.name))
        .filter(s => s.metadata.annotations?.[KEYS.sourceUid] === uid)
        .sort((a, b) => version(a) - version(b));
    return { env, api, withVersions, snapshots, proxy: () => env.proxy! };
  }

  describe.each([1, 2])('a restore with a history limit of %i', limit => {
    const ns = useTestNamespace();
    const t = backendFor(ns, { historyLimit: limit });

    it('keeps the state it rolled back from', async () => {
      const { uid, resourceVersion } = await t.withVersions('rollback', [
        'one',
        'two',
      ]);
      const res = await t
        .api('post', '/rollback/restore')
        .send({ version: 1, resourceVersion });
      expect(res.status).toBe(200);
      expect(res.body.version).toBe(3);
      expect((await admin.secret(ns.name, 'rollback')).data).toEqual({
        k: b64('one'),
      });
      const kept = await t.snapshots(uid);
      // Version 2 is the state rolled back from; with a limit of 1 it is the only one left.
      expect(kept.map(version)).toEqual(limit === 1 ? [2] : [1, 2]);
      expect(kept.find(s => version(s) === 2)?.data).toEqual({ k: b64('two') });
      const versions = await t.api('get', '/rollback/versions');
      expect(
        versions.body.items.map((v: { version: number }) => v.version),
      ).toEqual(limit === 1 ? [2] : [2, 1]);
    });
  });

  describe('cleanup', () => {
    const ns = useTestNamespace();
    const t = backendFor(ns);

    it('answers 409 when a snapshot changed after it was validated, and deletes nothing more', async () => {
      const { uid, resourceVersion } = await t.withVersions('quarantined', [
        'a',
        'b',
        'c',
      ]);
      const oldest = `krypton-h-${hash32(uid)}-v1`;
      t.proxy().resetRecordings();
      t.proxy().inject({
        method: 'DELETE',
        path: new RegExp(`/secrets/${oldest}$`),
        action: { delayMs: 1500 },
        times: 1,
      });
      const pending = t
        .api('delete', '/quarantined')
        .query({ resourceVersion })
        .then(r => r);
      // The DELETE of the oldest snapshot waits at the proxy with the revision cleanup validated;
      // meanwhile an operator quarantines that snapshot.
      await eventually(
        async () => t.proxy().seen,
        seen => seen.some(s => s.startsWith(`DELETE `) && s.includes(oldest)),
      );
      await admin.patchSecret(ns.name, oldest, {
        metadata: { labels: { quarantine: 'true' } },
      });
      const res = await pending;
      t.proxy().clear();
      expect(res.status).toBe(409);
      expect(res.body.error).toBe(messages.snapshotChanged);
      expect((await t.snapshots(uid)).map(version)).toEqual([1, 2]);
      expect((await admin.secret(ns.name, 'quarantined')).metadata.uid).toBe(
        uid,
      );
      // The only DELETE was the one with the validated preconditions: no retry with a new revision.
      expect(t.proxy().seen.filter(s => s.startsWith('DELETE '))).toHaveLength(
        1,
      );
    });

    it('reads only metadata, from the live gate to the confirmation of an unanswered delete', async () => {
      const { uid, resourceVersion } = await t.withVersions('metadata-only', [
        'a',
        'b',
        'c',
      ]);
      t.proxy().resetRecordings();
      t.proxy().inject({
        method: 'DELETE',
        path: new RegExp(`/secrets/krypton-h-${hash32(uid)}-v1$`),
        action: { resetAfterForward: true },
        times: 1,
      });
      const res = await t
        .api('delete', '/metadata-only')
        .query({ resourceVersion });
      t.proxy().clear();
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'deleted', history: 'cleaned' });
      const gets = t.proxy().requests.filter(r => r.method === 'GET');
      // live gate, inventory, (recheck, confirm), recheck, inventory, final recheck
      expect(gets.length).toBeGreaterThanOrEqual(6);
      for (const get of gets) {
        expect(get.headers.accept?.[0]).toMatch(
          /;as=PartialObjectMetadata(List)?;/,
        );
      }
      expect(
        gets.some(g => g.path.endsWith(`krypton-h-${hash32(uid)}-v1`)),
      ).toBe(true);
      expect(await t.snapshots(uid)).toEqual([]);
    });
  });

  describe('one record validation on every path', () => {
    const ns = useTestNamespace();
    const t = backendFor(ns, { historyLimit: 2 });

    /** Replaces version 1 of a Secret's history with a copy that `forge` changed. */
    async function forgeVersion1(
      uid: string,
      forge: (s: NativeSecret) => void,
    ) {
      const name = `krypton-h-${hash32(uid)}-v1`;
      const original = await admin.secret(ns.name, name);
      const del = await admin.request({
        method: 'DELETE',
        path: `/api/v1/namespaces/${ns.name}/secrets/${name}`,
      });
      expect(del.status).toBe(200);
      const copy: NativeSecret = {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: {
          name,
          labels: original.metadata.labels,
          annotations: { ...original.metadata.annotations },
        },
        type: original.type,
        immutable: original.immutable,
        data: original.data,
      };
      forge(copy);
      await admin.createSecret(
        ns.name,
        copy as unknown as Record<string, unknown>,
      );
      return name;
    }

    it.each([
      [
        'names another live Secret in history-of',
        (s: NativeSecret) => {
          s.metadata.annotations![KEYS.historyOf] = 'someone-else';
        },
      ],
      [
        'is not Opaque',
        (s: NativeSecret) => {
          s.type = 'example.com/not-opaque';
        },
      ],
    ])(
      'a record that %s is never listed, restored, pruned or cleaned up',
      async (_what, forge) => {
        const secret = `forged-${Math.random().toString(16).slice(2, 8)}`;
        const { uid } = await t.withVersions(secret, ['a', 'b']);
        const forged = await forgeVersion1(uid, forge);
        const versions = await t.api('get', `/${secret}/versions`);
        expect(versions.status).toBe(200);
        expect(versions.body.items).toEqual([]);
        const live = await t.api('get', `/${secret}`);
        const restore = await t
          .api('post', `/${secret}/restore`)
          .send({ version: 1, resourceVersion: live.body.resourceVersion });
        expect(restore.status).toBe(404);
        // Two more versions with a limit of 2: retention would prune version 1 first if it counted.
        let rv = live.body.resourceVersion;
        for (const value of ['c', 'd']) {
          const res = await t
            .api('put', `/${secret}`)
            .send({ resourceVersion: rv, data: { k: value } });
          expect(res.status).toBe(200);
          rv = res.body.resourceVersion;
        }
        expect((await admin.getSecret(ns.name, forged)).status).toBe(200);
        const deleted = await t
          .api('delete', `/${secret}`)
          .query({ resourceVersion: rv });
        expect(deleted.status).toBe(200);
        expect((await admin.getSecret(ns.name, forged)).status).toBe(200);
      },
    );
  });

  describe('saving the replaced state', () => {
    const ns = useTestNamespace();
    const t = backendFor(ns);

    it('a snapshot that begins terminating before retention reads it blocks the live write', async () => {
      const { uid, resourceVersion } = await t.withVersions('terminating', [
        'a',
      ]);
      const saved = `krypton-h-${hash32(uid)}-v1`;
      t.proxy().resetRecordings();
      // The history list waits at the proxy; meanwhile the snapshot just saved gets a finalizer
      // and a delete, as a backup tool or an operator might.
      t.proxy().inject({
        method: 'GET',
        path: /\/secrets\?/,
        action: { delayMs: 1500 },
        times: 1,
      });
      const pending = t
        .api('put', '/terminating')
        .send({ resourceVersion, data: { k: 'b' } })
        .then(r => r);
      await eventually(
        async () => t.proxy().seen,
        seen => seen.some(s => s.startsWith('GET ') && s.includes('/secrets?')),
      );
      await admin.patchSecret(ns.name, saved, {
        metadata: { finalizers: ['example.com/hold'] },
      });
      const del = await admin.request({
        method: 'DELETE',
        path: `/api/v1/namespaces/${ns.name}/secrets/${saved}`,
      });
      expect(del.status).toBe(200);
      const res = await pending;
      t.proxy().clear();
      expect(res.status).toBe(409);
      expect(res.body.error).toBe(messages.archiveChanged);
      expect((await admin.secret(ns.name, 'terminating')).data).toEqual({
        k: b64('a'),
      });
      await admin.patchSecret(ns.name, saved, {
        metadata: { finalizers: null },
      });
    });

    it('accepts an exact snapshot in the slot that lacks Krypton’s own keys annotation', async () => {
      const { uid, resourceVersion } = await t.withVersions('foreign-exact', [
        'a',
      ]);
      // Another writer (an older replica, an operator's tool) saved exactly this state, in the
      // spec's format, without the keys index.
      const live = await admin.secret(ns.name, 'foreign-exact');
      const exact = await buildSnapshot(live, 1, KEYS, {
        by: 'user:default/operator',
        at: '2026-01-01T00:00:00.000Z',
      });
      delete exact.metadata.annotations![KEYS.keys];
      await admin.createSecret(
        ns.name,
        exact as unknown as Record<string, unknown>,
      );
      const res = await t
        .api('put', '/foreign-exact')
        .send({ resourceVersion, data: { k: 'b' } });
      expect(res.status).toBe(200);
      expect(res.body.version).toBe(2);
      const [kept] = await t.snapshots(uid);
      expect(kept.metadata.annotations?.[KEYS.snapshotBy]).toBe(
        'user:default/operator',
      );
      const versions = await t.api('get', '/foreign-exact/versions');
      expect(versions.body.items).toEqual([
        expect.objectContaining({ version: 1, keys: null }),
      ]);
    });
  });

  describe('snapshot names', () => {
    const ns = useTestNamespace();
    const t = backendFor(ns);
    const snapshot = `/krypton-h-${'0'.repeat(32)}-v1`;

    it.each([
      ['another media type', 'text/plain', 'x'],
      ['malformed JSON', 'application/json', '{"resourceVersion":'],
      ['invalid UTF-8', 'application/json', Buffer.from([0x7b, 0xff, 0x7d])],
      [
        'a body over the limit',
        'application/json',
        `{"x":"${'a'.repeat(5 * 1024 * 1024)}"}`,
      ],
    ])('answer 404 before reading %s', async (_what, type, body) => {
      for (const [method, url] of [
        ['put', snapshot],
        ['post', `${snapshot}/restore`],
        ['post', `${snapshot}/adopt`],
        ['post', `${snapshot}/restart-consumers`],
      ] as const) {
        const res = await t
          .api(method, url)
          .set('Content-Type', type)
          .send(body);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: 'Secret not found' });
      }
    });
  });
});
