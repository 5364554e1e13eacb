import {
  ControlPlane,
  aescbcEncryptionConfig,
  binDir,
  startControlPlane,
  ClusterAdmin,
} from '@krypton/kube-testenv';
import {
  NativeSecret,
  UNMANAGED_SECRETS_NOTE,
  buildProposalSecret,
  inPool,
  kryptonKeys,
  proposalName,
} from '@krypton/core';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { parse } from 'yaml';
import { rewriteToEnd } from '../../__testUtils__/storageRewrite';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
  testPolicy,
} from '../../__testUtils__/testBackend';

jest.setTimeout(120_000);

const NS = 'rotation';
/** A namespace over the old collection budget of 2,000 objects. */
const BULK = 'bulk';
const BULK_COUNT = 2_050;
const BINARY = Buffer.from([0x00, 0xff, 0xfe, 0x80, 0xc3, 0x28]).toString(
  'base64',
);
const KEY1 = randomBytes(32).toString('base64');
/** A change request's proposal for db, and an object that only claims to be one. */
const PROPOSAL = proposalName('6a1f0c2e-5b7d-4e3a-9c8f-1d2e3f4a5b6c');
const FORGED = proposalName('7b2e1d3f-6c8e-4f4b-8d9a-2e3f4a5b6c7d');
const PROPOSED = Buffer.from('db-proposed').toString('base64');
const KEY2 = randomBytes(32).toString('base64');

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
  const timings: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'krypton-rotation-'));
  const configFile = join(dir, 'encryption.yaml');
  let cp: ControlPlane;
  let admin: ClusterAdmin;
  let krypton: KryptonTestBackend;
  const base = `/api/krypton/namespaces/${NS}/secrets`;
  const api = () => request(krypton.server);
  const rewrite = (query = `?namespace=${NS}`, user = 'root') =>
    rewriteToEnd(krypton, query, { user });
  /** The ids of the runs, to find them in /last. */
  const runIds: Record<string, string> = {};

  const keyOf = (value: string) =>
    /^k8s:enc:aescbc:v1:(key\d):/.exec(
      Buffer.from(value, 'base64').toString('latin1'),
    )?.[1] ?? 'plaintext';

  /** The stored value's prefix in etcd, read through etcd's own JSON gateway. */
  async function storedWith(name: string, ns = NS): Promise<string> {
    const key = Buffer.from(`/registry/secrets/${ns}/${name}`).toString(
      'base64',
    );
    const res = await fetch(`${cp.state.etcdUrl}/v3/kv/range`, {
      method: 'POST',
      body: JSON.stringify({ key }),
    });
    const { kvs } = (await res.json()) as { kvs?: Array<{ value: string }> };
    if (!kvs?.length) return 'absent';
    return keyOf(kvs[0].value);
  }

  /** The SHA-256 of the encryption configuration, as the API server's metric names it. */
  const fileHash = () =>
    `sha256:${createHash('sha256')
      .update(readFileSync(configFile))
      .digest('hex')}`;

  /** The hash of the encryption configuration that the API server says it has loaded. */
  function loadedConfigHash(): string | undefined {
    const metrics = execFileSync(
      join(binDir(), 'kubectl'),
      [
        '--kubeconfig',
        cp.state.identities.admin.kubeconfig,
        'get',
        '--raw',
        '/metrics',
      ],
      { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
    );
    return /^apiserver_encryption_config_controller_last_config_info\{[^}]*hash="(sha256:[0-9a-f]+)"/m.exec(
      metrics,
    )?.[1];
  }

  /** How many Secrets of a namespace etcd holds under each key, in one range read. */
  async function keysIn(ns: string): Promise<Record<string, number>> {
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    const res = await fetch(`${cp.state.etcdUrl}/v3/kv/range`, {
      method: 'POST',
      body: JSON.stringify({
        key: b64(`/registry/secrets/${ns}/`),
        range_end: b64(`/registry/secrets/${ns}0`),
      }),
    });
    const { kvs = [] } = (await res.json()) as {
      kvs?: Array<{ value: string }>;
    };
    const out: Record<string, number> = {};
    for (const kv of kvs)
      out[keyOf(kv.value)] = (out[keyOf(kv.value)] ?? 0) + 1;
    return out;
  }

  /** Every Krypton-labelled object, the legacy and quarantined ones included. */
  const krypt = async () =>
    admin.listSecrets(NS, 'krypton.io/managed-by=krypton');

  beforeAll(async () => {
    writeFileSync(configFile, aescbcEncryptionConfig([['key1', KEY1]]));
    cp = await startControlPlane({ encryptionConfig: configFile });
    admin = new ClusterAdmin(cp.state.identities.admin.kubeconfig);
    krypton = await startKryptonBackend(
      {
        kubernetes: {
          identity: 'serviceAccount',
          serviceAccountMode: { namespaces: [NS, BULK] },
        },
        historyLimit: 2,
      },
      { controlPlane: cp.state },
    );
    for (const name of [NS, BULK]) {
      const ns = await admin.request({
        method: 'POST',
        path: '/api/v1/namespaces',
        body: { metadata: { name } },
      });
      if (ns.status !== 201) throw new Error(`namespace: ${ns.status}`);
    }
  });
  afterAll(async () => {
    process.stdout.write(`storage rewrite timings:\n${timings.join('\n')}\n`);
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
    const db = await admin.secret(NS, 'db');
    await admin.createSecret(
      NS,
      buildProposalSecret(
        db,
        {
          requestId: PROPOSAL.slice('krypton-p-'.length),
          data: { v: PROPOSED },
          by: 'user:default/root',
          at: new Date().toISOString(),
        },
        kryptonKeys('krypton.io'),
      ) as unknown as Record<string, unknown>,
    );
    await admin.createSecret(NS, {
      metadata: {
        name: FORGED,
        labels: { ...managed, 'krypton.io/kind': 'proposal' },
      },
      immutable: true,
      data: { v: 'b2xk' },
    });
    await admin.createSecret(NS, {
      metadata: { name: 'other' },
      data: { v: 'eA==' },
    });
    // Two live Secrets with two snapshots each (the limit is 2), a legacy and a quarantined copy,
    // a proposal and a forged one.
    expect((await krypt()).length).toBe(10);
    for (const s of await admin.listSecrets(NS)) {
      expect(await storedWith(s.metadata.name!)).toBe('key1');
    }
    const started = Date.now();
    await inPool(
      Array.from({ length: BULK_COUNT }, (_, i) => i),
      32,
      i =>
        admin.createSecret(BULK, {
          metadata: {
            name: `s-${String(i).padStart(4, '0')}`,
            labels: managed,
          },
          data: { v: Buffer.from(`value-${i}`).toString('base64') },
        }),
    );
    timings.push(`created ${BULK_COUNT} Secrets: ${Date.now() - started} ms`);
    expect(await keysIn(BULK)).toEqual({ key1: BULK_COUNT });
  });

  it('re-encodes every Krypton object with key2, quarantined and legacy ones byte-identical, and finds the old key ready to retire', async () => {
    writeFileSync(
      configFile,
      aescbcEncryptionConfig([
        ['key2', KEY2],
        ['key1', KEY1],
      ]),
    );
    await cp.restartApiServer();
    // The runbook's check that an API server has loaded the file: the hash in its metrics.
    expect(loadedConfigHash()).toBe(fileHash());
    const before = new Map((await krypt()).map(s => [s.metadata.name!, s]));

    const first = await rewrite();
    expect(first.start.status).toBe(202);
    expect(first.start.headers['cache-control']).toBe('no-store');
    expect(first.start.body).toMatchObject({
      cluster: 'test',
      scope: NS,
      dryRun: false,
      state: 'running',
      requestedBy: 'user:default/root',
      cancelRequested: false,
    });
    expect(first.final?.headers['cache-control']).toBe('no-store');
    expect(first.run).toMatchObject({
      id: first.start.body.id,
      state: 'succeeded',
      finishedAt: expect.any(String),
      progress: {
        pass: 'recheck',
        namespacesDone: 1,
        namespacesTotal: 1,
        seen: 10,
        rewritten: 0,
        alreadyCurrent: 10,
        failed: 0,
        gone: 0,
      },
    });
    expect(first.run?.error).toBeUndefined();
    expect(first.result?.counts).toEqual({
      seen: 10,
      rewritten: 10,
      alreadyCurrent: 0,
      conflictsResolved: 0,
      gone: 0,
      failed: 0,
      quarantined: 2,
      legacy: 1,
    });
    expect(first.result?.flagged).toEqual([
      {
        namespace: NS,
        name: 'krypton-h-quarantined-v1',
        reason: 'quarantined',
        outcome: 'rewritten',
      },
      // The valid proposal is one of Krypton's own objects; the forged one is set apart.
      {
        namespace: NS,
        name: FORGED,
        reason: 'quarantined',
        outcome: 'rewritten',
      },
      {
        namespace: NS,
        name: 'legacy-v1',
        reason: 'legacy',
        outcome: 'rewritten',
      },
    ]);
    // The first pass wrote, so a second one ran over the namespace and wrote nothing.
    expect(first.result?.recheck?.counts).toMatchObject({
      seen: 10,
      rewritten: 0,
      alreadyCurrent: 10,
    });
    expect(first.result?.oldKeyRetirement).toEqual({
      verdict: 'ready',
      reasons: [],
      unmanagedSecrets: UNMANAGED_SECRETS_NOTE,
    });
    for (const name of before.keys())
      expect(await storedWith(name)).toBe('key2');
    // Secrets that Krypton does not label are never touched.
    expect(await storedWith('other')).toBe('key1');
    // Nothing changed but the encoding: bytes, labels, annotations, immutability; the
    // quarantined and legacy copies included, which stay out of history.
    for (const after of await krypt()) {
      expect(stable(after)).toEqual(stable(before.get(after.metadata.name!)!));
    }
    const versions = await api()
      .get(`${base}/db/versions`)
      .set('Authorization', as('root'));
    expect(
      versions.body.items.map((v: { version: number }) => v.version),
    ).toEqual([2, 1]);

    const second = await rewrite();
    expect(second.run?.state).toBe('succeeded');
    runIds[NS] = second.run!.id;
    expect(second.result?.counts).toMatchObject({
      seen: 10,
      rewritten: 0,
      alreadyCurrent: 10,
    });
    expect(second.result?.recheck).toBeUndefined();
    expect(second.result?.oldKeyRetirement.verdict).toBe('ready');
  });

  it('counts a namespace over 2,000 objects in a dry run, then rewrites it in full, page by page', async () => {
    let started = Date.now();
    const dry = await rewrite(`?namespace=${BULK}&dryRun=true`);
    timings.push(`dry run over ${BULK_COUNT}: ${Date.now() - started} ms`);
    expect(dry.run?.state).toBe('succeeded');
    expect(dry.run?.dryRun).toBe(true);
    expect(dry.result?.dryRun).toBe(true);
    expect(dry.result?.counts).toMatchObject({
      seen: BULK_COUNT,
      rewritten: 0,
      alreadyCurrent: 0,
      failed: 0,
    });
    expect(dry.result?.oldKeyRetirement.verdict).toBe('blocked');
    expect(
      dry.result?.oldKeyRetirement.reasons.map((r: { code: string }) => r.code),
    ).toEqual(['dry_run']);
    // Nothing written.
    expect(await keysIn(BULK)).toEqual({ key1: BULK_COUNT });

    started = Date.now();
    const run = await rewrite(`?namespace=${BULK}`);
    timings.push(
      `rewrite of ${BULK_COUNT} (two passes): ${Date.now() - started} ms`,
    );
    expect(run.run?.state).toBe('succeeded');
    runIds[BULK] = run.run!.id;
    expect(run.result?.counts).toMatchObject({
      seen: BULK_COUNT,
      rewritten: BULK_COUNT,
      failed: 0,
    });
    expect(run.result?.namespaceFailures).toEqual([]);
    expect(run.result?.recheck?.counts).toMatchObject({
      rewritten: 0,
      alreadyCurrent: BULK_COUNT,
    });
    expect(run.result?.oldKeyRetirement.verdict).toBe('ready');
    // Successes are counted, not listed: the answer stays small whatever the namespace holds.
    expect(JSON.stringify(run.run).length).toBeLessThan(4_000);
    expect(await keysIn(BULK)).toEqual({ key2: BULK_COUNT });
  });

  it('keeps the last run per namespace for the operator section, dry runs apart', async () => {
    const last = await api()
      .get('/api/krypton/storage-rewrite/last')
      .set('Authorization', as('root'));
    expect(last.status).toBe(200);
    expect(last.body.runs).toEqual([
      {
        namespace: BULK,
        requestedBy: 'user:default/root',
        requestedAt: expect.any(String),
        runId: runIds[BULK],
        result: expect.objectContaining({
          namespaces: [BULK],
          dryRun: false,
          counts: expect.objectContaining({ rewritten: BULK_COUNT }),
          oldKeyRetirement: expect.objectContaining({ verdict: 'ready' }),
        }),
      },
      {
        namespace: NS,
        requestedBy: 'user:default/root',
        requestedAt: expect.any(String),
        runId: runIds[NS],
        result: expect.objectContaining({
          namespaces: [NS],
          counts: expect.objectContaining({ alreadyCurrent: 10 }),
        }),
      },
    ]);
  });

  it('covers the namespaces listed for serviceAccount mode when none is named', async () => {
    const all = await rewrite('');
    expect(all.run).toMatchObject({ scope: '*', state: 'succeeded' });
    expect(all.run?.progress.namespacesTotal).toBeGreaterThan(2);
    expect(all.run?.progress.namespacesDone).toBe(
      all.run?.progress.namespacesTotal,
    );
    // The cluster also has default, kube-system and others: Krypton's identity could list them,
    // but in this mode the run's scope is krypton.kubernetes.serviceAccountMode.namespaces.
    expect(all.result?.namespaces).toEqual([BULK, NS]);
    expect(all.result?.counts.alreadyCurrent).toBe(BULK_COUNT + 10);
    expect(all.result?.oldKeyRetirement.verdict).toBe('ready');
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
    // The runbook's step for everything Krypton does not label: an unchanged write of each, as
    // kubectl replace does.
    const namespaces = await admin.request({
      method: 'GET',
      path: '/api/v1/namespaces',
    });
    for (const ns of (namespaces.body as { items: NativeSecret[] }).items) {
      if (ns.metadata.name === BULK) continue;
      for (const s of await admin.listSecrets(ns.metadata.name!)) {
        if (s.metadata.labels?.['krypton.io/managed-by'] === 'krypton')
          continue;
        const res = await admin.request({
          method: 'PUT',
          path: `/api/v1/namespaces/${ns.metadata.name}/secrets/${s.metadata.name}`,
          body: s,
        });
        expect(res.status).toBe(200);
      }
    }
    expect(await storedWith('other')).toBe('key2');
    expect(await keysIn(NS)).toEqual({ key2: 11 });
    writeFileSync(configFile, aescbcEncryptionConfig([['key2', KEY2]]));
    await cp.restartApiServer();
    expect(loadedConfigHash()).toBe(fileHash());
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
    // The quarantined and legacy copies read too, with key1 gone, and so does the proposal.
    for (const name of ['legacy-v1', 'krypton-h-quarantined-v1', FORGED]) {
      expect((await admin.secret(NS, name)).data).toEqual({ v: 'b2xk' });
    }
    expect((await admin.secret(NS, PROPOSAL)).data).toEqual({ v: PROPOSED });
    // Verification of an exact-source retry still holds for a rewritten snapshot: every
    // snapshot stayed immutable and passes the binding check when listed.
    for (const s of await admin.snapshots(NS)) {
      expect(s.immutable).toBe(true);
    }
  });

  it('refuses a caller without the permission, and audits every run', async () => {
    testPolicy.denied.add('user:default/alice:krypton.storage.rewrite');
    try {
      const res = await rewrite(`?namespace=${NS}`, 'alice');
      expect(res.start.status).toBe(403);
      expect(res.run).toBeUndefined();
      expect(res.start.body).toEqual({
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
        meta: expect.objectContaining({
          scope: NS,
          seen: 10,
          rewritten: 10,
          quarantined: 2,
          legacy: 1,
          recheckRewritten: 0,
          verdict: 'ready',
        }),
      }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({
        status: 'succeeded',
        meta: expect.objectContaining({
          scope: BULK,
          dryRun: 'true',
          seen: BULK_COUNT,
          verdict: 'blocked',
        }),
      }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({
        status: 'failed',
        meta: { scope: NS, runId: expect.any(String) },
      }),
    );
    // The event of a run starts at the POST and ends with the run, under its id.
    const ofRun = events.filter(e => e.meta.runId === runIds[BULK]);
    expect(ofRun.map(e => e.status)).toEqual(['initiated', 'succeeded']);
    expect(ofRun[1].meta).toMatchObject({ state: 'succeeded', scope: BULK });
  });

  it('shows the StorageVersionMigrations of Secrets that this cluster serves in v1, and whether one succeeded since a run', async () => {
    const migrations = (since?: string) =>
      api()
        .get('/api/krypton/storage-rewrite/migrations')
        .query(since ? { since } : {})
        .set('Authorization', as('root'));
    const none = await migrations();
    expect(none.status).toBe(200);
    // kube-apiserver v1.37 serves storagemigration.k8s.io/v1 by default.
    expect(none.body).toEqual({
      served: true,
      version: 'v1',
      migrations: [],
      manifest: expect.stringContaining(
        'apiVersion: storagemigration.k8s.io/v1\n',
      ),
    });
    // The manifest that the operator section offers is one the API server accepts.
    const svms = '/apis/storagemigration.k8s.io/v1/storageversionmigrations';
    const created = await admin.request({
      method: 'POST',
      path: svms,
      body: parse(none.body.manifest),
    });
    expect(created.status).toBe(201);
    const svm = created.body as NativeSecret;
    // No controller runs here, so the test sets the status that the cluster's migrator would.
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const status = await admin.request({
      method: 'PUT',
      path: `${svms}/${svm.metadata.name}/status`,
      body: {
        ...svm,
        status: {
          conditions: [
            {
              type: 'Succeeded',
              status: 'True',
              lastTransitionTime: now,
              reason: 'Done',
              message: 'done',
            },
          ],
        },
      },
    });
    expect(status.status).toBe(200);
    const runStarted = new Date(Date.now() - 60_000).toISOString();
    const since = await migrations(runStarted);
    expect(since.body.migrations).toEqual([
      {
        name: svm.metadata.name,
        phase: 'Succeeded',
        createdAt: svm.metadata.creationTimestamp,
      },
    ]);
    expect(since.body.succeededSince).toBe(true);
    const later = await migrations(new Date(Date.now() + 60_000).toISOString());
    expect(later.body.succeededSince).toBe(false);
    expect((await migrations('yesterday')).status).toBe(400);
  });
});
