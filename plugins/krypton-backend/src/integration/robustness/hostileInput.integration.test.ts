import {
  FaultProxy,
  startFaultProxy,
  testClusterState,
  useTestNamespace,
  ClusterAdmin,
  eventually,
  container,
  createWorkload,
} from '@krypton/kube-testenv';
import {
  MAX_SECRET_BYTES,
  SIZE_ESTIMATE_INFLATION,
  NativeSecret,
} from '@krypton/core';
import fc from 'fast-check';
import http from 'node:http';
import zlib from 'node:zlib';
import { waitForRun } from '../../__testUtils__/storageRewrite';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from '../../__testUtils__/testBackend';

// Hostile input over HTTP, against the real control plane. Every answer must be a 4xx with the
// { error } envelope or a documented success, carry Cache-Control: no-store, and never echo a
// value; afterwards the Secret and its history are exactly as they were.

// The value stored in the target and in its history: never in a refusal, a log or an audit event.
const CANARY = 'canary-hostile-5d1e0b';
// A value that hostile request bodies carry: never echoed back, never logged.
const SENT = 'sent-hostile-93ac41';
// What forged Impersonate-* headers carry: none of it may travel upstream.
const FORGED = 'forged-7c1d';
// A resourceVersion that is never the target's current one.
const STALE = '1';
// http/body.ts reads at most '4mb'.
const BODY_LIMIT = 4 * 1024 * 1024;

const ALICE = {
  user: 'user:default/alice',
  groups: ['group:default/team-a'],
};

/** The Kubernetes definitions, transcribed here independently of Krypton's validation. */
const DNS_SUBDOMAIN =
  /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const isSecretName = (s: string) => s.length <= 253 && DNS_SUBDOMAIN.test(s);
const isNamespace = (s: string) =>
  s.length <= 63 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(s);
/** IsConfigMapKey: at most 253 of [-._a-zA-Z0-9], not ".", not "..", not starting with "..". */
const isDataKey = (k: string) =>
  k.length >= 1 &&
  k.length <= 253 &&
  /^[-._a-zA-Z0-9]+$/.test(k) &&
  k !== '.' &&
  !k.startsWith('..');
const isResourceVersion = (v: string) => /^[\x21-\x7e]{1,128}$/.test(v);

const strictDecoder = new TextDecoder('utf-8', {
  fatal: true,
  ignoreBOM: true,
});
function strictUtf8(bytes: Uint8Array): string | null {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    return null;
  }
}
const percentEncoded = (bytes: Uint8Array) =>
  [...bytes]
    .map(b => `%${b.toString(16).toUpperCase().padStart(2, '0')}`)
    .join('');
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: unknown;
}

interface Call {
  method: string;
  path: string;
  /** A Backstage user; null sends no Authorization at all. Default alice. */
  user?: string | null;
  headers?: Record<string, string | string[]>;
  /** Raw bytes, sent as they are. */
  body?: Buffer | string;
  /** Serialized with JSON.stringify and sent as application/json. */
  json?: unknown;
  /** Send the body with Transfer-Encoding: chunked instead of a Content-Length. */
  chunked?: boolean;
}

/** Anything to compare two answers by, without the timestamps that differ between runs. */
function withoutTimes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTimes);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !/At$/.test(k))
      .map(([k, v]) => [k, withoutTimes(v)]),
  );
}

/** A well-formed storage rewrite run id that names no run. */
const RUN_ID = '6f1c2b1e-6d59-4a53-9d39-2f0c2f2d9a10';

