import { ControlPlane, startControlPlane } from '@krypton/kube-testenv';
import { NativeSecret } from '@krypton/plugin-krypton-common/engine';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { AdminClient } from './__testUtils__/rbac';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
  testPolicy,
} from './__testUtils__/testBackend';

jest.setTimeout(120_000);

const NS = 'rotation';
const BINARY = Buffer.from([0x00, 0xff, 0xfe, 0x80, 0xc3, 0x28]).toString(
  'base64',
);
const KEY1 = randomBytes(32).toString('base64');
const KEY2 = randomBytes(32).toString('base64');

/** An aescbc EncryptionConfiguration for Secrets with these keys, the first one primary. */
function encryptionConfig(keys: Array<[string, string]>): string {
  return [
    'apiVersion: apiserver.config.k8s.io/v1',
    'kind: EncryptionConfiguration',
    'resources:',
    '  - resources: [secrets]',
    '    providers:',
    '      - aescbc:',
    '          keys:',
    ...keys.flatMap(([name, secret]) => [
      `            - name: ${name}`,
      `              secret: ${secret}`,
    ]),
    '      - identity: {}',
  ].join('\n');
}

/** Everything of a Secret that a rewrite must not change. */
const stable = (s: NativeSecret) => ({
  name: s.metadata.name,
  uid: s.metadata.uid,
  labels: s.metadata.labels,
  annotations: s.metadata.annotations,
  type: s.type,
  immutable: s.immutable,
  data: s.data,
});

