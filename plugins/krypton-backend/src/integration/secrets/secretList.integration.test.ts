import {
  FaultProxy,
  startFaultProxy,
  testClusterState,
  useTestNamespace,
  ClusterAdmin,
  eventually,
} from '@krypton/kube-testenv';
import request from 'supertest';
import { b64 } from '../../__testUtils__/history';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from '../../__testUtils__/testBackend';

const ACTIONS = '/api/krypton/.backstage/actions/v1/actions';
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io';

/** The parts of a Table answer that the tests change. */
interface TableJson {
  columnDefinitions: Array<{ name: string }>;
  rows: Array<{ cells: unknown[]; object?: unknown }>;
}

/**
 * The Secret list (the route, its cluster variant, the label-selector and adoptable lists, and the
 * list-secrets action) reads the API server's Table of Secrets with each row's metadata: every
 * fact it shows comes from there, and no request that returns a value is made.
 */
describe('the Secret list reads no values', () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  let proxy: FaultProxy;
  let krypton: KryptonTestBackend;
  const collection = () => `/api/v1/namespaces/${ns.name}/secrets`;
  /** Every request the backend sent for Secrets of the namespace. */
  const secretRequests = () =>
    proxy.requests.filter(
      r =>
        r.path === collection() ||
        r.path.startsWith(`${collection()}?`) ||
        r.path.startsWith(`${collection()}/`),
    );

  /** The requests since the last reset are Table lists, and nothing else touched a Secret. */
  function expectTableListsOnly() {
    const sent = secretRequests();
    expect(sent.length).toBeGreaterThan(0);
    for (const r of sent) {
      expect(r.method).toBe('GET');
      expect(r.path.startsWith(`${collection()}?`)).toBe(true);
      expect(r.headers.accept).toEqual([TABLE_ACCEPT]);
      const query = new URL(r.path, 'http://x').searchParams;
      expect(query.get('includeObject')).toBe('Metadata');
      expect(query.get('limit')).toBe('500');
    }
  }

  beforeAll(async () => {
    const state = testClusterState();
    proxy = await startFaultProxy({
      target: state.server,
      caFile: state.caFile || undefined,
    });
    krypton = await startKryptonBackend({}, { clusterUrl: proxy.url });
    await admin.grantSecrets(ns.name, {
      kind: 'User',
      name: 'user:default/alice',
    });
    const applied = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'db', namespace: ns.name },
      data: { password: b64('value-db') },
    };
    await admin.createSecret(ns.name, {
      metadata: {
        name: 'db',
        labels: { 'krypton.io/managed-by': 'krypton', app: 'payments' },
        annotations: {
          'krypton.io/version': '4',
          'krypton.io/owners': 'user:default/alice',
          'krypton.io/description': 'The payments database',
          'example.com/ticket': 'OPS-42',
          [LAST_APPLIED]: JSON.stringify(applied),
          'kapp.k14s.io/original': JSON.stringify(applied),
          'kapp.k14s.io/original-diff': `value:\n  password: ${b64('x')}`,
        },
      },
      data: {
        password: b64('value-db'),
        username: b64('app'),
        blob: Buffer.from([0, 255, 7]).toString('base64'),
      },
    });
    await admin.createSecret(ns.name, {
      metadata: {
        name: 'tls',
        labels: { 'krypton.io/managed-by': 'krypton', app: 'web' },
      },
      type: 'kubernetes.io/tls',
      immutable: true,
      data: { 'tls.crt': b64('crt'), 'tls.key': b64('key') },
    });
    await admin.createSecret(ns.name, {
      metadata: {
        name: 'empty',
        labels: { 'krypton.io/managed-by': 'krypton' },
      },
    });
    await admin.createSecret(ns.name, {
      metadata: { name: 'native', labels: { app: 'payments' } },
      data: { k: b64('v') },
    });
    await admin.createSecret(ns.name, {
      metadata: {
        name: 'db-v1-snapshot',
        labels: {
          'krypton.io/managed-by': 'krypton',
          'krypton.io/kind': 'history',
        },
      },
      data: { k: b64('v') },
    });
    await eventually(
      () =>
        request(krypton.server)
          .get(`/api/krypton/namespaces/${ns.name}/secrets`)
          .set('Authorization', as('alice')),
      r => r.status === 200,
    );
  });
  afterAll(async () => {
    await krypton.stop();
    await proxy.close();
    admin.close();
  });

  it('lists the served Secrets with facts from the Table and the metadata', async () => {
    proxy.resetRecordings();
    const res = await request(krypton.server)
      .get(`/api/krypton/namespaces/${ns.name}/secrets`)
      .set('Authorization', as('alice'));
    expect(res.status).toBe(200);
    expectTableListsOnly();
    expect(res.text).not.toContain(b64('value-db'));

    const stored = await admin.secret(ns.name, 'db');
    const times = (stored.metadata.managedFields ?? []).map(
      f => (f as { time: string }).time,
    );
    expect(res.body.items.map((s: { name: string }) => s.name)).toEqual([
      'db',
      'empty',
      'tls',
    ]);
    const [db, empty, tls] = res.body.items;
    expect(db).toEqual({
      cluster: 'test',
      namespace: ns.name,
      name: 'db',
      uid: stored.metadata.uid,
      resourceVersion: stored.metadata.resourceVersion,
      type: 'Opaque',
      managed: true,
      version: 4,
      description: 'The payments database',
      access: { owners: ['user:default/alice'], editors: [], viewers: [] },
      keyCount: 3,
      creationTimestamp: stored.metadata.creationTimestamp,
      labels: { 'krypton.io/managed-by': 'krypton', app: 'payments' },
      // As on the summary, only Krypton's own and the known tools' annotations: the copies of the
      // applied object, which hold values, and the unknown ticket are withheld and counted.
      annotations: {
        'krypton.io/version': '4',
        'krypton.io/owners': 'user:default/alice',
        'krypton.io/description': 'The payments database',
      },
      withheldAnnotations: 4,
      ownerReferences: [],
      lastChange: {
        time: [...times].sort().pop(),
        manager: expect.any(String),
      },
    });
    expect(empty).toMatchObject({ type: 'Opaque', keyCount: 0, version: 1 });
    expect(tls).toMatchObject({ type: 'kubernetes.io/tls', keyCount: 2 });
    // What only the full object tells is not claimed by a list.
    for (const item of res.body.items) {
      expect(item).not.toHaveProperty('keys');
      expect(item).not.toHaveProperty('binaryKeys');
      expect(item).not.toHaveProperty('immutable');
    }
  });

  it('reads Tables for the cluster variant, a label selector and the adopt picker', async () => {
    proxy.resetRecordings();
    const cluster = await request(krypton.server)
      .get(`/api/krypton/clusters/test/namespaces/${ns.name}/secrets`)
      .query({ labelSelector: 'app=payments' })
      .set('Authorization', as('alice'));
    expect(cluster.status).toBe(200);
    expect(cluster.body.items.map((s: { name: string }) => s.name)).toEqual([
      'db',
    ]);
    expectTableListsOnly();

    proxy.resetRecordings();
    const adoptable = await request(krypton.server)
      .get(`/api/krypton/namespaces/${ns.name}/secrets`)
      .query({ adoptable: 'true' })
      .set('Authorization', as('alice'));
    expect(adoptable.status).toBe(200);
    expect(adoptable.body.items).toEqual([
      expect.objectContaining({ name: 'native', managed: false, keyCount: 1 }),
    ]);
    expectTableListsOnly();
  });

  it('answers list-secrets with list items, from Tables too', async () => {
    proxy.resetRecordings();
    const res = await request(krypton.server)
      .post(`${ACTIONS}/krypton:list-secrets/invoke`)
      .set('Authorization', as('alice'))
      .send({ namespace: ns.name, labelSelector: 'app=web' });
    expect(res.status).toBe(200);
    expect(res.body.output.items).toEqual([
      expect.objectContaining({
        name: 'tls',
        type: 'kubernetes.io/tls',
        keyCount: 2,
      }),
    ]);
    expect(res.body.output.items[0]).not.toHaveProperty('keys');
    expectTableListsOnly();
  });

  /** A real Table answer of the list, changed on its way back. */
  function tamperTables(change: (table: TableJson) => void) {
    proxy.inject({
      method: 'GET',
      path: new RegExp(`^${collection()}\\?`),
      action: {
        respondAfterForward: {
          contentType: 'application/json',
          body: upstream => {
            const table = JSON.parse(upstream.body) as TableJson;
            change(table);
            return JSON.stringify(table);
          },
        },
      },
    });
  }

  it.each([
    [
      'a Table without the Data column',
      (table: TableJson) => {
        const at = table.columnDefinitions.findIndex(c => c.name === 'Data');
        table.columnDefinitions.splice(at, 1);
        for (const row of table.rows) row.cells.splice(at, 1);
      },
    ],
    [
      'a key count that is not a number',
      (table: TableJson) => {
        const at = table.columnDefinitions.findIndex(c => c.name === 'Data');
        table.rows[0].cells[at] = '3';
      },
    ],
    [
      'a row without its object',
      (table: TableJson) => {
        delete table.rows[1].object;
      },
    ],
  ])('refuses %s rather than guessing or truncating', async (_, change) => {
    tamperTables(change);
    try {
      const res = await request(krypton.server)
        .get(`/api/krypton/namespaces/${ns.name}/secrets`)
        .set('Authorization', as('alice'));
      expect(res.status).toBe(503);
      expect(res.body.items).toBeUndefined();
    } finally {
      proxy.clear();
    }
  });
});