describe('hostile input over HTTP', () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();
  let proxy: FaultProxy;
  let krypton: KryptonTestBackend;
  let targetBefore: NativeSecret;
  let snapshotsBefore: Array<[string, string]>;
  let snapshotName: string;
  let targetRv: string;
  // Names of every Secret of the namespace, so generated names can avoid them.
  const existing = new Set<string>();

  const base = () => `/api/krypton/namespaces/${ns.name}/secrets`;
  const target = () => `${base()}/target`;
  // A create that changes nothing: the name is taken (409).
  const harmlessCreate = () => ({ name: 'target', data: { k: SENT } });

  function send(call: Call): Promise<Answer> {
    const url = new URL(krypton.url);
    const user = call.user === undefined ? 'alice' : call.user;
    const headers: Record<string, string | string[]> = {};
    if (user !== null) headers.Authorization = as(user);
    let body = call.body;
    if (call.json !== undefined) {
      body = JSON.stringify(call.json);
      headers['Content-Type'] = 'application/json';
    }
    Object.assign(headers, call.headers);
    if (body !== undefined && !call.chunked) {
      headers['Content-Length'] = String(Buffer.byteLength(body));
    }
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          method: call.method,
          path: call.path,
          headers,
          agent,
        },
        res => {
          const chunks: Buffer[] = [];
          res.on('data', c => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let json: unknown;
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              text,
              json,
            });
          });
        },
      );
      req.on('error', reject);
      if (body !== undefined && call.chunked) {
        const bytes = Buffer.from(body);
        for (let i = 0; i < bytes.length; i += 65536) {
          req.write(bytes.subarray(i, i + 65536));
        }
        req.end();
      } else {
        req.end(body);
      }
    });
  }

  /**
   * The invariants of every answer: no 5xx, no-store, the { error } envelope on refusals, and no
   * value: neither one a hostile body carried nor, unless the request may reveal it, the stored one.
   */
  function expectSafe(answer: Answer, options: { reveals?: boolean } = {}) {
    expect(answer.status).toBeGreaterThanOrEqual(200);
    expect(answer.status).toBeLessThan(500);
    expect(answer.headers['cache-control']).toBe('no-store');
    const refusal = answer.status >= 400 ? answer.json : { error: 'success' };
    expect(refusal).toEqual({ error: expect.any(String) });
    expect(answer.text).not.toContain(SENT);
    expect(options.reveals ? '' : answer.text).not.toContain(CANARY);
  }

  /** Sends a call, checks the invariants and returns its status. */
  async function statusOf(call: Call, options: { reveals?: boolean } = {}) {
    const answer = await send(call);
    expectSafe(answer, options);
    return answer.status;
  }

  /** The routes that take a Secret name, each with a body or query that changes nothing. */
  const NAMED_ROUTES: Array<{
    route: string;
    method: string;
    suffix: string;
    json?: unknown;
    query?: string;
  }> = [
    { route: 'GET', method: 'GET', suffix: '' },
    { route: 'summary', method: 'GET', suffix: '/summary' },
    {
      route: 'PUT',
      method: 'PUT',
      suffix: '',
      json: { resourceVersion: STALE, data: { k: SENT } },
    },
    {
      route: 'DELETE',
      method: 'DELETE',
      suffix: '',
      query: `?resourceVersion=${STALE}`,
    },
    {
      route: 'adopt',
      method: 'POST',
      suffix: '/adopt',
      json: { resourceVersion: STALE },
    },
    { route: 'versions', method: 'GET', suffix: '/versions' },
    { route: 'version', method: 'GET', suffix: '/versions/1' },
    {
      route: 'restore',
      method: 'POST',
      suffix: '/restore',
      json: { version: 1, resourceVersion: STALE },
    },
    {
      route: 'restart-consumers',
      method: 'POST',
      suffix: '/restart-consumers',
    },
    {
      route: 'restart-consumers/last',
      method: 'GET',
      suffix: '/restart-consumers/last',
    },
    { route: 'consumers', method: 'GET', suffix: '/consumers' },
    { route: 'owner-sync offer', method: 'GET', suffix: '/owner-sync' },
    { route: 'owner-sync', method: 'POST', suffix: '/owner-sync' },
  ];

  const namedCall = (
    route: (typeof NAMED_ROUTES)[number],
    segment: string,
    prefix = '/api/krypton',
    namespace = ns.name,
  ): Call => ({
    method: route.method,
    path: `${prefix}/namespaces/${namespace}/secrets/${segment}${route.suffix}${
      route.query ?? ''
    }`,
    json: route.json,
  });

  beforeAll(async () => {
    const state = testClusterState();
    proxy = await startFaultProxy({
      target: state.server,
      caFile: state.caFile || undefined,
    });
    krypton = await startKryptonBackend(
      { restart: { enabled: true } },
      { clusterUrl: proxy.url },
    );
    await admin.grantSecrets(ns.name, { kind: 'User', name: ALICE.user });
    await admin.grantSecrets(ns.name, {
      kind: 'User',
      name: 'user:default/root',
    });
    // bob may read Secrets in Kubernetes, but the target's rules do not name him.
    await admin.grantSecrets(ns.name, {
      kind: 'Group',
      name: 'group:default/team-c',
    });
    await admin.grant(
      ns.name,
      'apps-alice',
      { kind: 'User', name: ALICE.user },
      [
        {
          apiGroups: ['apps'],
          resources: ['deployments', 'statefulsets', 'daemonsets'],
          verbs: ['get', 'list', 'patch'],
        },
      ],
    );
    await eventually(
      () => send({ method: 'GET', path: base(), user: 'bob' }),
      r => r.status === 200,
    );
    // The target: v3 with two snapshots, both holding the canary.
    let res = await send({
      method: 'POST',
      path: base(),
      json: {
        name: 'target',
        description: 'hostile-input target',
        data: { password: CANARY, user: 'app-1' },
        access: { owners: [ALICE.user] },
      },
    });
    for (const user of ['app-2', 'app-3']) {
      if (res.status !== 201 && res.status !== 200) {
        throw new Error(`target setup: ${res.status}`);
      }
      res = await send({
        method: 'PUT',
        path: target(),
        json: {
          resourceVersion: (res.json as { resourceVersion: string })
            .resourceVersion,
          data: { password: CANARY, user },
        },
      });
    }
    if (res.status !== 200) throw new Error(`target setup: ${res.status}`);
    await createWorkload(admin, ns.name, 'Deployment', 'consumer', {
      containers: [container({ envFrom: [{ secretRef: { name: 'target' } }] })],
    });
    targetBefore = await admin.secret(ns.name, 'target');
    targetRv = targetBefore.metadata.resourceVersion!;
    const snapshots = await admin.snapshots(ns.name);
    snapshotsBefore = snapshots
      .map(
        s =>
          [s.metadata.name!, s.metadata.resourceVersion!] as [string, string],
      )
      .sort();
    if (snapshotsBefore.length !== 2) {
      throw new Error(`expected 2 snapshots, found ${snapshotsBefore.length}`);
    }
    snapshotName = snapshotsBefore[0][0];
    for (const s of await admin.listSecrets(ns.name)) {
      existing.add(s.metadata.name!);
    }
  });
  afterAll(async () => {
    await krypton?.stop();
    await proxy?.close();
    admin.close();
    agent.destroy();
  });

  describe('path tricks', () => {
    // [segment as sent in the path, status]: the same on every named route.
    const nameTricks = (): Array<[string, number]> => [
      ['a%2Fb', 400],
      ['target%2F', 400],
      ['%2Ftarget', 400],
      ['..', 400],
      ['.', 400],
      ['%2e%2e', 400],
      ['%2E', 400],
      ['%00', 400],
      ['target%00', 400],
      ['Target', 400],
      ['TARGET', 400],
      ['target%20', 400],
      ['-target', 400],
      ['target.', 400],
      ['tar_get', 400],
      ['target%3Fx%3D1', 400],
      ['a'.repeat(254), 400],
      ['a'.repeat(253), 404],
      [`${'a'.repeat(63)}.${'b'.repeat(189)}`, 404],
      // History snapshots: a real one, its uppercase spelling, a made-up one, percent-encoded.
      [snapshotName, 404],
      [snapshotName.toUpperCase(), 400],
      ['krypton-h-x', 404],
      [`%6B${snapshotName.slice(1)}`, 404],
      // Unicode: a-umlaut, full-width t, zero-width space, Cyrillic a, an emoji.
      ['t%C3%A4rget', 400],
      ['%EF%BD%94arget', 400],
      ['target%E2%80%8B', 400],
      ['t%D0%B0rget', 400],
      ['%F0%9F%94%91', 400],
      // Percent-encodings that are not UTF-8.
      ['%E0%A4%A', 400],
      ['%C0%AF', 400],
      ['%ED%A0%80', 400],
      ['%ZZ', 400],
      ['%', 400],
      ['target%FF', 400],
    ];

    it.each(NAMED_ROUTES.map(r => [r.route, r] as const))(
      'judges the name before anything else on %s, with and without /clusters/test',
      async (_label, route) => {
        const got: Array<[string, string, number]> = [];
        for (const prefix of ['/api/krypton', '/api/krypton/clusters/test']) {
          for (const [segment] of nameTricks()) {
            got.push([
              prefix,
              segment,
              await statusOf(namedCall(route, segment, prefix)),
            ]);
          }
        }
        expect(got).toEqual(
          ['/api/krypton', '/api/krypton/clusters/test'].flatMap(prefix =>
            nameTricks().map(([segment, status]) => [prefix, segment, status]),
          ),
        );
      },
    );

    // [namespace segment, status]. A valid namespace without RBAC for alice is Kubernetes' 403.
    const NAMESPACE_TRICKS: Array<[string, number]> = [
      ['a'.repeat(63), 403],
      ['a'.repeat(64), 400],
      ['kube-system', 403],
      ['default', 403],
      ['KUBE-SYSTEM', 400],
      ['..', 400],
      ['%2e%2e', 400],
      ['kube-system%00', 400],
      ['kube%2Fsystem', 400],
      ['n%C3%A4', 400],
      ['%E0%A4%A', 400],
      ['a.b', 400],
    ];

    it.each(NAMESPACE_TRICKS)(
      'judges the namespace %s on the list, create and named routes',
      async (segment, status) => {
        const calls: Call[] = [
          { method: 'GET', path: `/api/krypton/namespaces/${segment}/secrets` },
          {
            method: 'POST',
            path: `/api/krypton/namespaces/${segment}/secrets`,
            json: { name: 'target', data: { k: SENT } },
          },
          ...NAMED_ROUTES.map(r =>
            namedCall(r, 'target', '/api/krypton', segment),
          ),
        ];
        const got: number[] = [];
        for (const call of calls) got.push(await statusOf(call));
        expect(got).toEqual(calls.map(() => status));
      },
    );

    it('refuses route-shape tricks, unknown clusters and malformed versions', async () => {
      const cases: Array<[string, number, boolean?]> = [
        // `..` stands where a Secret name goes: the name gate refuses it before routing does.
        [`${base()}/../secrets/target`, 400],
        [`${base()}//target`, 404],
        [`/api/krypton/namespaces/${ns.name}//secrets/target`, 404],
        [`/api/krypton/%2e%2e/krypton/health`, 404],
        [`/api/krypton/clusters/TEST/namespaces/${ns.name}/secrets`, 404],
        [`/api/krypton/clusters/%2e%2e/namespaces/${ns.name}/secrets`, 404],
        [`/api/krypton/clusters/te%2Fst/namespaces/${ns.name}/secrets`, 404],
        [`/api/krypton/clusters/%C0/namespaces/${ns.name}/secrets`, 400],
        [`/api/krypton/clusters/test%00/namespaces/${ns.name}/secrets`, 404],
        [`${target()}/versions/0`, 400],
        [`${target()}/versions/01`, 400],
        [`${target()}/versions/-1`, 400],
        [`${target()}/versions/1.0`, 400],
        [`${target()}/versions/1e0`, 400],
        [`${target()}/versions/0x1`, 400],
        [`${target()}/versions/%201`, 400],
        [`${target()}/versions/1%00`, 400],
        [`${target()}/versions/%EF%BC%91`, 400],
        [`${target()}/versions/9007199254740993`, 400],
        [`${target()}/versions/%E0`, 400],
        [`${target()}/versions/99999`, 404],
        // %31 is "1": the same request as /versions/1, which may show the snapshot's values.
        [`${target()}/versions/%31`, 200, true],
      ];
      const got: Array<[string, number]> = [];
      for (const [path, , reveals] of cases) {
        got.push([path, await statusOf({ method: 'GET', path }, { reveals })]);
      }
      expect(got).toEqual(cases.map(([path, status]) => [path, status]));
    });

    it('serves names of 253 characters and refuses 254, with snapshots of at most 60', async () => {
      const long = 'l'.repeat(253);
      const tooLong = 'l'.repeat(254);
      const refused = await send({
        method: 'POST',
        path: base(),
        json: { name: tooLong, data: { k: SENT } },
      });
      expectSafe(refused);
      expect(refused.status).toBe(400);
      const created = await send({
        method: 'POST',
        path: base(),
        json: { name: long, data: { k: 'one' } },
      });
      expect(created.status).toBe(201);
      existing.add(long);
      const updated = await send({
        method: 'PUT',
        path: `${base()}/${long}`,
        json: {
          resourceVersion: (created.json as { resourceVersion: string })
            .resourceVersion,
          data: { k: 'two' },
        },
      });
      expect(updated.status).toBe(200);
      const history = await send({
        method: 'GET',
        path: `${base()}/${long}/versions`,
      });
      expectSafe(history);
      expect(history.json).toEqual({
        items: [expect.objectContaining({ version: 1, keys: ['k'] })],
      });
      const snapshots = (await admin.snapshots(ns.name)).filter(
        s => s.metadata.annotations?.['krypton.io/history-of'] === long,
      );
      expect(snapshots).toHaveLength(1);
      expect(snapshots[0].metadata.name!.length).toBeLessThanOrEqual(60);
      expect((await admin.getSecret(ns.name, tooLong)).status).toBe(404);
    });

    it('answers every named route of a generated name by the Kubernetes rules', async () => {
      const segment = fc.oneof(
        fc.string({ unit: 'binary', minLength: 1, maxLength: 24 }).map(s => ({
          raw: encodeURIComponent(s),
          decoded: s as string | null,
        })),
        fc
          .stringMatching(/^[a-z0-9][-a-z0-9.]{0,40}$/)
          .map(s => ({ raw: s, decoded: s as string | null })),
        fc
          .uint8Array({ minLength: 1, maxLength: 10 })
          .map(b => ({ raw: percentEncoded(b), decoded: strictUtf8(b) })),
        fc
          .constantFrom(
            'krypton-h-',
            'KRYPTON-H-',
            'krypton-h-0-v1',
            'x'.repeat(253),
          )
          .map(s => ({ raw: s, decoded: s as string | null })),
      );
      await fc.assert(
        fc.asyncProperty(
          segment,
          fc.constantFrom(...NAMED_ROUTES),
          async ({ raw, decoded }, route) => {
            fc.pre(decoded === null || !existing.has(decoded));
            const valid = decoded !== null && isSecretName(decoded);
            const status = await statusOf(namedCall(route, raw));
            expect({ raw, status }).toEqual({
              raw,
              status: valid ? 404 : 400,
            });
          },
        ),
        { numRuns: 150 },
      );
    });

    it('answers the list of a generated namespace by the Kubernetes rules', async () => {
      const segment = fc.oneof(
        fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }).map(s => ({
          raw: encodeURIComponent(s),
          decoded: s as string | null,
        })),
        fc
          .stringMatching(/^[a-z0-9][-a-z0-9]{0,66}$/)
          .map(s => ({ raw: s, decoded: s as string | null })),
        fc
          .uint8Array({ minLength: 1, maxLength: 8 })
          .map(b => ({ raw: percentEncoded(b), decoded: strictUtf8(b) })),
      );
      await fc.assert(
        fc.asyncProperty(segment, async ({ raw, decoded }) => {
          fc.pre(decoded !== ns.name);
          const valid = decoded !== null && isNamespace(decoded);
          const status = await statusOf({
            method: 'GET',
            path: `/api/krypton/namespaces/${raw}/secrets`,
          });
          // alice has RBAC in the test namespace only: any other valid one is Kubernetes' 403.
          expect({ raw, status }).toEqual({ raw, status: valid ? 403 : 400 });
        }),
        { numRuns: 60 },
      );
    });
  });

  describe('request bodies', () => {
    type BodyRoute =
      | 'create'
      | 'put'
      | 'adopt'
      | 'restore'
      | 'restart'
      | 'recreate';
    const BODY_ROUTES: BodyRoute[] = [
      'create',
      'put',
      'adopt',
      'restore',
      'restart',
      'recreate',
    ];
    const bodyPath = (route: BodyRoute) =>
      ({
        create: base(),
        put: target(),
        adopt: `${target()}/adopt`,
        restore: `${target()}/restore`,
        restart: `${target()}/restart-consumers`,
        recreate: `/api/krypton/namespaces/${ns.name}/deleted-secrets/target/recreate`,
      }[route]);
    const bodyMethod = (route: BodyRoute) => (route === 'put' ? 'PUT' : 'POST');
    // A well-formed body per route that changes nothing, and its answer.
    const harmless = (route: BodyRoute) =>
      ({
        create: { name: 'target', data: { k: SENT } },
        put: { resourceVersion: STALE, data: { k: SENT } },
        adopt: { resourceVersion: STALE },
        restore: { version: 1, resourceVersion: STALE },
        restart: {},
        // The name lives, so this recreate is refused before any history is read.
        recreate: { uid: '00000000-0000-4000-8000-000000000000', version: 1 },
      }[route]);
    const HARMLESS: Record<BodyRoute, number> = {
      create: 409,
      put: 409,
      adopt: 409,
      restore: 409,
      restart: 200,
      recreate: 409,
    };
    const all = (status: number): Record<BodyRoute, number> => ({
      create: status,
      put: status,
      adopt: status,
      restore: status,
      restart: status,
      recreate: status,
    });
    const utf8 = (text: string) => Buffer.from(text, 'utf8');
    const bytes = (...parts: Array<string | number[]>) =>
      Buffer.concat(
        parts.map(p => (typeof p === 'string' ? utf8(p) : Buffer.from(p))),
      );
    const JSON_TYPE = { 'Content-Type': 'application/json' };

    // [label, raw body, headers, status per route]
    const BODIES: Array<
      [
        string,
        (route: BodyRoute) => Buffer | string,
        Record<string, string>,
        Record<BodyRoute, number>,
      ]
    > = [
      ['an array root', () => '[]', JSON_TYPE, all(400)],
      ['a string root', () => '"x"', JSON_TYPE, all(400)],
      ['a null root', () => 'null', JSON_TYPE, all(400)],
      ['a number root', () => '42', JSON_TYPE, all(400)],
      ['a boolean root', () => 'true', JSON_TYPE, all(400)],
      ['an empty object', () => '{}', JSON_TYPE, { ...all(400), restart: 200 }],
      // Content-Length: 0 is no body, whatever the Content-Type says.
      ['an empty body', () => '', JSON_TYPE, { ...all(400), restart: 200 }],
      [
        'an empty body without Content-Type',
        () => '',
        {},
        { ...all(400), restart: 200 },
      ],
      [
        'an empty text/plain body',
        () => '',
        { 'Content-Type': 'text/plain' },
        { ...all(400), restart: 200 },
      ],
      ['only whitespace', () => ' \n\t ', JSON_TYPE, all(400)],
      ['truncated JSON', () => '{"resourceVersion":"1"', JSON_TYPE, all(400)],
      [
        'a truncated string',
        () => '{"resourceVersion":"1',
        JSON_TYPE,
        all(400),
      ],
      ['a lone brace', () => '{', JSON_TYPE, all(400)],
      ['trailing garbage', () => '{}x', JSON_TYPE, all(400)],
      [
        'a UTF-8 BOM',
        () => bytes([0xef, 0xbb, 0xbf], '{}'),
        JSON_TYPE,
        all(400),
      ],
      [
        'a UTF-8 BOM before a valid body',
        r => bytes([0xef, 0xbb, 0xbf], JSON.stringify(harmless(r))),
        JSON_TYPE,
        all(400),
      ],
      [
        'UTF-16 with a BOM',
        r => Buffer.from(`\ufeff${JSON.stringify(harmless(r))}`, 'utf16le'),
        JSON_TYPE,
        all(400),
      ],
      [
        'a Latin-1 byte',
        () => bytes('{"description":"caf', [0xe9], '"}'),
        JSON_TYPE,
        all(400),
      ],
      [
        'an overlong "/"',
        () => bytes('{"description":"', [0xc0, 0xaf], '"}'),
        JSON_TYPE,
        all(400),
      ],
      [
        'an encoded surrogate',
        () => bytes('{"description":"', [0xed, 0xa0, 0x80], '"}'),
        JSON_TYPE,
        all(400),
      ],
      [
        'a truncated sequence at the end',
        () => bytes('{}', [0xe2, 0x82]),
        JSON_TYPE,
        all(400),
      ],
      [
        'a raw NUL in a string',
        () => bytes('{"description":"a', [0], 'b"}'),
        JSON_TYPE,
        all(400),
      ],
      ['a NUL after the JSON', () => bytes('{}', [0]), JSON_TYPE, all(400)],
      ['a NUL before the JSON', () => bytes([0], '{}'), JSON_TYPE, all(400)],
      [
        '__proto__ as a member',
        () => '{"__proto__":{"polluted":"yes"}}',
        JSON_TYPE,
        all(400),
      ],
      [
        'constructor.prototype as a member',
        () => '{"constructor":{"prototype":{"polluted":"yes"}}}',
        JSON_TYPE,
        all(400),
      ],
      ['prototype as a member', () => '{"prototype":1}', JSON_TYPE, all(400)],
      [
        'arrays nested 100,000 deep',
        () => `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
        JSON_TYPE,
        all(400),
      ],
      [
        'objects nested 50,000 deep',
        () => `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`,
        JSON_TYPE,
        all(400),
      ],
      // Media types and charsets: only application/json in UTF-8.
      ['no Content-Type', r => JSON.stringify(harmless(r)), {}, all(415)],
      [
        'text/plain',
        r => JSON.stringify(harmless(r)),
        { 'Content-Type': 'text/plain' },
        all(415),
      ],
      [
        'a form',
        () => 'resourceVersion=1',
        { 'Content-Type': 'application/x-www-form-urlencoded' },
        all(415),
      ],
      [
        'multipart',
        () => '--x\r\n\r\n{}\r\n--x--',
        { 'Content-Type': 'multipart/form-data; boundary=x' },
        all(415),
      ],
      [
        'a merge patch',
        r => JSON.stringify(harmless(r)),
        { 'Content-Type': 'application/merge-patch+json' },
        all(415),
      ],
      [
        'a +json vendor type',
        r => JSON.stringify(harmless(r)),
        { 'Content-Type': 'application/vnd.api+json' },
        all(415),
      ],
      ...['latin1', 'iso-8859-1', 'utf-16', 'utf8', 'us-ascii'].map(
        charset =>
          [
            `charset=${charset}`,
            (r: BodyRoute) => JSON.stringify(harmless(r)),
            { 'Content-Type': `application/json; charset=${charset}` },
            all(415),
          ] as [
            string,
            (route: BodyRoute) => string,
            Record<string, string>,
            Record<BodyRoute, number>,
          ],
      ),
      ...[
        'application/json; charset=UTF-8',
        'application/json;charset="utf-8"',
        'APPLICATION/JSON',
      ].map(
        type =>
          [
            type,
            (r: BodyRoute) => JSON.stringify(harmless(r)),
            { 'Content-Type': type },
            HARMLESS,
          ] as [
            string,
            (route: BodyRoute) => string,
            Record<string, string>,
            Record<BodyRoute, number>,
          ],
      ),
      // Content encodings: gzip is read (within the limit), anything broken or unknown is refused.
      [
        'a gzip body',
        r => zlib.gzipSync(JSON.stringify(harmless(r))),
        { ...JSON_TYPE, 'Content-Encoding': 'gzip' },
        HARMLESS,
      ],
      [
        'a corrupt gzip body',
        () => 'not gzip at all',
        { ...JSON_TYPE, 'Content-Encoding': 'gzip' },
        all(400),
      ],
      [
        'a truncated gzip body',
        r => zlib.gzipSync(JSON.stringify(harmless(r))).subarray(0, 12),
        { ...JSON_TYPE, 'Content-Encoding': 'gzip' },
        all(400),
      ],
      [
        'a corrupt deflate body',
        () => 'not deflate',
        { ...JSON_TYPE, 'Content-Encoding': 'deflate' },
        all(400),
      ],
      [
        'brotli',
        () => 'xx',
        { ...JSON_TYPE, 'Content-Encoding': 'br' },
        all(400),
      ],
      [
        'an unknown encoding',
        () => '{}',
        { ...JSON_TYPE, 'Content-Encoding': 'x-hostile' },
        all(400),
      ],
      [
        'a gzip bomb of 10 MiB',
        () => zlib.gzipSync(Buffer.alloc(10 * 1024 * 1024, 0x20)),
        { ...JSON_TYPE, 'Content-Encoding': 'gzip' },
        all(413),
      ],
    ];

    it.each(BODIES)(
      'answers a body with %s on every body route',
      async (_label, body, headers, expected) => {
        const got: Partial<Record<BodyRoute, number>> = {};
        for (const route of BODY_ROUTES) {
          got[route] = await statusOf({
            method: bodyMethod(route),
            path: bodyPath(route),
            headers,
            body: body(route),
          });
        }
        expect(got).toEqual(expected);
      },
    );

    it('reads bodies up to the 4 MiB request limit and refuses one byte more', async () => {
      const head = JSON.stringify(harmless('put'));
      const padded = (size: number) => head + ' '.repeat(size - head.length);
      const answers: number[] = [];
      for (const [size, chunked] of [
        [BODY_LIMIT, false],
        [BODY_LIMIT + 1, false],
        [BODY_LIMIT, true],
        [BODY_LIMIT + 1, true],
      ] as const) {
        answers.push(
          await statusOf({
            method: 'PUT',
            path: target(),
            headers: JSON_TYPE,
            body: padded(size),
            chunked,
          }),
        );
      }
      expect(answers).toEqual([409, 413, 409, 413]);
    });

    it(`refuses Secrets whose estimate exceeds ${MAX_SECRET_BYTES} bytes, counting UTF-8 bytes`, async () => {
      // estimate = ceil((key bytes + value bytes) × 1.4); the largest value that fits, for key "k":
      const fits = Math.floor(MAX_SECRET_BYTES / SIZE_ESTIMATE_INFLATION) - 1;
      const cases: Array<[string, string, number]> = [
        ['size-ascii-fits', 'x'.repeat(fits), 201],
        ['size-ascii-over', 'x'.repeat(fits + 1), 413],
        // "é" is one UTF-16 code unit but two UTF-8 bytes.
        ['size-utf8-fits', 'é'.repeat(Math.floor(fits / 2)), 201],
        ['size-utf8-over', 'é'.repeat(Math.floor(fits / 2) + 1), 413],
      ];
      const got: Array<[string, number]> = [];
      for (const [name, value] of cases) {
        const answer = await send({
          method: 'POST',
          path: base(),
          json: { name, data: { k: value } },
        });
        // A created Secret answers with its value; a refusal has only the envelope.
        expectSafe(answer);
        got.push([name, answer.status]);
        existing.add(name);
      }
      expect(got).toEqual(cases.map(([name, , status]) => [name, status]));
      expect((await admin.getSecret(ns.name, 'size-ascii-over')).status).toBe(
        404,
      );
      expect((await admin.getSecret(ns.name, 'size-utf8-over')).status).toBe(
        404,
      );
      const stored = await admin.secret(ns.name, 'size-utf8-fits');
      expect(Buffer.from(stored.data!.k, 'base64').toString('utf8')).toBe(
        'é'.repeat(Math.floor(fits / 2)),
      );
    });

    // [label, PUT body member overrides]: each is a 400 before the revision is even compared.
    const WRONG_TYPES: Array<[string, Record<string, unknown>]> = [
      ['a number value', { data: { k: 1 } }],
      ['a null value', { data: { k: null } }],
      ['an array value', { data: { k: [SENT] } }],
      ['an object value', { data: { k: { v: SENT } } }],
      ['a boolean value', { data: { k: true } }],
      ['a lone surrogate value', { data: { k: `${SENT}\ud800` } }],
      ['data as an array', { data: [SENT] }],
      ['data as a string', { data: SENT }],
      ['data as null', { data: null }],
      ['a number binary value', { binaryData: { b: 1 } }],
      ['non-canonical base64', { binaryData: { b: 'QR==' } }],
      ['base64url', { binaryData: { b: '-_8=' } }],
      ['a key in both maps', { data: { b: SENT }, binaryData: { b: 'QQ==' } }],
      ['a number description', { description: 1 }],
      ['a 2,049-character description', { description: 'd'.repeat(2049) }],
      ['a number type', { type: 1 }],
      ['a type with a space', { type: 'Opaque x' }],
      ['a string immutable', { immutable: 'true' }],
      ['access as an array', { access: [] }],
      ['owners as a string', { access: { owners: ALICE.user } }],
      ['owners with a number', { access: { owners: [1] } }],
      ['a component ref', { access: { owners: ['component:default/x'] } }],
      [
        '101 owners',
        {
          access: {
            owners: Array.from({ length: 101 }, (_, i) => `user:default/u${i}`),
          },
        },
      ],
      ['an unknown access role', { access: { admins: [ALICE.user] } }],
      ['a number resourceVersion', { resourceVersion: 1 }],
      ['an empty resourceVersion', { resourceVersion: '' }],
      ['a null resourceVersion', { resourceVersion: null }],
      ['a resourceVersion with a space', { resourceVersion: '1 2' }],
      ['a 129-character resourceVersion', { resourceVersion: '1'.repeat(129) }],
      ['a non-ASCII resourceVersion', { resourceVersion: '１' }],
      ['an unknown field', { kind: 'Secret' }],
      ['metadata', { metadata: { name: 'x' } }],
    ];

    it.each(WRONG_TYPES)(
      'refuses %s with 400 on update, and on create',
      async (_label, overrides) => {
        const put = await statusOf({
          method: 'PUT',
          path: target(),
          json: { resourceVersion: STALE, data: { k: SENT }, ...overrides },
        });
        const { resourceVersion: _rv, ...createOverrides } = overrides;
        const create = await statusOf({
          method: 'POST',
          path: base(),
          json: {
            name: 'never-created',
            data: { k: SENT },
            ...createOverrides,
            ...('resourceVersion' in overrides
              ? { resourceVersion: overrides.resourceVersion }
              : {}),
          },
        });
        expect({ put, create }).toEqual({ put: 400, create: 400 });
      },
    );

    it.each([
      ['a string version', '{"version":"1","resourceVersion":"1"}'],
      ['version 0', '{"version":0,"resourceVersion":"1"}'],
      ['a negative version', '{"version":-1,"resourceVersion":"1"}'],
      ['a fractional version', '{"version":1.5,"resourceVersion":"1"}'],
      ['an infinite version', '{"version":1e400,"resourceVersion":"1"}'],
      [
        'an unsafe version',
        '{"version":9007199254740993,"resourceVersion":"1"}',
      ],
      ['a null version', '{"version":null,"resourceVersion":"1"}'],
      ['no resourceVersion', '{"version":1}'],
      ['an extra member', '{"version":1,"resourceVersion":"1","data":{}}'],
      ['adopt fields', '{"version":1,"resourceVersion":"1","description":"x"}'],
    ])('refuses a restore with %s', async (_label, body) => {
      expect(
        await statusOf({
          method: 'POST',
          path: `${target()}/restore`,
          headers: JSON_TYPE,
          body,
        }),
      ).toBe(400);
    });

    it.each([
      ['data', '{"resourceVersion":"1","data":{}}'],
      ['a number description', '{"resourceVersion":"1","description":5}'],
      ['no resourceVersion', '{"description":"x"}'],
      ['an immutable flag', '{"resourceVersion":"1","immutable":true}'],
    ])('refuses an adoption with %s', async (_label, body) => {
      expect(
        await statusOf({
          method: 'POST',
          path: `${target()}/adopt`,
          headers: JSON_TYPE,
          body,
        }),
      ).toBe(400);
    });

    // [key, status of a stale update]: keys are judged before the revision (409).
    const KEYS: Array<[string, number]> = [
      ['', 400],
      ['.', 400],
      ['..', 400],
      ['..a', 400],
      ['...', 400],
      ['/', 400],
      ['a/b', 400],
      ['../x', 400],
      ['k ', 400],
      ['k\n', 400],
      ['k\u0000', 400],
      ['\u200b', 400],
      ['ключ', 400],
      ['clé', 400],
      ['🔑', 400],
      ['k'.repeat(254), 400],
      ['k'.repeat(253), 409],
      ['.a', 409],
      ['a..b', 409],
      ['-', 409],
      ['__proto__', 409],
      ['constructor', 409],
      ['prototype', 409],
      ['hasOwnProperty', 409],
      ['toString', 409],
    ];

    it('judges data and binaryData keys before the revision', async () => {
      const got: Array<[string, number, number]> = [];
      for (const [key] of KEYS) {
        const data = await statusOf({
          method: 'PUT',
          path: target(),
          json: { resourceVersion: STALE, data: { [key]: SENT } },
        });
        const binary = await statusOf({
          method: 'PUT',
          path: target(),
          json: { resourceVersion: STALE, binaryData: { [key]: 'QQ==' } },
        });
        got.push([key, data, binary]);
      }
      expect(got).toEqual(KEYS.map(([key, status]) => [key, status, status]));
    });

    it('never creates a Secret with a key that Kubernetes refuses', async () => {
      const got: Array<[string, number]> = [];
      for (const [i, key] of ['..a', '...', '.', 'a/b'].entries()) {
        got.push([
          key,
          await statusOf({
            method: 'POST',
            path: base(),
            json: { name: `bad-key-${i}`, data: { [key]: SENT } },
          }),
        ]);
      }
      expect(got).toEqual([
        ['..a', 400],
        ['...', 400],
        ['.', 400],
        ['a/b', 400],
      ]);
    });

    it('keeps __proto__, constructor and prototype as ordinary keys, byte-exact, without pollution', async () => {
      const raw =
        '{"name":"special-keys","data":{"__proto__":"p","constructor":"c","prototype":"t","toString":"s"},' +
        '"binaryData":{"hasOwnProperty":"AP8="}}';
      const created = await send({
        method: 'POST',
        path: base(),
        headers: JSON_TYPE,
        body: raw,
      });
      expectSafe(created);
      expect(created.status).toBe(201);
      existing.add('special-keys');
      const stored = await admin.secret(ns.name, 'special-keys');
      expect(Object.keys(stored.data!).sort()).toEqual([
        '__proto__',
        'constructor',
        'hasOwnProperty',
        'prototype',
        'toString',
      ]);
      expect(
        Object.fromEntries(
          Object.entries(stored.data!).map(([k, v]) => [
            k,
            Buffer.from(v, 'base64').toString('latin1'),
          ]),
        ),
      ).toEqual(
        JSON.parse(
          '{"__proto__":"p","constructor":"c","prototype":"t","toString":"s","hasOwnProperty":"\\u0000\\u00ff"}',
        ),
      );
      const read = await send({
        method: 'GET',
        path: `${base()}/special-keys`,
      });
      expectSafe(read);
      const dto = read.json as {
        data: Record<string, string>;
        binaryData: Record<string, string>;
        keys: string[];
      };
      expect(
        Object.getOwnPropertyDescriptor(dto.data, '__proto__')?.value,
      ).toBe('p');
      expect(dto.binaryData).toEqual({ hasOwnProperty: 'AP8=' });
      expect(dto.keys).toEqual([
        '__proto__',
        'constructor',
        'hasOwnProperty',
        'prototype',
        'toString',
      ]);
      expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(
        prototypeBefore,
      );
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('judges duplicate members by the one that JSON.parse keeps, the last', async () => {
      // A duplicate never slips a refused value past validation, nor a stale revision past the check.
      const stale = await statusOf({
        method: 'PUT',
        path: target(),
        headers: JSON_TYPE,
        body: `{"resourceVersion":"${targetRv}","resourceVersion":"${STALE}","data":{"k":"${SENT}"}}`,
      });
      const reserved = await statusOf({
        method: 'POST',
        path: base(),
        headers: JSON_TYPE,
        body: '{"name":"dup-first","name":"krypton-h-0123456789abcdef0123456789abcdef-v1"}',
      });
      const badKey = await statusOf({
        method: 'POST',
        path: base(),
        headers: JSON_TYPE,
        body: `{"name":"dup-key","data":{"ok":"${SENT}"},"data":{"bad key":"${SENT}"}}`,
      });
      expect({ stale, reserved, badKey }).toEqual({
        stale: 409,
        reserved: 400,
        badKey: 400,
      });
      expect((await admin.getSecret(ns.name, 'dup-first')).status).toBe(404);
      expect((await admin.getSecret(ns.name, 'dup-key')).status).toBe(404);
      // What is stored is what the answer shows: the last member.
      const created = await send({
        method: 'POST',
        path: base(),
        headers: JSON_TYPE,
        body: '{"name":"dup-value","data":{"k":"first","k":"last"}}',
      });
      expect(created.status).toBe(201);
      existing.add('dup-value');
      expect((created.json as { data: unknown }).data).toEqual({ k: 'last' });
      const stored = await admin.secret(ns.name, 'dup-value');
      expect(Buffer.from(stored.data!.k, 'base64').toString()).toBe('last');
    });

    it('judges generated keys by the Kubernetes rules', async () => {
      const key = fc.oneof(
        fc.string({ unit: 'binary', maxLength: 16 }),
        fc.string({
          unit: fc.constantFrom(
            'a',
            'Z',
            '0',
            '.',
            '-',
            '_',
            '/',
            ' ',
            'é',
            '\u0000',
          ),
          maxLength: 10,
        }),
        fc.stringMatching(/^[-._a-zA-Z0-9]{250,256}$/),
        fc.constantFrom('__proto__', 'constructor', 'prototype', 'valueOf'),
      );
      await fc.assert(
        fc.asyncProperty(key, async k => {
          const status = await statusOf({
            method: 'PUT',
            path: target(),
            json: { resourceVersion: STALE, data: { [k]: SENT } },
          });
          expect({ k, status }).toEqual({
            k,
            status: isDataKey(k) ? 409 : 400,
          });
        }),
        { numRuns: 150 },
      );
    });

    it('accepts only well-formed strings as values', async () => {
      const value = fc.oneof(
        fc.jsonValue({ maxDepth: 2, stringUnit: 'binary' }),
        fc
          .tuple(
            fc.string(),
            fc.constantFrom('\ud800', '\udfff', '\udc00\ud800'),
          )
          .map(([a, b]) => a + b),
      );
      await fc.assert(
        fc.asyncProperty(value, async v => {
          const status = await statusOf({
            method: 'PUT',
            path: target(),
            json: { resourceVersion: STALE, data: { k: v } },
          });
          const wellFormed =
            typeof v === 'string' &&
            !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(
              v,
            );
          expect({ v, status }).toEqual({ v, status: wellFormed ? 409 : 400 });
        }),
        { numRuns: 100 },
      );
    });

    it('never lets a generated body through on any body route', async () => {
      const FIELDS = [
        'name',
        'resourceVersion',
        'version',
        'uid',
        'type',
        'data',
        'binaryData',
        'immutable',
        'description',
        'access',
        '__proto__',
        'constructor',
      ];
      const member = fc.oneof(
        fc.constantFrom(...FIELDS),
        fc.string({ maxLength: 8 }),
      );
      const body = fc.oneof(
        fc.jsonValue({ maxDepth: 3 }),
        fc.dictionary(member, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
      );
      // At best a stale revision (409); create is sent for the taken name "target" (409).
      const AT_BEST: Record<BodyRoute, number[]> = {
        create: [400, 409],
        put: [400, 409],
        adopt: [400, 409],
        restore: [400, 409],
        // restart-consumers takes no body: anything but {} is a 400.
        restart: [400],
        // A generated UID never matches: the name lives (409) at best.
        recreate: [400, 409],
      };
      await fc.assert(
        fc.asyncProperty(
          body,
          fc.constantFrom(...BODY_ROUTES),
          async (b, route) => {
            const sent =
              route === 'create' && isPlainObject(b)
                ? { ...b, name: 'target' }
                : b;
            const status = await statusOf({
              method: bodyMethod(route),
              path: bodyPath(route),
              headers: JSON_TYPE,
              body: JSON.stringify(sent),
            });
            const emptyObject =
              isPlainObject(sent) && Object.keys(sent).length === 0;
            const restartEmpty = route === 'restart' ? [200] : [400];
            expect(emptyObject ? restartEmpty : AT_BEST[route]).toContain(
              status,
            );
          },
        ),
        { numRuns: 120 },
      );
    });

    it('refuses random bytes and corrupted bodies', async () => {
      const valid = JSON.stringify({
        resourceVersion: STALE,
        data: { k: SENT },
      });
      const corrupted = fc
        .tuple(
          fc.nat({ max: valid.length }),
          fc.constantFrom(
            [0x00],
            [0xef, 0xbb, 0xbf],
            [0xff],
            [0xc3],
            [0x22],
            [0x7b],
          ),
        )
        .map(([at, insert]) =>
          Buffer.concat([
            Buffer.from(valid.slice(0, at)),
            Buffer.from(insert),
            Buffer.from(valid.slice(at)),
          ]),
        );
      const body = fc.oneof(
        fc.uint8Array({ maxLength: 48 }).map(b => Buffer.from(b)),
        corrupted,
      );
      await fc.assert(
        fc.asyncProperty(body, async b => {
          const status = await statusOf({
            method: 'PUT',
            path: target(),
            headers: JSON_TYPE,
            body: b,
          });
          const text = strictUtf8(b);
          let parsed: unknown = undefined;
          try {
            parsed = text === null ? undefined : JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          // Only a JSON object can get as far as the revision check (409).
          const expected = isPlainObject(parsed) ? [400, 409] : [400];
          expect(expected).toContain(status);
        }),
        { numRuns: 100 },
      );
    });
  });

  describe('query parameters', () => {
    it('refuses every hostile DELETE query, even with the current revision', async () => {
      // With the current revision, anything that slipped through would delete the Secret.
      const rv = targetRv;
      const cases: Array<[string, number]> = [
        ['', 400],
        [`?keepHistory=true`, 400],
        [`?resourceVersion=${rv}&resourceVersion=${rv}`, 400],
        [`?resourceVersion=${STALE}&resourceVersion=${rv}`, 400],
        [`?resourceVersion[]=${rv}`, 400],
        [`?resourceVersion[0]=${rv}`, 400],
        [`?resourceVersion[a]=${rv}`, 400],
        [`?resourceVersion=${rv}&keepHistory[]=true`, 400],
        [`?resourceVersion=${rv}&keepHistory=yes`, 400],
        [`?resourceVersion=${rv}&keepHistory=1`, 400],
        [`?resourceVersion=${rv}&keepHistory=TRUE`, 400],
        [`?resourceVersion=${rv}&keepHistory=`, 400],
        [`?resourceVersion=${rv}&keepHistory`, 400],
        [`?resourceVersion=${rv}&keepHistory=true&keepHistory=true`, 400],
        [`?resourceVersion=${rv}&keepHistory=true%00`, 400],
        [`?resourceVersion=${rv}&keepHistory=${'t'.repeat(8000)}`, 400],
        [`?resourceVersion=${rv}&keephistory=true`, 400],
        [`?resourceVersion=${rv}&unknown=1`, 400],
        [`?resourceVersion=${rv}&constructor=x`, 400],
        // Names Express's own parser drops: checked as the client wrote them.
        [`?resourceVersion=${rv}&__proto__=x`, 400],
        [`?resourceVersion=${rv}&__proto__[keepHistory]=true`, 400],
        [`?resourceVersion=${rv}&=x`, 400],
        [`?resourceVersion=${rv}&toString=x`, 400],
        [`?resourceVersion=${rv}&hasOwnProperty=x`, 400],
        [`?resourceVersion=${rv}&dryRun=All`, 400],
        [`?resourceVersion=${rv}&propagationPolicy=Orphan`, 400],
        [`?resourceVersion=${rv}${'&a=1'.repeat(1100)}`, 400],
        [`?${'resourceVersion=1&'.repeat(30)}`, 400],
        ['?resourceVersion=', 400],
        [`?resourceVersion=%20${rv}`, 400],
        [`?resourceVersion=${rv}%00`, 400],
        [`?resourceVersion=${rv}%0A`, 400],
        [`?resourceVersion=${'9'.repeat(129)}`, 400],
        [`?resourceVersion=%EF%BC%91`, 400],
        // Broken percent-encoding decodes to U+FFFD, which no revision holds.
        [`?resourceVersion=%E0%A4%A`, 400],
        // A revision is an opaque string: one that is not current is a conflict, never a crash.
        [`?resourceVersion=${STALE}&keepHistory=false`, 409],
      ];
      const got: Array<[string, number]> = [];
      for (const [query] of cases) {
        got.push([
          query.slice(0, 80),
          await statusOf({ method: 'DELETE', path: `${target()}${query}` }),
        ]);
      }
      expect(got).toEqual(
        cases.map(([query, status]) => [query.slice(0, 80), status]),
      );
      expect(
        (await admin.secret(ns.name, 'target')).metadata.resourceVersion,
      ).toBe(targetRv);
    });

    it('refuses hostile list queries and lists no values', async () => {
      const cases: Array<[string, number]> = [
        ['?labelSelector=a&labelSelector=b', 400],
        ['?__proto__=x', 400],
        ['?=x', 400],
        ['?labelSelector[]=a', 400],
        ['?labelSelector[a]=b', 400],
        ['?labelSelector=', 400],
        [`?labelSelector=${'a'.repeat(254)}`, 400],
        ['?labelSelector=app%3Dx%3Bdrop', 400],
        ['?labelSelector=app%3Dx%00', 400],
        ['?labelSelector=app%3D%3D%3Dx', 400],
        ['?labelSelector=%28', 400],
        ['?adoptable=yes', 400],
        ['?adoptable=', 400],
        ['?adoptable=1', 400],
        ['?adoptable[]=true', 400],
        ['?adoptable=true&adoptable=true', 400],
        ['?watch=true', 400],
        ['?limit=1', 400],
        ['?continue=abc', 400],
        ['?fieldSelector=metadata.name%3Dtarget', 400],
        ['?resourceVersion=0', 400],
        ['?labelSelector=app%3Dx', 200],
        ['?labelSelector=app%20in%20%28a%2Cb%29&adoptable=false', 200],
        ['?adoptable=true', 200],
      ];
      const got: Array<[string, number]> = [];
      for (const [query] of cases) {
        got.push([
          query,
          await statusOf({ method: 'GET', path: `${base()}${query}` }),
        ]);
      }
      expect(got).toEqual(cases);
    });

    it('refuses any query on routes that take none, after 404 for a snapshot name', async () => {
      const calls: Array<[Call, number]> = [
        ...NAMED_ROUTES.flatMap(route => [
          [
            {
              ...namedCall(route, 'target'),
              path: `${target()}${route.suffix}${
                route.query ? `${route.query}&` : '?'
              }x=1`,
            },
            400,
          ] as [Call, number],
          [
            {
              ...namedCall(route, 'target'),
              path: `${target()}${route.suffix}${
                route.query ? `${route.query}&` : '?'
              }dryRun=All`,
            },
            400,
          ] as [Call, number],
          [
            {
              ...namedCall(route, snapshotName),
              path: `${base()}/${snapshotName}${route.suffix}?x=1`,
            },
            404,
          ] as [Call, number],
        ]),
        [
          { method: 'POST', path: `${base()}?x=1`, json: harmlessCreate() },
          400,
        ],
        [{ method: 'GET', path: '/api/krypton/config?x=1' }, 400],
        [{ method: 'GET', path: '/api/krypton/config?x' }, 400],
        [{ method: 'GET', path: '/api/krypton/namespaces?x=1' }, 400],
        [{ method: 'GET', path: '/api/krypton/namespaces?limit=1' }, 400],
        [
          { method: 'GET', path: '/api/krypton/clusters/test/namespaces?x=1' },
          400,
        ],
        [{ method: 'GET', path: '/api/krypton/storage-rewrite/last?x=1' }, 400],
        [{ method: 'GET', path: '/api/krypton/storage-rewrite/runs?x=1' }, 400],
        [
          {
            method: 'GET',
            path: '/api/krypton/storage-rewrite/runs?namespace=A',
          },
          400,
        ],
        [
          {
            method: 'GET',
            path: `/api/krypton/storage-rewrite/runs/${RUN_ID}?x=1`,
          },
          400,
        ],
        [
          {
            method: 'POST',
            path: `/api/krypton/storage-rewrite/runs/${RUN_ID}/cancel?x=1`,
          },
          400,
        ],
        // Ids that are not a UUID in lower case, in every encoding, before any lookup.
        ...[
          'x',
          RUN_ID.toUpperCase(),
          `${RUN_ID}%00`,
          `%2e%2e`,
          `${RUN_ID.slice(0, 35)}%C3%A9`,
          'a'.repeat(5_000),
        ].map((id): [Call, number] => [
          { method: 'GET', path: `/api/krypton/storage-rewrite/runs/${id}` },
          400,
        ]),
        // A well-formed id that names no run.
        [
          {
            method: 'GET',
            path: `/api/krypton/storage-rewrite/runs/${RUN_ID}`,
          },
          404,
        ],
        [
          {
            method: 'GET',
            path: '/api/krypton/storage-rewrite/migrations?x=1',
          },
          400,
        ],
      ];
      const got: Array<[string, string, number]> = [];
      for (const [call] of calls) {
        got.push([call.method, call.path, await statusOf(call)]);
      }
      expect(got).toEqual(
        calls.map(([call, status]) => [call.method, call.path, status]),
      );
    });

    it('refuses hostile storage-rewrite scopes', async () => {
      // A run started here is followed to its end, so that the next start does not overlap it.
      const started = async (call: Call) => {
        const answer = await send(call);
        expectSafe(answer);
        if (answer.status === 202)
          await waitForRun(krypton, String(answer.headers.location), 'alice');
        return answer.status;
      };
      const cases: Array<[string, number]> = [
        ['?namespace=A', 400],
        ['?namespace=', 400],
        [`?namespace=${ns.name}&namespace=${ns.name}`, 400],
        [`?namespace[]=${ns.name}`, 400],
        [`?namespace=${'a'.repeat(64)}`, 400],
        ['?namespace=..', 400],
        ['?namespace=%2e%2e', 400],
        [`?namespace=${ns.name}%00`, 400],
        [`?namespace=${ns.name}%2F..`, 400],
        [`?ns=${ns.name}`, 400],
        [`?namespace=${ns.name}&dryRun=All`, 400],
        // A valid namespace where the caller holds no RBAC (it does not even exist): outside the
        // caller's scope, so 403 rather than a run that names what is there.
        [`?namespace=${'a'.repeat(63)}`, 403],
        // The test's own namespace, whose Secrets the caller may list: a run.
        [`?namespace=${ns.name}`, 202],
      ];
      const got: Array<[string, number, number]> = [];
      for (const [query] of cases) {
        got.push([
          query,
          await started({
            method: 'POST',
            path: `/api/krypton/storage-rewrite${query}`,
          }),
          await started({
            method: 'POST',
            path: `/api/krypton/clusters/test/storage-rewrite${query}`,
          }),
        ]);
      }
      expect(got).toEqual(
        cases.map(([query, status]) => [query, status, status]),
      );
    });

    it("leaves a URL over Node's header limit to Node's 431, and keeps serving", async () => {
      // Node's HTTP parser answers before Backstage or Krypton see the request: no envelope.
      const answer = await send({
        method: 'GET',
        path: `${base()}?labelSelector=${'a'.repeat(20_000)}`,
      });
      expect(answer.status).toBe(431);
      expect(answer.text).toBe('');
      expect(
        await statusOf({ method: 'GET', path: `${target()}/summary` }),
      ).toBe(200);
    });

    it('judges generated DELETE queries by the declared schema', async () => {
      const key = fc
        .tuple(
          fc.oneof(
            fc.constantFrom(
              'resourceVersion',
              'resourceVersion',
              'keepHistory',
              'keepHistory',
              'labelSelector',
              'x',
            ),
            fc
              .string({ unit: 'binary', minLength: 1, maxLength: 8 })
              .filter(k => !/[[\]]/.test(k) && k !== '__proto__'),
          ),
          fc.constantFrom('', '', '', '', '[]', '[0]', '[a]'),
        )
        .map(([name, suffix]) => ({ name, suffix }));
      const value = fc.oneof(
        fc.constantFrom('true', 'false', 'yes', '', '1', STALE, 'TRUE'),
        fc.string({ unit: 'binary', maxLength: 12 }),
        fc.string({ unit: 'binary-ascii', maxLength: 12 }),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(key, value), { maxLength: 4 }),
          async pairs => {
            fc.pre(pairs.every(([, v]) => v !== targetRv));
            const query = pairs
              .map(
                ([k, v]) =>
                  `${encodeURIComponent(k.name)}${
                    k.suffix
                  }=${encodeURIComponent(v)}`,
              )
              .join('&');
            const status = await statusOf({
              method: 'DELETE',
              path: `${target()}?${query}`,
            });
            // The model: each key at most once, plain, known and well-formed; then a stale 409.
            const counts = new Map<string, number>();
            for (const [k] of pairs) {
              counts.set(k.name, (counts.get(k.name) ?? 0) + 1);
            }
            const rv = pairs.find(([k]) => k.name === 'resourceVersion')?.[1];
            const keep = pairs.find(([k]) => k.name === 'keepHistory')?.[1];
            const valid =
              pairs.every(([k]) => k.suffix === '') &&
              [...counts].every(
                ([name, n]) =>
                  n === 1 && ['resourceVersion', 'keepHistory'].includes(name),
              ) &&
              rv !== undefined &&
              isResourceVersion(rv) &&
              (keep === undefined || keep === 'true' || keep === 'false');
            expect({ query, status }).toEqual({
              query,
              status: valid ? 409 : 400,
            });
          },
        ),
        { numRuns: 150 },
      );
    });
  });

  describe('forged Impersonate-* headers', () => {
    const FORGED_HEADERS: Record<string, string | string[]> = {
      'Impersonate-User': 'system:admin',
      'Impersonate-Group': ['system:masters', `group:default/${FORGED}`],
      'Impersonate-Uid': `${FORGED}-uid`,
      'Impersonate-Extra-Scopes': FORGED,
      'Impersonate-Extra-acme.io%2fproject': FORGED,
    };

    /** What identity each recorded upstream request carried: Krypton's own or alice's. */
    function expectOnlyBackstageIdentityUpstream(who = ALICE): Array<{
      user: string[] | null;
      groups: string[] | null;
      other: string[];
    }> {
      const seen = proxy.requests.map(r => ({
        user: r.headers['impersonate-user'] ?? null,
        groups: r.headers['impersonate-group'] ?? null,
        other: Object.keys(r.headers).filter(
          h =>
            h.startsWith('impersonate-') &&
            h !== 'impersonate-user' &&
            h !== 'impersonate-group',
        ),
      }));
      const allowed = [
        JSON.stringify({ user: null, groups: null, other: [] }),
        JSON.stringify({
          user: [who.user],
          groups: who.groups.length ? who.groups : null,
          other: [],
        }),
      ];
      expect(seen.filter(s => !allowed.includes(JSON.stringify(s)))).toEqual(
        [],
      );
      const upstream = JSON.stringify(proxy.requests.map(r => r.headers));
      expect(upstream).not.toContain(FORGED);
      expect(upstream).not.toContain('system:masters');
      expect(upstream).not.toContain('system:admin');
      // The client's Backstage token never travels upstream either.
      expect(upstream).not.toContain(as('alice'));
      return seen;
    }

    interface RouteCase {
      call: Call;
      /**
       * The answer with or without forged headers: successes, the 409 of a stale revision, or the
       * 403 of a namespace list, which alice's RBAC does not allow (no forged group may lift it).
       */
      status: number;
      /** Whether the route calls Kubernetes at all. */
      upstream: boolean;
      /** Whether the answer may hold the stored value (a value read). */
      reveals?: boolean;
    }
    const NAMED_STATUS: Record<string, number> = {
      PUT: 409,
      DELETE: 409,
      adopt: 409,
      restore: 409,
      // The Secret has no ExternalSecret to ask.
      'owner-sync': 409,
    };
    const routes = (): Record<string, RouteCase> => ({
      health: {
        call: { method: 'GET', path: '/api/krypton/health' },
        status: 200,
        upstream: false,
      },
      config: {
        call: { method: 'GET', path: '/api/krypton/config' },
        status: 200,
        upstream: false,
      },
      list: {
        call: { method: 'GET', path: base() },
        status: 200,
        upstream: true,
      },
      'adoptable list': {
        call: { method: 'GET', path: `${base()}?adoptable=true` },
        status: 200,
        upstream: true,
      },
      create: {
        call: { method: 'POST', path: base(), json: harmlessCreate() },
        status: 409,
        upstream: true,
      },
      namespaces: {
        call: { method: 'GET', path: '/api/krypton/namespaces' },
        status: 403,
        upstream: true,
      },
      'clusters/test/namespaces': {
        call: { method: 'GET', path: '/api/krypton/clusters/test/namespaces' },
        status: 403,
        upstream: true,
      },
      'managed-namespaces': {
        call: { method: 'GET', path: '/api/krypton/managed-namespaces' },
        status: 403,
        upstream: true,
      },
      ...Object.fromEntries(
        NAMED_ROUTES.map(route => [
          route.route,
          {
            call: namedCall(route, 'target'),
            status: NAMED_STATUS[route.route] ?? 200,
            upstream: true,
            reveals: route.route === 'GET' || route.route === 'version',
          },
        ]),
      ),
      'storage-rewrite': {
        call: {
          method: 'POST',
          path: `/api/krypton/storage-rewrite?namespace=${ns.name}`,
        },
        status: 202,
        upstream: true,
      },
      'storage-rewrite/runs': {
        call: {
          method: 'GET',
          path: `/api/krypton/storage-rewrite/runs?namespace=${ns.name}`,
        },
        status: 200,
        // Each run is shown only after a check that the caller may list its namespace.
        upstream: true,
      },
      'storage-rewrite/last': {
        call: { method: 'GET', path: '/api/krypton/storage-rewrite/last' },
        status: 200,
        // Each stored namespace is shown only after a check that the caller may list it.
        upstream: true,
      },
      'storage-rewrite/migrations': {
        call: {
          method: 'GET',
          path: '/api/krypton/storage-rewrite/migrations',
        },
        status: 200,
        upstream: true,
      },
    });

    it.each(Object.keys(routes()))(
      '%s: the same answer as without them, and only the Backstage identity upstream',
      async label => {
        const { call, status, upstream, reveals } = routes()[label];
        // A storage rewrite run is followed to its end: the next one would overlap it, and its
        // own Kubernetes calls count as the forged request's.
        const settled = async (answer: Answer) => {
          if (answer.status === 202)
            await waitForRun(krypton, String(answer.headers.location), 'alice');
          return answer;
        };
        const plain = await settled(await send(call));
        expectSafe(plain, { reveals });
        proxy.resetRecordings();
        const forged = await settled(
          await send({
            ...call,
            headers: { ...call.headers, ...FORGED_HEADERS },
          }),
        );
        expectSafe(forged, { reveals });
        // Two runs have two ids; everything else is the same.
        const comparable = (json: unknown) => {
          const { id: _id, ...rest } = (withoutTimes(json) ?? {}) as Record<
            string,
            unknown
          >;
          return label === 'storage-rewrite' ? rest : withoutTimes(json);
        };
        expect({
          status: forged.status,
          body: comparable(forged.json),
        }).toEqual({ status: plain.status, body: comparable(plain.json) });
        expect(forged.status).toBe(status);
        const seen = expectOnlyBackstageIdentityUpstream();
        expect(seen.length > 0).toBe(upstream);
      },
    );

    it('gives no one else access: bob and carol forging alice, and no sign-in at all', async () => {
      const asAlice = {
        'Impersonate-User': ALICE.user,
        'Impersonate-Group': [...ALICE.groups, 'system:masters'],
      };
      const calls: Array<[string, Call]> = [
        ['GET', { method: 'GET', path: target() }],
        ['version', { method: 'GET', path: `${target()}/versions/1` }],
        ['list', { method: 'GET', path: base() }],
      ];
      const got: Array<[string, string, number, number]> = [];
      for (const user of ['bob', 'carol', null]) {
        for (const [label, call] of calls) {
          const plain = await statusOf({ ...call, user });
          proxy.resetRecordings();
          const forged = await statusOf({ ...call, user, headers: asAlice });
          got.push([String(user), label, plain, forged]);
          const impersonated = proxy.requests
            .map(r => r.headers['impersonate-user']?.join(','))
            .filter(u => u !== undefined);
          expect(impersonated).toEqual(
            impersonated.map(() => `user:default/${user}`),
          );
          expect(
            JSON.stringify(proxy.requests.map(r => r.headers)),
          ).not.toContain('system:masters');
        }
      }
      // bob may list but the target's rules do not name him; carol has no RBAC; no sign-in is 401.
      expect(got).toEqual([
        ['bob', 'GET', 403, 403],
        ['bob', 'version', 403, 403],
        ['bob', 'list', 200, 200],
        ['carol', 'GET', 403, 403],
        ['carol', 'version', 403, 403],
        ['carol', 'list', 403, 403],
        ['null', 'GET', 401, 401],
        ['null', 'version', 401, 401],
        ['null', 'list', 401, 401],
      ]);
    });

    it('forwards no generated Impersonate-Extra-* header on any route', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.stringMatching(/^[A-Za-z0-9-]{1,16}$/),
          fc.stringMatching(/^[\x21-\x7e]{0,24}$/),
          fc.constantFrom(...NAMED_ROUTES),
          async (suffix, value, route) => {
            proxy.resetRecordings();
            const answer = await send({
              ...namedCall(route, 'target'),
              headers: {
                [`Impersonate-Extra-${suffix}`]: `${FORGED}${value}`,
                'Impersonate-Uid': `${FORGED}${value}`,
              },
            });
            expectSafe(answer, {
              reveals: route.route === 'GET' || route.route === 'version',
            });
            expect(answer.status).toBe(NAMED_STATUS[route.route] ?? 200);
            expectOnlyBackstageIdentityUpstream();
          },
        ),
        { numRuns: 40 },
      );
    });
  });

  describe('afterwards', () => {
    it('still answers normally; the Secret, its history and Object.prototype are unchanged; nothing leaked', async () => {
      const read = await send({ method: 'GET', path: target() });
      expectSafe(read, { reveals: true });
      expect(read.status).toBe(200);
      expect(read.json).toMatchObject({
        name: 'target',
        resourceVersion: targetRv,
        version: 3,
        description: 'hostile-input target',
        data: { password: CANARY, user: 'app-3' },
      });
      const stable = (s: NativeSecret) => ({
        metadata: {
          name: s.metadata.name,
          uid: s.metadata.uid,
          resourceVersion: s.metadata.resourceVersion,
          labels: s.metadata.labels,
          annotations: s.metadata.annotations,
        },
        type: s.type,
        immutable: s.immutable,
        data: s.data,
      });
      expect(stable(await admin.secret(ns.name, 'target'))).toEqual(
        stable(targetBefore),
      );
      const snapshots = (await admin.snapshots(ns.name))
        .filter(
          s => s.metadata.annotations?.['krypton.io/history-of'] === 'target',
        )
        .map(s => [s.metadata.name!, s.metadata.resourceVersion!])
        .sort();
      expect(snapshots).toEqual(snapshotsBefore);
      for (const name of ['never-created', 'bad-key-0', 'bad-key-1']) {
        expect((await admin.getSecret(ns.name, name)).status).toBe(404);
      }
      expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(
        prototypeBefore,
      );
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(krypton.sink.audits.length).toBeGreaterThan(0);
      expect(krypton.sink.text()).not.toContain(CANARY);
      expect(krypton.sink.text()).not.toContain(SENT);
      expect(krypton.sink.text()).not.toContain(FORGED);
      // No unexpected error reached the error handler's log.
      expect(krypton.sink.lines.filter(l => l.startsWith('error '))).toEqual(
        [],
      );
    });
  });
});
