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

/**
 * "Values leave the cluster only when a person asks for them": a value read may name the keys it
 * wants (`?keys=`), which the audit records, and the summary sizes the values for a caller who may
 * reveal them, so that a view can mask values without reading them.
 */

const KEYS_REFUSAL = {
  error:
    'Query parameter "keys" must be a comma-separated list of at most 1,000 different Secret keys.',
};
const PERMISSION_REFUSAL = {
  error: 'You are not allowed to do this by the Backstage permission policy.',
};
const ACL_REFUSAL = {
  error: "You are not allowed to do this by the Secret's access rules.",
};
const KUBERNETES_REFUSAL = {
  error:
    'Access denied. Check Kubernetes permissions for the effective identity and, when enabled, ServiceAccount impersonation permissions.',
};
const TOKEN_REFUSAL = {
  error:
    'The values of service-account token Secrets are never revealed through Krypton.',
};

// Values that must never reach a log line or an audit event.
const CANARY = 'value-reads-canary-51c0e2';
const PASSWORD = `é${CANARY}`;
const USERNAME = `${CANARY}-user`;
const PROTO = `${CANARY}-proto`;
const KEYCAP = `🔑${CANARY}`;
const BINARY_BYTES = Buffer.from([0x00, 0xff, 0xfe, 0x80, 0xc3, 0x28]);
const BINARY = BINARY_BYTES.toString('base64');
const ALL_KEYS = [
  '__proto__',
  'blob.bin',
  'empty',
  'keycap',
  'password',
  'username',
].sort();

type Body = Record<string, any>;

