import {
  useTestNamespace,
  ClusterAdmin,
  eventually,
} from '@krypton/kube-testenv';
import http from 'node:http';
import request from 'supertest';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
  testPolicy,
} from '../../__testUtils__/testBackend';

const ACL_REFUSAL = {
  error: "You are not allowed to do this by the Secret's access rules.",
};
const PERMISSION_REFUSAL = {
  error: 'You are not allowed to do this by the Backstage permission policy.',
};

// A value that must never show up in a log line or an audit event.
const CANARY = 'canary-7f3a9c-do-not-log';
const BINARY = Buffer.from([0x00, 0xff, 0xfe, 0x80, 0xc3, 0x28]).toString(
  'base64',
);

describe('Secrets API against a real kube-apiserver', () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  let krypton: KryptonTestBackend;
  const api = () => request(krypton.server);
  const base = () => `/api/krypton/namespaces/${ns.name}/secrets`;

  beforeAll(async () => {
    krypton = await startKryptonBackend();
    await admin.grantSecrets(ns.name, {
      kind: 'User',
      name: 'user:default/alice',
    });
    // bob is granted through his second group only.
    await admin.grantSecrets(ns.name, {
      kind: 'Group',
      name: 'group:default/team-c',
    });
    await admin.grantSecrets(ns.name, {
      kind: 'User',
      name: 'user:default/root',
    });
    await eventually(
      () => api().get(base()).set('Authorization', as('bob')),
      r => r.status === 200,
    );
  });
  afterAll(async () => {
    await krypton.stop();
    admin.close();
  });
  afterEach(() => testPolicy.reset());

  const create = (body: Record<string, unknown>, user = 'alice') =>
    api().post(base()).set('Authorization', as(user)).send(body);
  const get = (name: string, user = 'alice') =>
    api().get(`${base()}/${name}`).set('Authorization', as(user));
  const put = (name: string, body: Record<string, unknown>, user = 'alice') =>
    api().put(`${base()}/${name}`).set('Authorization', as(user)).send(body);

  describe('create and read', () => {
    it('round-trips text, a BOM, special keys, empty values and binary data byte-exact', async () => {
      const data = JSON.parse(
        `{"__proto__":"${CANARY}-proto","constructor":"c","bom":"\\ufeffhello","empty":"","password":"${CANARY}"}`,
      );
      const res = await create({
        name: 'roundtrip',
        data,
        binaryData: { 'blob.bin': BINARY },
      });
      expect(res.status).toBe(201);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toMatchObject({
        name: 'roundtrip',
        version: 1,
        managed: true,
        type: 'Opaque',
      });

      const read = await get('roundtrip');
      expect(read.status).toBe(200);
      expect(read.headers['cache-control']).toBe('no-store');
      expect(
        Object.getOwnPropertyDescriptor(read.body.data, '__proto__')?.value,
      ).toBe(`${CANARY}-proto`);
      expect(read.body.data.constructor).toBe('c');
      expect(read.body.data.bom).toBe('\ufeffhello');
      expect(read.body.data.empty).toBe('');
      expect(read.body.binaryData).toEqual({ 'blob.bin': BINARY });
      expect(read.body.binaryKeys).toEqual(['blob.bin']);
      expect(read.body.keys).toEqual(
        [
          '__proto__',
          'blob.bin',
          'bom',
          'constructor',
          'empty',
          'password',
        ].sort(),
      );

      const native = await admin.getSecret(ns.name, 'roundtrip');
      const nativeData = (native.body as { data: Record<string, string> }).data;
      expect(Buffer.from(nativeData.bom, 'base64')).toEqual(
        Buffer.from('\ufeffhello', 'utf8'),
      );
      expect(nativeData['blob.bin']).toBe(BINARY);
    });

    it('answers 409 when the name is taken', async () => {
      await create({ name: 'taken', data: { a: '1' } });
      const res = await create({ name: 'taken', data: { a: '2' } });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        error: 'A Secret with this name already exists.',
      });
    });

    it('refuses service-account token Secrets', async () => {
      const res = await create({
        name: 'token',
        type: 'kubernetes.io/service-account-token',
        data: { token: 'x' },
      });
      expect(res.status).toBe(422);
      expect(res.body.error).toMatch(/TokenRequest/);
    });

    it('refuses a Secret whose estimate exceeds 1 MiB with 413', async () => {
      const res = await create({
        name: 'big',
        data: { v: 'x'.repeat(760_000) },
      });
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ error: 'Secret is too large' });
      expect((await admin.getSecret(ns.name, 'big')).status).toBe(404);
    });
  });

  describe('update', () => {
    let rv: string;
    beforeAll(async () => {
      const res = await create({
        name: 'editable',
        data: { user: 'app', password: CANARY },
        binaryData: { 'key.bin': BINARY },
      });
      rv = res.body.resourceVersion;
    });

    it('refuses a stale resourceVersion with 409 before any write', async () => {
      const res = await put('editable', {
        resourceVersion: '1',
        data: { user: 'x' },
      });
      expect(res.status).toBe(409);
      const after = await get('editable');
      expect(after.body.resourceVersion).toBe(rv);
      expect(after.body.data.user).toBe('app');
    });

    it('bumps the version on a data change and keeps binary keys on a text-only edit', async () => {
      const res = await put('editable', {
        resourceVersion: rv,
        data: { user: 'app2', password: CANARY },
      });
      expect(res.status).toBe(200);
      expect(res.body.version).toBe(2);
      expect(res.body.data).toEqual({ user: 'app2', password: CANARY });
      expect(res.body.binaryData).toEqual({ 'key.bin': BINARY });
      rv = res.body.resourceVersion;
    });

    it('keeps the whole raw data map on a metadata-only edit, without a version bump', async () => {
      const res = await put('editable', {
        resourceVersion: rv,
        description: 'Payments DB',
      });
      expect(res.status).toBe(200);
      expect(res.body.description).toBe('Payments DB');
      expect(res.body.version).toBe(2);
      expect(res.body.binaryData).toEqual({ 'key.bin': BINARY });
      expect(res.body.data.password).toBe(CANARY);
      rv = res.body.resourceVersion;
    });

    it('refuses a type change with 422', async () => {
      const res = await put('editable', {
        resourceVersion: rv,
        type: 'kubernetes.io/basic-auth',
        data: { username: 'a', password: 'b' },
      });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        error: 'The type of a Secret cannot be changed.',
      });
    });

    it('lets metadata-only edits of large binary data pass the decoded-size bound', async () => {
      // 900 KiB decoded: within Kubernetes' 1 MiB, but above it after the 1.4 estimate.
      const blob = Buffer.alloc(900 * 1024, 0xff).toString('base64');
      const native = await admin.createSecret(ns.name, {
        metadata: {
          name: 'large-binary',
          labels: { 'krypton.io/managed-by': 'krypton' },
        },
        data: { 'blob.bin': blob },
      });
      const res = await put('large-binary', {
        resourceVersion: native.metadata.resourceVersion,
        description: 'big but valid',
      });
      expect(res.status).toBe(200);
      expect(res.body.binaryData['blob.bin']).toBe(blob);
    });
  });

  describe('update, further rules', () => {
    it('refuses a data change whose estimate exceeds 1 MiB with 413, before any write', async () => {
      const created = await create({ name: 'grows', data: { v: 'small' } });
      const res = await put('grows', {
        resourceVersion: created.body.resourceVersion,
        data: { v: 'x'.repeat(760_000) },
      });
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ error: 'Secret is too large' });
      const after = await get('grows');
      expect(after.body.resourceVersion).toBe(created.body.resourceVersion);
    });

    it('accepts only canonical base64, so a byte-identical binary update changes nothing', async () => {
      const created = await create({
        name: 'canonical',
        binaryData: { b: 'QQ==' },
      });
      const spelled = await put('canonical', {
        resourceVersion: created.body.resourceVersion,
        binaryData: { b: 'QR==' },
      });
      expect(spelled.status).toBe(400);
      expect(spelled.body.error).toMatch(/canonical base64/);
      const same = await put('canonical', {
        resourceVersion: created.body.resourceVersion,
        binaryData: { b: 'QQ==' },
      });
      expect(same.status).toBe(200);
      expect(same.body.version).toBe(1);
    });

    it("drops kubectl's last-applied copy of the old values when the data changes", async () => {
      const old = Buffer.from(CANARY).toString('base64');
      const native = await admin.createSecret(ns.name, {
        metadata: {
          name: 'applied',
          labels: { 'krypton.io/managed-by': 'krypton' },
          annotations: {
            'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({
              data: { password: old },
            }),
          },
        },
        data: { password: old },
      });
      const res = await put('applied', {
        resourceVersion: native.metadata.resourceVersion,
        data: { password: 'rotated' },
      });
      expect(res.status).toBe(200);
      const after = await admin.getSecret(ns.name, 'applied');
      const annotations = (
        after.body as { metadata: { annotations?: Record<string, string> } }
      ).metadata.annotations;
      expect(annotations).not.toHaveProperty([
        'kubectl.kubernetes.io/last-applied-configuration',
      ]);
      expect(JSON.stringify(after.body)).not.toContain(old);
    });
  });

  describe('immutable Secrets', () => {
    let rv: string;
    beforeAll(async () => {
      const res = await create({
        name: 'frozen',
        data: { a: '1' },
        immutable: true,
      });
      rv = res.body.resourceVersion;
    });

    it('refuses data changes with 422', async () => {
      const res = await put('frozen', {
        resourceVersion: rv,
        data: { a: '2' },
      });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        error: 'The Secret is immutable: its data cannot be changed.',
      });
    });

    it('allows a byte-identical update and metadata edits', async () => {
      const same = await put('frozen', {
        resourceVersion: rv,
        data: { a: '1' },
      });
      expect(same.status).toBe(200);
      const meta = await put('frozen', {
        resourceVersion: same.body.resourceVersion,
        description: 'frozen on purpose',
      });
      expect(meta.status).toBe(200);
      expect(meta.body.description).toBe('frozen on purpose');
    });
  });

  describe('identity and access', () => {
    beforeAll(async () => {
      await create({
        name: 'team-a-only',
        data: { k: CANARY },
        access: { owners: ['user:default/alice'] },
      });
      await create({ name: 'open', data: { k: 'v' } });
    });

    it('refuses a user without Kubernetes RBAC with 403', async () => {
      const res = await get('open', 'carol');
      expect(res.status).toBe(403);
      expect(res.body.error).toMatch(
        /^Access denied. Check Kubernetes permissions/,
      );
    });

    it("grants access through a user's second group", async () => {
      expect((await get('open', 'bob')).status).toBe(200);
    });

    it("refuses a user whom the Secret's access rules do not name", async () => {
      const res = await get('team-a-only', 'bob');
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        error: "You are not allowed to do this by the Secret's access rules.",
      });
      const list = await api().get(base()).set('Authorization', as('bob'));
      expect(
        list.body.items.map((s: { name: string }) => s.name),
      ).not.toContain('team-a-only');
    });

    it('lets editors edit values but not the description or rules, and viewers only read', async () => {
      await create({
        name: 'roles',
        data: { k: 'v' },
        access: {
          owners: ['user:default/alice'],
          editors: ['group:default/team-c'],
        },
      });
      await create({
        name: 'viewed',
        data: { k: 'v' },
        access: {
          owners: ['user:default/alice'],
          viewers: ['group:default/team-c'],
        },
      });
      const rv = async (name: string) =>
        (await get(name, 'alice')).body.resourceVersion;
      for (const change of [
        { description: 'mine now' },
        { access: { owners: ['user:default/bob'] } },
        { access: { viewers: [] } },
      ]) {
        const edit = await put(
          'roles',
          { resourceVersion: await rv('roles'), ...change },
          'bob',
        );
        expect(edit.status).toBe(403);
        expect(edit.body).toEqual(ACL_REFUSAL);
        const view = await put(
          'viewed',
          { resourceVersion: await rv('viewed'), ...change },
          'bob',
        );
        expect(view.status).toBe(403);
        expect(view.body).toEqual(ACL_REFUSAL);
      }
      const data = await put(
        'roles',
        { resourceVersion: await rv('roles'), data: { k: 'w' } },
        'bob',
      );
      expect(data.status).toBe(200);
      const viewerData = await put(
        'viewed',
        { resourceVersion: await rv('viewed'), data: { k: 'w' } },
        'bob',
      );
      expect(viewerData.body).toEqual(ACL_REFUSAL);
      expect((await get('viewed', 'bob')).status).toBe(200);
      const after = await get('roles', 'alice');
      expect(after.body.access).toEqual({
        owners: ['user:default/alice'],
        editors: ['group:default/team-c'],
        viewers: [],
      });
      expect(after.body.description).toBeUndefined();
    });

    it('matches hand-written rules in any spelling of the ref', async () => {
      await admin.createSecret(ns.name, {
        metadata: {
          name: 'hand-written',
          labels: { 'krypton.io/managed-by': 'krypton' },
          annotations: { 'krypton.io/owners': 'user:Alice' },
        },
        data: { k: 'dg==' },
      });
      expect((await get('hand-written', 'alice')).status).toBe(200);
      const bob = await get('hand-written', 'bob');
      expect(bob.body).toEqual(ACL_REFUSAL);
    });

    it('asks the permission policy for the permissions alone, to judge the live Secret by any conditions', async () => {
      testPolicy.reset();
      await get('open', 'alice');
      expect(testPolicy.requests).toEqual([
        {
          permission: 'krypton.secret.read',
          user: 'user:default/alice',
        },
        {
          permission: 'krypton.secret.reveal',
          user: 'user:default/alice',
        },
      ]);
    });

    it('lets a Krypton admin pass access rules', async () => {
      expect((await get('team-a-only', 'root')).status).toBe(200);
    });

    it('enforces Backstage permissions', async () => {
      testPolicy.denied.add('user:default/alice:krypton.secret.reveal');
      const res = await get('open', 'alice');
      expect(res.status).toBe(403);
      expect(res.body).toEqual(PERMISSION_REFUSAL);
      // The permission gate answers before the access rules are consulted.
      const ruled = await get('team-a-only', 'alice');
      expect(ruled.body).toEqual(PERMISSION_REFUSAL);
    });

    it('never reveals the values of service-account tokens, admins included', async () => {
      await admin.createSecret(ns.name, {
        metadata: {
          name: 'sa-token',
          labels: { 'krypton.io/managed-by': 'krypton' },
          annotations: { 'kubernetes.io/service-account.name': 'default' },
        },
        type: 'kubernetes.io/service-account-token',
        data: { token: Buffer.from(CANARY).toString('base64') },
      });
      const res = await get('sa-token', 'root');
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        error:
          'The values of service-account token Secrets are never revealed through Krypton.',
      });
      expect(JSON.stringify(res.body)).not.toContain(CANARY);
    });

    it('ignores Impersonate-* headers sent by the client', async () => {
      const res = await api()
        .get(`${base()}/open`)
        .set('Authorization', as('carol'))
        .set('Impersonate-User', 'user:default/alice')
        .set('Impersonate-Group', 'system:masters');
      expect(res.status).toBe(403);
    });

    it('answers 401 without a Backstage identity, on every route but /health', async () => {
      for (const path of [
        `${base()}/open`,
        base(),
        '/api/krypton/config',
        `/api/krypton/clusters/test/namespaces/${ns.name}/secrets`,
      ]) {
        const res = await api().get(path);
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ error: 'Sign in to use Krypton.' });
      }
      // A path outside Krypton's routes is Backstage's to refuse, in Backstage's own envelope:
      // Krypton opens only its own prefixes to its sign-in check.
      const unknown = await api().get('/api/krypton/no-such-route');
      expect(unknown.status).toBe(401);
      expect(unknown.body.error).toMatchObject({ name: 'AuthenticationError' });
      const post = await api().post(base()).send({ name: 'x' });
      expect(post.status).toBe(401);
      const health = await api().get('/api/krypton/health');
      expect(health.status).toBe(200);
    });
  });

  describe('managed-only and history snapshots', () => {
    let unmanagedRv: string;
    beforeAll(async () => {
      unmanagedRv = (
        await admin.createSecret(ns.name, {
          metadata: { name: 'native' },
          data: { a: 'YQ==' },
        })
      ).metadata.resourceVersion;
      await admin.createSecret(ns.name, {
        metadata: {
          name: 'krypton-h-0123456789abcdef0123456789abcdef-v1',
          labels: {
            'krypton.io/managed-by': 'krypton',
            'krypton.io/kind': 'history',
          },
        },
        data: { a: 'YQ==' },
      });
    });

    it('serves only managed Secrets and never snapshots', async () => {
      const list = await api().get(base()).set('Authorization', as('alice'));
      const names = list.body.items.map((s: { name: string }) => s.name);
      expect(names).toContain('open');
      expect(names).not.toContain('native');
      expect(names.some((n: string) => n.startsWith('krypton-h-'))).toBe(false);
      expect((await get('native')).status).toBe(404);
    });

    it('answers 404 for snapshot names on every named route, admins included', async () => {
      const snap = 'krypton-h-0123456789abcdef0123456789abcdef-v1';
      for (const user of ['alice', 'root']) {
        expect((await get(snap, user)).status).toBe(404);
        expect(
          (await put(snap, { resourceVersion: '1', description: 'x' }, user))
            .status,
        ).toBe(404);
        const adopt = await api()
          .post(`${base()}/${snap}/adopt`)
          .set('Authorization', as(user))
          .send({ resourceVersion: '1' });
        expect(adopt.status).toBe(404);
      }
    });

    it('lists only unmanaged Secrets for the adopt picker, never snapshots or tokens', async () => {
      await admin.createSecret(ns.name, {
        metadata: {
          name: 'picker-token',
          annotations: { 'kubernetes.io/service-account.name': 'default' },
        },
        type: 'kubernetes.io/service-account-token',
        data: {},
      });
      const res = await api()
        .get(`${base()}?adoptable=true`)
        .set('Authorization', as('alice'));
      expect(res.status).toBe(200);
      const names = res.body.items.map((s: { name: string }) => s.name);
      expect(names).toContain('native');
      expect(names).not.toContain('open');
      expect(names).not.toContain('picker-token');
      expect(names.some((n: string) => n.startsWith('krypton-h-'))).toBe(false);
      expect(
        res.body.items.every((s: { managed: boolean }) => !s.managed),
      ).toBe(true);
      expect(JSON.stringify(res.body)).not.toContain('YQ==');
    });

    it('adopts an existing Secret, which then counts as version 1', async () => {
      const res = await api()
        .post(`${base()}/native/adopt`)
        .set('Authorization', as('alice'))
        .send({ resourceVersion: unmanagedRv, description: 'adopted' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        name: 'native',
        managed: true,
        version: 1,
      });
      expect((await get('native')).status).toBe(200);
    });
  });

  describe('bad input', () => {
    it.each([
      ['a malformed name', () => get('Bad_Name')],
      [
        'a malformed namespace',
        () =>
          api()
            .get('/api/krypton/namespaces/Bad_NS/secrets')
            .set('Authorization', as('alice')),
      ],
      [
        'a malformed key',
        () => create({ name: 'k', data: { 'bad key': 'v' } }),
      ],
      [
        'invalid base64',
        () => create({ name: 'k', binaryData: { b: 'not base64!' } }),
      ],
      ['an unknown field', () => create({ name: 'k', data: {}, extra: true })],
      ['a missing resourceVersion', () => put('open', { data: { a: 'b' } })],
      ['a non-string value', () => create({ name: 'k', data: { a: 1 } })],
      [
        'a key in data and binaryData',
        () =>
          create({ name: 'k', data: { a: 'x' }, binaryData: { a: 'eA==' } }),
      ],
      [
        'a body that is not JSON',
        () =>
          api()
            .post(base())
            .set('Authorization', as('alice'))
            .set('Content-Type', 'application/json')
            .send('{"name":'),
      ],
      [
        'an entity ref that is not a user or group',
        () =>
          create({ name: 'k', access: { owners: ['component:default/x'] } }),
      ],
    ])('answers 400 with the error envelope for %s', async (_label, send) => {
      const res = await send();
      expect(res.status).toBe(400);
      expect(Object.keys(res.body)).toEqual(['error']);
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it('narrows the list with a label selector, and refuses a malformed one', async () => {
      await admin.createSecret(ns.name, {
        metadata: {
          name: 'labelled',
          labels: { 'krypton.io/managed-by': 'krypton', app: 'payments' },
        },
        data: { a: 'YQ==' },
      });
      const res = await api()
        .get(
          `${base()}?labelSelector=${encodeURIComponent(
            'app in (payments,web)',
          )}`,
        )
        .set('Authorization', as('alice'));
      expect(res.status).toBe(200);
      expect(res.body.items.map((s: { name: string }) => s.name)).toEqual([
        'labelled',
      ]);
      const bad = await api()
        .get(
          `${base()}?labelSelector=${encodeURIComponent('app=payments;drop')}`,
        )
        .set('Authorization', as('alice'));
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatch(/Invalid label selector/);
    });

    it('serves a summary without values to a reader who may not reveal them', async () => {
      testPolicy.denied.add('user:default/alice:krypton.secret.reveal');
      const res = await api()
        .get(`${base()}/open/summary`)
        .set('Authorization', as('alice'));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        name: 'open',
        keys: ['k'],
        managed: true,
      });
      expect(res.body).not.toHaveProperty('data');
      expect((await get('open')).status).toBe(403);
      const stranger = await api()
        .get(`${base()}/team-a-only/summary`)
        .set('Authorization', as('bob'));
      expect(stranger.body).toEqual(ACL_REFUSAL);
    });

    it('answers 400 for an unknown query parameter, after 404 for a snapshot name', async () => {
      const res = await api()
        .get(`${base()}?watch=true`)
        .set('Authorization', as('alice'));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Unknown query parameter "watch".' });
      const repeated = await api()
        .get(`${base()}/open?a=1&a=2`)
        .set('Authorization', as('alice'));
      expect(repeated.status).toBe(400);
      const snapshot = await api()
        .get(
          `${base()}/krypton-h-0123456789abcdef0123456789abcdef-v1?watch=true`,
        )
        .set('Authorization', as('alice'));
      expect(snapshot.status).toBe(404);
    });

    it('answers 400 when create names a history snapshot, so no live Secret can take its slot', async () => {
      const name = 'krypton-h-0123456789abcdef0123456789abcdef-v2';
      const res = await create({ name, data: { a: 'b' } });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(
        /reserved for Krypton's history snapshots/,
      );
      expect((await admin.getSecret(ns.name, name)).status).toBe(404);
    });

    it('answers 400 for a body that is not UTF-8, instead of storing U+FFFD', async () => {
      const body = Buffer.concat([
        Buffer.from('{"name":"latin","data":{"k":"caf'),
        Buffer.from([0xe9]),
        Buffer.from('"}}'),
      ]);
      // supertest would serialize a Buffer as JSON, so the bytes go out through node:http.
      const res = await new Promise<{ status: number; body: unknown }>(
        (resolve, reject) => {
          const req = http.request(
            `${krypton.url}${base()}`,
            {
              method: 'POST',
              headers: {
                Authorization: as('alice'),
                'Content-Type': 'application/json',
                'Content-Length': String(body.length),
              },
            },
            r => {
              let text = '';
              r.on('data', c => (text += c));
              r.on('end', () =>
                resolve({ status: r.statusCode ?? 0, body: JSON.parse(text) }),
              );
            },
          );
          req.on('error', reject);
          req.end(body);
        },
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'The request body is not valid UTF-8.',
      });
      expect((await admin.getSecret(ns.name, 'latin')).status).toBe(404);
    });

    it('answers 415 for a body that is not JSON in UTF-8', async () => {
      for (const contentType of [
        'text/plain',
        'application/json; charset=latin1',
      ]) {
        const res = await api()
          .post(base())
          .set('Authorization', as('alice'))
          .set('Content-Type', contentType)
          .send('{"name":"x"}');
        expect(res.status).toBe(415);
        expect(res.body).toEqual({
          error: 'Send the request body as application/json in UTF-8.',
        });
      }
    });

    it('answers 413 for a body over the request limit', async () => {
      const res = await create({
        name: 'huge',
        data: { v: 'x'.repeat(5 * 1024 * 1024) },
      });
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ error: 'Secret is too large' });
    });

    it('answers 404 for an unknown cluster', async () => {
      const res = await api()
        .get(`/api/krypton/clusters/nope/namespaces/${ns.name}/secrets`)
        .set('Authorization', as('alice'));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Unknown cluster.' });
    });

    it('serves the named default cluster under /clusters/:cluster', async () => {
      const res = await api()
        .get(`/api/krypton/clusters/test/namespaces/${ns.name}/secrets/open`)
        .set('Authorization', as('alice'));
      expect(res.status).toBe(200);
      expect(res.body.cluster).toBe('test');
    });
  });

  describe('audit', () => {
    it('records reads and mutations with their outcome, and never a value', async () => {
      const events = krypton.sink.audits;
      expect(events).toContainEqual(
        expect.objectContaining({
          eventId: 'secret-create',
          status: 'succeeded',
        }),
      );
      expect(events).toContainEqual(
        expect.objectContaining({ eventId: 'secret-update', status: 'failed' }),
      );
      expect(events).toContainEqual(
        expect.objectContaining({
          eventId: 'secret-read',
          status: 'succeeded',
          meta: expect.objectContaining({
            namespace: ns.name,
            name: 'roundtrip',
          }),
        }),
      );
      // This runs last: every value this file wrote, read or was refused must be absent.
      expect(krypton.sink.lines.length).toBeGreaterThan(0);
      expect(krypton.sink.text()).not.toContain(CANARY);
      expect(krypton.sink.text()).not.toContain(BINARY);
    });
  });
});

describe('GET /config', () => {
  it('reports the limits and features the frontend needs', async () => {
    const krypton = await startKryptonBackend();
    const res = await request(krypton.server)
      .get('/api/krypton/config')
      .set('Authorization', as('alice'));
    await krypton.stop();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      annotationPrefix: 'krypton.io',
      identityMode: 'impersonation',
      clusters: ['test'],
      defaultCluster: 'test',
      historyLimit: 20,
      restartEnabled: false,
      managedOnly: true,
      maxSecretBytes: 1048576,
      previewLimit: 131072,
    });
  });

  it('answers 503 with the error when the history limit is invalid', async () => {
    const krypton = await startKryptonBackend({ historyLimit: 0 });
    const res = await request(krypton.server)
      .get('/api/krypton/config')
      .set('Authorization', as('alice'));
    await krypton.stop();
    expect(res.status).toBe(503);
    expect(res.body.error).toBe(
      'KRYPTON_HISTORY_LIMIT must be a decimal integer from 1 to 100',
    );
    expect(res.body.historyLimit).toBeNull();
  });
});