// Key rotation end to end, on a control plane of its own with encryption at rest: Krypton's
// objects written under key1, the API server restarted with key2 primary, the rewrite, etcd read
// directly, then key1 removed and everything read, restored and verified byte-exact.
describe('storage rewrite after an encryption-key rotation', () => {
  const dir = mkdtempSync(join(tmpdir(), 'krypton-rotation-'));
  const configFile = join(dir, 'encryption.yaml');
  let cp: ControlPlane;
  let admin: AdminClient;
  let krypton: KryptonTestBackend;
  const base = `/api/krypton/namespaces/${NS}/secrets`;
  const api = () => request(krypton.server);
  const rewrite = (query = `?namespace=${NS}`, user = 'root') =>
    api()
      .post(`/api/krypton/storage-rewrite${query}`)
      .set('Authorization', as(user));

  /** The stored value's prefix in etcd, read through etcd's own JSON gateway. */
  async function storedWith(name: string): Promise<string> {
    const key = Buffer.from(`/registry/secrets/${NS}/${name}`).toString(
      'base64',
    );
    const res = await fetch(`${cp.state.etcdUrl}/v3/kv/range`, {
      method: 'POST',
      body: JSON.stringify({ key }),
    });
    const { kvs } = (await res.json()) as { kvs?: Array<{ value: string }> };
    if (!kvs?.length) return 'absent';
    const stored = Buffer.from(kvs[0].value, 'base64').toString('latin1');
    return /^k8s:enc:aescbc:v1:(key\d):/.exec(stored)?.[1] ?? 'plaintext';
  }

  const krypt = async () =>
    (await admin.listSecrets(NS, 'krypton.io/managed-by=krypton')).filter(
      s =>
        !['legacy-v1', 'krypton-h-quarantined-v1'].includes(s.metadata.name!),
    );

  beforeAll(async () => {
    writeFileSync(configFile, encryptionConfig([['key1', KEY1]]));
    cp = await startControlPlane({ encryptionConfig: configFile });
    admin = new AdminClient(cp.state.identities.admin.kubeconfig);
    krypton = await startKryptonBackend(
      {
        kubernetes: {
          identity: 'serviceAccount',
          serviceAccountMode: { namespaces: [NS] },
        },
        historyLimit: 2,
      },
      { controlPlane: cp.state },
    );
    const ns = await admin.transport.request({
      method: 'POST',
      path: '/api/v1/namespaces',
      body: { metadata: { name: NS } },
    });
    if (ns.status !== 201) throw new Error(`namespace: ${ns.status}`);
  });
  afterAll(async () => {
    await krypton?.stop();
    admin?.close();
    await cp?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes Krypton objects, legacy copies and other Secrets under key1', async () => {
    for (const name of ['db', 'tls']) {
      const created = await api()
        .post(base)
        .set('Authorization', as('root'))
        .send({
          name,
          data: { v: `${name}-1` },
          binaryData: { 'k.bin': BINARY },
        });
      expect(created.status).toBe(201);
      let rv = created.body.resourceVersion;
      for (const v of [2, 3]) {
        const edited = await api()
          .put(`${base}/${name}`)
          .set('Authorization', as('root'))
          .send({ resourceVersion: rv, data: { v: `${name}-${v}` } });
        expect(edited.status).toBe(200);
        rv = edited.body.resourceVersion;
      }
    }
    const managed = { 'krypton.io/managed-by': 'krypton' };
    await admin.createSecret(NS, {
      metadata: {
        name: 'legacy-v1',
        labels: managed,
        annotations: { 'krypton.io/history-of': 'db' },
      },
      data: { v: 'b2xk' },
    });
    await admin.createSecret(NS, {
      metadata: {
        name: 'krypton-h-quarantined-v1',
        labels: { ...managed, 'krypton.io/kind': 'history' },
      },
      immutable: true,
      data: { v: 'b2xk' },
    });
    await admin.createSecret(NS, {
      metadata: { name: 'other' },
      data: { v: 'eA==' },
    });
    // Two live Secrets with two snapshots each (the limit is 2).
    expect((await krypt()).map(s => s.metadata.name).length).toBe(6);
    for (const s of await admin.listSecrets(NS)) {
      expect(await storedWith(s.metadata.name!)).toBe('key1');
    }
  });

  it('re-encodes every Krypton object with key2, and a second run finds them current', async () => {
    writeFileSync(
      configFile,
      encryptionConfig([
        ['key2', KEY2],
        ['key1', KEY1],
      ]),
    );
    await cp.restartApiServer();
    const before = new Map((await krypt()).map(s => [s.metadata.name!, s]));

    const first = await rewrite();
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.body.counts).toEqual({
      rewritten: 6,
      alreadyCurrent: 0,
      conflictsResolved: 0,
      failed: 0,
      skipped: 2,
    });
    expect(
      first.body.skipped.map((s: { name: string; reason: string }) => [
        s.name,
        s.reason,
      ]),
    ).toEqual([
      ['krypton-h-quarantined-v1', 'quarantined'],
      ['legacy-v1', 'legacy'],
    ]);
    expect(
      first.body.rewritten.filter(
        (r: { kind: string }) => r.kind === 'snapshot',
      ),
    ).toHaveLength(4);
    for (const name of before.keys())
      expect(await storedWith(name)).toBe('key2');
    // Legacy, quarantined and other Secrets are never touched.
    for (const name of ['legacy-v1', 'krypton-h-quarantined-v1', 'other']) {
      expect(await storedWith(name)).toBe('key1');
    }
    // Nothing changed but the encoding: bytes, labels, annotations, immutability.
    for (const after of await krypt()) {
      expect(stable(after)).toEqual(stable(before.get(after.metadata.name!)!));
    }

    const second = await rewrite();
    expect(second.body.counts).toMatchObject({
      rewritten: 0,
      alreadyCurrent: 6,
    });
  });

  it('keeps the last run per namespace for the operator section', async () => {
    const last = await api()
      .get('/api/krypton/storage-rewrite/last')
      .set('Authorization', as('root'));
    expect(last.status).toBe(200);
    expect(last.body.runs).toEqual([
      {
        namespace: NS,
        requestedBy: 'user:default/root',
        requestedAt: expect.any(String),
        result: expect.objectContaining({
          namespaces: [NS],
          counts: expect.objectContaining({ alreadyCurrent: 6 }),
        }),
      },
    ]);
  });

  it('covers the namespaces listed for serviceAccount mode when none is named', async () => {
    const all = await rewrite('');
    expect(all.status).toBe(200);
    // The cluster also has default, kube-system and others: Krypton's identity could list them,
    // but in this mode the run's scope is krypton.kubernetes.serviceAccountMode.namespaces.
    expect(all.body.namespaces).toEqual([NS]);
    expect(all.body.counts.alreadyCurrent).toBe(6);
  });

  it('lets retention prune rewritten snapshots', async () => {
    const live = await api().get(`${base}/db`).set('Authorization', as('root'));
    const res = await api()
      .put(`${base}/db`)
      .set('Authorization', as('root'))
      .send({
        resourceVersion: live.body.resourceVersion,
        data: { v: 'db-4' },
      });
    expect(res.status).toBe(200);
    const versions = await api()
      .get(`${base}/db/versions`)
      .set('Authorization', as('root'));
    expect(
      versions.body.items.map((v: { version: number }) => v.version),
    ).toEqual([3, 2]);
  });

  it('reads, restores and verifies everything byte-exact once key1 is gone', async () => {
    // The runbook's step for everything Krypton does not own (other Secrets, and the legacy and
    // quarantined copies it never touches): an unchanged write of each, as kubectl replace does.
    const namespaces = await admin.transport.request({
      method: 'GET',
      path: '/api/v1/namespaces',
    });
    for (const ns of (namespaces.body as { items: NativeSecret[] }).items) {
      for (const s of await admin.listSecrets(ns.metadata.name!)) {
        const res = await admin.transport.request({
          method: 'PUT',
          path: `/api/v1/namespaces/${ns.metadata.name}/secrets/${s.metadata.name}`,
          body: s,
        });
        expect(res.status).toBe(200);
      }
    }
    for (const name of ['legacy-v1', 'krypton-h-quarantined-v1', 'other']) {
      expect(await storedWith(name)).toBe('key2');
    }
    writeFileSync(configFile, encryptionConfig([['key2', KEY2]]));
    await cp.restartApiServer();
    for (const name of ['db', 'tls']) {
      const live = await api()
        .get(`${base}/${name}`)
        .set('Authorization', as('root'));
      expect(live.status).toBe(200);
      expect(live.body.binaryData).toEqual({ 'k.bin': BINARY });
      const v2 = await api()
        .get(`${base}/${name}/versions/2`)
        .set('Authorization', as('root'));
      expect(v2.body.data).toEqual({ v: `${name}-2` });
      expect(v2.body.binaryData).toEqual({ 'k.bin': BINARY });
      const restored = await api()
        .post(`${base}/${name}/restore`)
        .set('Authorization', as('root'))
        .send({ version: 2, resourceVersion: live.body.resourceVersion });
      expect(restored.status).toBe(200);
      expect(restored.body.data).toEqual({ v: `${name}-2` });
      expect(restored.body.binaryData).toEqual({ 'k.bin': BINARY });
    }
    // Verification of an exact-source retry still holds for a rewritten snapshot: every
    // snapshot stayed immutable and passes the binding check when listed.
    for (const s of await admin.snapshots(NS)) {
      if (s.metadata.name === 'krypton-h-quarantined-v1') continue;
      expect(s.immutable).toBe(true);
    }
  });

  it('refuses a caller without the permission, and audits every run', async () => {
    testPolicy.denied.add('user:default/alice:krypton.storage.rewrite');
    try {
      const res = await rewrite(`?namespace=${NS}`, 'alice');
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        error:
          'You are not allowed to do this by the Backstage permission policy.',
      });
    } finally {
      testPolicy.reset();
    }
    const events = krypton.sink.audits.filter(
      a => a.eventId === 'storage-rewrite',
    );
    expect(events).toContainEqual(
      expect.objectContaining({
        status: 'succeeded',
        meta: expect.objectContaining({ scope: NS, rewritten: 6 }),
      }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({ status: 'failed', meta: { scope: NS } }),
    );
  });

  it('reports whether the cluster serves StorageVersionMigrations', async () => {
    const res = await api()
      .get('/api/krypton/storage-rewrite/migrations')
      .set('Authorization', as('root'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ served: false, migrations: [] });
  });
});