describe('value reads by key, and value sizes, against a real kube-apiserver', () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  let krypton: KryptonTestBackend;
  const api = () => request(krypton.server);
  const base = () => `/api/krypton/namespaces/${ns.name}/secrets`;
  const read = (path: string, user = 'alice') =>
    api().get(`${base()}/${path}`).set('Authorization', as(user));
  /** The audit events recorded while `run` ran. */
  const auditsOf = async (run: () => Promise<unknown>) => {
    const before = krypton.sink.audits.length;
    await run();
    return krypton.sink.audits.slice(before);
  };

  beforeAll(async () => {
    krypton = await startKryptonBackend();
    for (const name of ['user:default/alice', 'user:default/root']) {
      await admin.grantSecrets(ns.name, { kind: 'User', name });
    }
    await admin.grantSecrets(ns.name, {
      kind: 'Group',
      name: 'group:default/team-c',
    });
    await eventually(
      () => api().get(base()).set('Authorization', as('bob')),
      r => r.status === 200,
    );
    // __proto__ is an ordinary key: the body is written as text, where it is a plain member.
    const data = JSON.stringify({
      username: USERNAME,
      password: PASSWORD,
      empty: '',
      keycap: KEYCAP,
    }).replace('{', `{"__proto__":${JSON.stringify(PROTO)},`);
    const created = await api()
      .post(base())
      .set('Authorization', as('alice'))
      .set('Content-Type', 'application/json')
      .send(
        `{"name":"creds","data":${data},"binaryData":{"blob.bin":"${BINARY}"}}`,
      );
    if (created.status !== 201) throw new Error(`create: ${created.status}`);
    const ruled = await api()
      .post(base())
      .set('Authorization', as('alice'))
      .send({
        name: 'team-a-only',
        data: { password: PASSWORD },
        access: { owners: ['group:default/team-a'] },
      });
    if (ruled.status !== 201) throw new Error(`create: ${ruled.status}`);
    await admin.createSecret(ns.name, {
      metadata: {
        name: 'sa-token',
        labels: { 'krypton.io/managed-by': 'krypton' },
        annotations: { 'kubernetes.io/service-account.name': 'default' },
      },
      type: 'kubernetes.io/service-account-token',
      data: { token: Buffer.from(CANARY).toString('base64') },
    });
  });
  afterAll(async () => {
    await krypton.stop();
    admin.close();
  });
  afterEach(() => testPolicy.reset());

  describe('GET .../secrets/:name?keys=', () => {
    it('answers the values of the named keys only, keys and binaryKeys whole, and audits the names', async () => {
      let res: request.Response | undefined;
      const events = await auditsOf(async () => {
        res = await read('creds?keys=password');
      });
      expect(res!.status).toBe(200);
      expect(res!.headers['cache-control']).toBe('no-store');
      expect(res!.body.data).toEqual({ password: PASSWORD });
      expect(res!.body.binaryData).toEqual({});
      expect(res!.body.keys).toEqual(ALL_KEYS);
      expect(res!.body.binaryKeys).toEqual(['blob.bin']);
      for (const other of [USERNAME, PROTO, KEYCAP, BINARY]) {
        expect(res!.text).not.toContain(other);
      }

      const meta = {
        cluster: 'test',
        namespace: ns.name,
        name: 'creds',
        keys: 'password',
      };
      expect(events).toEqual([
        expect.objectContaining({
          eventId: 'secret-read',
          status: 'initiated',
          actor: 'user:default/alice',
          meta,
        }),
        expect.objectContaining({
          eventId: 'secret-read',
          status: 'succeeded',
          actor: 'user:default/alice',
          meta: { ...meta, resourceVersion: res!.body.resourceVersion },
        }),
      ]);
      expect(krypton.sink.text()).not.toContain(CANARY);
      expect(krypton.sink.text()).not.toContain(BINARY);
    });

    it('answers a binary key in binaryData only, and text and binary keys together', async () => {
      const binary = await read('creds?keys=blob.bin');
      expect(binary.status).toBe(200);
      expect(binary.body.data).toEqual({});
      expect(binary.body.binaryData).toEqual({ 'blob.bin': BINARY });

      const both = await read(
        `creds?keys=${encodeURIComponent('blob.bin,empty')}`,
      );
      expect(both.status).toBe(200);
      expect(both.body.data).toEqual({ empty: '' });
      expect(both.body.binaryData).toEqual({ 'blob.bin': BINARY });
    });

    it('serves __proto__ as an ordinary key', async () => {
      const res = await read('creds?keys=__proto__');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.data)).toEqual(['__proto__']);
      expect(
        Object.getOwnPropertyDescriptor(res.body.data, '__proto__')?.value,
      ).toBe(PROTO);
    });

    it('answers the same under /clusters/:cluster', async () => {
      const res = await api()
        .get(
          `/api/krypton/clusters/test/namespaces/${ns.name}/secrets/creds?keys=keycap`,
        )
        .set('Authorization', as('alice'));
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ keycap: KEYCAP });
      expect(res.body.keys).toEqual(ALL_KEYS);
    });

    it('leaves out a key that the Secret does not hold, and audits it as asked', async () => {
      const missing = await read('creds?keys=missing');
      expect(missing.status).toBe(200);
      expect(missing.body.data).toEqual({});
      expect(missing.body.binaryData).toEqual({});
      expect(missing.body.keys).toEqual(ALL_KEYS);

      let res: request.Response | undefined;
      const events = await auditsOf(async () => {
        res = await read('creds?keys=password,missing');
      });
      expect(res!.status).toBe(200);
      expect(res!.body.data).toEqual({ password: PASSWORD });
      expect(events.map(e => [e.status, e.meta.keys])).toEqual([
        ['initiated', 'password,missing'],
        ['succeeded', 'password,missing'],
      ]);
    });

    it('answers every value when every key is named, as the read without keys does', async () => {
      const plain = await read('creds');
      const named = await read(`creds?keys=${ALL_KEYS.join(',')}`);
      expect(named.status).toBe(200);
      expect(named.body).toEqual(plain.body);
    });

    it('leaves the read without keys as it was: every value, no keys in the audit', async () => {
      let res: request.Response | undefined;
      const events = await auditsOf(async () => {
        res = await read('creds');
      });
      expect(res!.status).toBe(200);
      const values = res!.body.data as Record<string, string>;
      expect(Object.keys(values).sort()).toEqual(
        ALL_KEYS.filter(k => k !== 'blob.bin'),
      );
      expect(Object.getOwnPropertyDescriptor(values, '__proto__')?.value).toBe(
        PROTO,
      );
      expect([
        values.username,
        values.password,
        values.empty,
        values.keycap,
      ]).toEqual([USERNAME, PASSWORD, '', KEYCAP]);
      expect(res!.body.binaryData).toEqual({ 'blob.bin': BINARY });
      expect(res!.body).not.toHaveProperty('keySizes');
      const meta = { cluster: 'test', namespace: ns.name, name: 'creds' };
      expect(events.map(e => [e.eventId, e.status, e.meta])).toEqual([
        ['secret-read', 'initiated', meta],
        [
          'secret-read',
          'succeeded',
          { ...meta, resourceVersion: res!.body.resourceVersion },
        ],
      ]);
    });

    // [query as sent, why]: all 400 with the fixed message, judged before the Secret is read.
    const REFUSED: Array<[string, string]> = [
      ['?keys=', 'an empty list'],
      ['?keys', 'a parameter without a value'],
      ['?keys=a,,b', 'an empty entry'],
      ['?keys=password,', 'a trailing comma'],
      ['?keys=,password', 'a leading comma'],
      ['?keys=a%2Fb', 'a key with "/"'],
      ['?keys=a/b', 'a key with "/", unencoded'],
      ['?keys=a%20b', 'a key with a space'],
      ['?keys=..', 'the key ".."'],
      ['?keys=%C3%A9', 'a non-ASCII key'],
      ['?keys=password%00', 'a NUL'],
      ['?keys=%E0%A4%A', 'broken percent-encoding'],
      [`?keys=${'k'.repeat(254)}`, 'a key of 254 characters'],
      ['?keys=password,password', 'a repeated key'],
      ['?keys=a%2C%2Cb', 'an empty entry, percent-encoded'],
      [
        `?keys=${Array.from({ length: 1001 }, (_, i) => `k${i}`).join(',')}`,
        'more than 1,000 keys',
      ],
      // Hostile lists that still fit Node's header limit: refused as fast as they are read.
      [`?keys=${','.repeat(10_000)}`, '10,000 commas'],
      [`?keys=${'k'.repeat(15_000)}`, 'a key of 15,000 characters'],
      [`?keys=${'a,'.repeat(5_000)}a`, '5,001 keys'],
    ];

    it.each(REFUSED.map(([query, why]) => [why, query]))(
      'answers 400 with the fixed message for %s, unaudited',
      async (_why, query) => {
        let res: request.Response | undefined;
        const events = await auditsOf(async () => {
          res = await read(`creds${query}`);
        });
        expect(res!.status).toBe(400);
        expect(res!.headers['cache-control']).toBe('no-store');
        expect(res!.body).toEqual(KEYS_REFUSAL);
        // README, Audit events: a malformed query is refused before the operation starts.
        expect(events).toEqual([]);
      },
    );

    it('keeps the other rules of queries: repeated and unknown parameters, snapshot names first', async () => {
      const repeated = await read('creds?keys=password&keys=username');
      expect(repeated.status).toBe(400);
      expect(repeated.body).toEqual({
        error: 'Query parameter "keys" must be given once, as text.',
      });
      const unknown = await read('creds?keys=password&watch=true');
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({
        error: 'Unknown query parameter "watch".',
      });
      const misspelt = await read('creds?key=password');
      expect(misspelt.body).toEqual({
        error: 'Unknown query parameter "key".',
      });
      // The summary and the other named routes take no keys.
      const summary = await read('creds/summary?keys=password');
      expect(summary.status).toBe(400);
      expect(summary.body).toEqual({
        error: 'Unknown query parameter "keys".',
      });
      const snapshot = await read(
        'krypton-h-0123456789abcdef0123456789abcdef-v1?keys=',
      );
      expect(snapshot.status).toBe(404);
      // The query is judged before the Secret: a missing one, or one the caller may not read.
      expect((await read('no-such-secret?keys=')).body).toEqual(KEYS_REFUSAL);
      expect((await read('creds?keys=', 'carol')).body).toEqual(KEYS_REFUSAL);
    });

    it("leaves a list over Node's header limit to Node's 431, never a 500, and keeps serving", async () => {
      // Node's HTTP parser answers 431 before Backstage or Krypton see the request (a client still
      // writing a long URL may see the connection reset instead); the key list parser itself
      // refuses such lists with the 400 (keyList.test.ts in the core).
      for (const query of [
        `?keys=${','.repeat(200_000)}`,
        `?keys=${'k'.repeat(1024 * 1024)}`,
      ]) {
        const outcome = await rawGet(`${base()}/creds${query}`);
        expect(
          outcome.status === 431 ||
            ['ECONNRESET', 'EPIPE'].includes(outcome.error ?? ''),
        ).toBe(true);
        expect(outcome.status).not.toBe(500);
      }
      expect((await read('creds?keys=password')).status).toBe(200);
    });

    /** A GET with a URL of any length, as a hostile client sends it. */
    function rawGet(
      path: string,
    ): Promise<{ status?: number; error?: string }> {
      const url = new URL(krypton.url);
      return new Promise(resolve => {
        const req = http.request(
          {
            host: url.hostname,
            port: url.port,
            method: 'GET',
            path,
            headers: { authorization: as('alice') },
            agent: false,
          },
          res => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode }));
          },
        );
        req.on('error', (err: NodeJS.ErrnoException) =>
          resolve({ error: err.code }),
        );
        req.end();
      });
    }

    it('refuses a caller who may not reveal exactly as the read without keys, auditing the names', async () => {
      testPolicy.denied.add('user:default/alice:krypton.secret.reveal');
      const plain = await read('creds');
      let named: request.Response | undefined;
      const events = await auditsOf(async () => {
        named = await read('creds?keys=password');
      });
      expect(plain.status).toBe(403);
      expect(plain.body).toEqual(PERMISSION_REFUSAL);
      expect(named!.status).toBe(403);
      expect(named!.body).toEqual(plain.body);
      expect(named!.text).not.toContain(CANARY);
      expect(events.map(e => [e.eventId, e.status, e.meta.keys])).toEqual([
        ['secret-read', 'initiated', 'password'],
        ['secret-read', 'failed', 'password'],
      ]);
    });

    it('refuses by the access rules, Kubernetes RBAC and the type exactly as the read without keys', async () => {
      const cases: Array<[string, string, number, { error: string }]> = [
        // bob is not named by the rules of team-a-only.
        ['team-a-only', 'bob', 403, ACL_REFUSAL],
        // carol has no RBAC in the namespace.
        ['creds', 'carol', 403, KUBERNETES_REFUSAL],
        // A service-account token's values are never revealed, admins included.
        ['sa-token', 'root', 403, TOKEN_REFUSAL],
        ['sa-token', 'alice', 403, TOKEN_REFUSAL],
      ];
      for (const [name, user, status, body] of cases) {
        const plain = await read(name, user);
        const named = await read(
          `${name}?keys=${name === 'sa-token' ? 'token' : 'password'}`,
          user,
        );
        expect([name, user, plain.status]).toEqual([name, user, status]);
        expect([name, user, named.status]).toEqual([name, user, status]);
        expect(plain.body).toEqual(body);
        expect(named.body).toEqual(body);
        expect(named.text).not.toContain(CANARY);
      }
    });
  });

  describe('the summary’s keySizes', () => {
    // A computed name: a literal `__proto__:` would set the prototype instead of an entry.
    const EXPECTED_SIZES = {
      ['__proto__']: Buffer.byteLength(PROTO),
      'blob.bin': BINARY_BYTES.length,
      empty: 0,
      // 'é' is 2 bytes, '🔑' is 4 (2 UTF-16 code units): bytes, not characters.
      keycap: 4 + CANARY.length,
      password: 2 + CANARY.length,
      username: Buffer.byteLength(USERNAME),
    };

    /** The sizes as an ordinary object, __proto__ included as an own entry. */
    const sizesOf = (body: Body) =>
      Object.fromEntries(Object.entries(body.keySizes ?? {}));

    it('sizes every value in decoded bytes for a caller who may reveal them, without a value read', async () => {
      let res: request.Response | undefined;
      const events = await auditsOf(async () => {
        res = await read('creds/summary');
      });
      expect(res!.status).toBe(200);
      expect(res!.body.policy.reveal).toBe(true);
      expect(Object.keys(res!.body.keySizes).sort()).toEqual(ALL_KEYS);
      expect(sizesOf(res!.body)).toEqual(
        Object.fromEntries(Object.entries(EXPECTED_SIZES)),
      );
      expect(
        Object.getOwnPropertyDescriptor(res!.body.keySizes, '__proto__')?.value,
      ).toBe(Buffer.byteLength(PROTO));
      expect(res!.body).not.toHaveProperty('data');
      expect(res!.body).not.toHaveProperty('binaryData');
      expect(res!.text).not.toContain(CANARY);
      // README: summaries are not audited; a size is no value read.
      expect(events).toEqual([]);
    });

    it('sizes the values for an admin, and under /clusters/:cluster', async () => {
      const root = await read('creds/summary', 'root');
      expect(sizesOf(root.body)).toEqual(
        sizesOf((await read('creds/summary')).body),
      );
      const scoped = await api()
        .get(
          `/api/krypton/clusters/test/namespaces/${ns.name}/secrets/creds/summary`,
        )
        .set('Authorization', as('alice'));
      expect(scoped.status).toBe(200);
      expect(sizesOf(scoped.body).password).toBe(2 + CANARY.length);
    });

    it('gives no sizes to a reader who may not reveal the values', async () => {
      testPolicy.denied.add('user:default/alice:krypton.secret.reveal');
      const res = await read('creds/summary');
      expect(res.status).toBe(200);
      expect(res.body.policy.reveal).toBe(false);
      expect(res.body.keys).toEqual(ALL_KEYS);
      expect(res.body).not.toHaveProperty('keySizes');
      expect(res.text).not.toContain('"keySizes"');
    });

    it('never sizes the values of a service-account token, admins included', async () => {
      for (const user of ['root', 'alice']) {
        const res = await read('sa-token/summary', user);
        expect(res.status).toBe(200);
        expect(res.body.type).toBe('kubernetes.io/service-account-token');
        expect(res.body.keys).toContain('token');
        expect(res.body).not.toHaveProperty('keySizes');
      }
    });

    it('is carried by the summary route only: not by lists, value reads or write answers', async () => {
      const list = await api().get(base()).set('Authorization', as('alice'));
      expect(list.status).toBe(200);
      expect(list.text).not.toContain('keySizes');
      expect((await read('creds')).body).not.toHaveProperty('keySizes');
      const created = await api()
        .post(base())
        .set('Authorization', as('alice'))
        .send({ name: 'sized-write', data: { pin: '1234' } });
      expect(created.status).toBe(201);
      expect(created.body).not.toHaveProperty('keySizes');
      const updated = await api()
        .put(`${base()}/sized-write`)
        .set('Authorization', as('alice'))
        .send({
          resourceVersion: created.body.resourceVersion,
          data: { pin: '98765' },
        });
      expect(updated.status).toBe(200);
      expect(updated.body).not.toHaveProperty('keySizes');
      // A 4-digit PIN is 4 bytes, a 5-digit one 5: the size follows the current value.
      expect(sizesOf((await read('sized-write/summary')).body)).toEqual({
        pin: 5,
      });
    });
  });

  describe('logs and audit', () => {
    it('never hold a value', () => {
      // Runs last: every value this file wrote, read or was refused must be absent.
      expect(krypton.sink.audits.length).toBeGreaterThan(0);
      expect(krypton.sink.text()).not.toContain(CANARY);
      expect(krypton.sink.text()).not.toContain(BINARY);
    });
  });
});
