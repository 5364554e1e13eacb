import {
  useTestNamespace,
  ClusterAdmin,
  eventually,
} from '@krypton/kube-testenv';
import request from 'supertest';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from '../../__testUtils__/testBackend';

// Label selectors that an earlier regex failed on in exponentially many ways: 27 empty set values
// kept the backend's one thread busy for 45-52 s, and every plugin of the backend answered
// nothing meanwhile. Each must be refused with a 400 while /health, sent alongside, still
// answers. Correctness only: nothing here measures time.

const SELECTOR_REFUSAL = {
  error:
    'Invalid label selector: use terms such as app=payments, tier!=cache or env in (prod,staging), separated by commas.',
};
// The list route takes a labelSelector of at most 253 characters (router.ts, LIST_QUERY), so a
// longer one is refused before the selector parser sees it.
const LENGTH_REFUSAL = {
  error:
    'Query parameter "labelSelector" must be a non-empty text of at most 253 characters.',
};

/** `a in ( , , … , !)`: n empty values, then a character that makes the whole term fail. */
const emptyValues = (n: number) => `a in (${', '.repeat(n)}!)`;

describe('hostile label selectors over HTTP', () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  let krypton: KryptonTestBackend;
  const api = () => request(krypton.server);
  const base = () => `/api/krypton/namespaces/${ns.name}/secrets`;
  const list = (selector: string) =>
    api()
      .get(`${base()}?labelSelector=${encodeURIComponent(selector)}`)
      .set('Authorization', as('alice'));

  beforeAll(async () => {
    krypton = await startKryptonBackend();
    await admin.grantSecrets(ns.name, {
      kind: 'User',
      name: 'user:default/alice',
    });
    const managedBy = { 'krypton.io/managed-by': 'krypton' };
    await admin.createSecret(ns.name, {
      metadata: {
        name: 'selected',
        labels: { ...managedBy, app: 'payments', tier: '' },
      },
      data: { a: 'YQ==' },
    });
    await admin.createSecret(ns.name, {
      metadata: {
        name: 'other-tier',
        labels: { ...managedBy, app: 'payments', tier: 'cache' },
      },
      data: { a: 'YQ==' },
    });
    await admin.createSecret(ns.name, {
      metadata: { name: 'other-app', labels: { ...managedBy, app: 'orders' } },
      data: { a: 'YQ==' },
    });
    await eventually(
      () => api().get(base()).set('Authorization', as('alice')),
      r => r.status === 200,
    );
  });
  afterAll(async () => {
    await krypton.stop();
    admin.close();
  });

  it.each<[string, string, { error: string }]>([
    ['27 empty set values', emptyValues(27), SELECTOR_REFUSAL],
    // The most that fits in the query parameter: 2^122 ways to fail for a backtracking regex.
    ['122 empty set values', emptyValues(122), SELECTOR_REFUSAL],
    ['200 empty set values', emptyValues(200), LENGTH_REFUSAL],
    ['nested parentheses', 'a in ((b))', SELECTOR_REFUSAL],
    [
      'deeply nested parentheses',
      `a in ${'('.repeat(100)}b${')'.repeat(100)}`,
      SELECTOR_REFUSAL,
    ],
    ['an unclosed set', `a in (b${', c'.repeat(60)}`, SELECTOR_REFUSAL],
    ['an unopened set', 'a in b)', SELECTOR_REFUSAL],
    ['closing before opening', ')(', SELECTOR_REFUSAL],
    ['253 commas', ','.repeat(253), SELECTOR_REFUSAL],
    ['1,024 commas', ','.repeat(1024), LENGTH_REFUSAL],
  ])(
    'refuses %s with a 400 while /health still answers',
    async (_name, selector, refusal) => {
      // Both are sent before either is awaited: a backend stuck in the first would hold the second.
      const [hostile, health] = await Promise.all([
        list(selector),
        api().get('/api/krypton/health'),
      ]);
      expect(hostile.status).toBe(400);
      expect(hostile.body).toEqual(refusal);
      expect(health.status).toBe(200);
    },
  );

  it('lists with a valid selector that has blanks and an empty set value', async () => {
    const res = await list(' app in ( payments , , web ) , tier in( , x ) ');
    expect(res.status).toBe(200);
    expect(res.body.items.map((s: { name: string }) => s.name)).toEqual([
      'selected',
    ]);
  });
});
