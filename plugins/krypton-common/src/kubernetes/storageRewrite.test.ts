import { InMemoryKubeGateway } from '../__testUtils__/InMemoryKubeGateway';
import { textToBase64 } from '../encoding';
import { kryptonKeys } from '../annotations';
import { buildSnapshot } from './snapshots';
import { storageMigrationStatus } from './storageMigrations';
import { StorageRewrite, rewriteResultFor } from './storageRewrite';
import {
  KubeApiError,
  NAMESPACES,
  ResourceType,
  SECRETS,
  Workload,
} from './types';

const KEYS = kryptonKeys('krypton.io');
const MANAGED = { 'krypton.io/managed-by': 'krypton' };
const AT = new Date('2026-11-30T12:00:00.000Z');

async function setup() {
  const gateway = new InMemoryKubeGateway();
  for (const ns of ['a', 'b'])
    gateway.put(NAMESPACES, '', { metadata: { name: ns } });
  const live = gateway.put(SECRETS, 'a', {
    metadata: { name: 'db', labels: MANAGED },
    data: { k: textToBase64('v') },
  });
  const snapshot = await buildSnapshot(live, 1, KEYS, {
    by: 'user:default/alice',
    at: AT.toISOString(),
  });
  gateway.put(SECRETS, 'a', snapshot);
  gateway.put(SECRETS, 'a', {
    metadata: {
      name: 'db-v0',
      labels: MANAGED,
      annotations: { [KEYS.historyOf]: 'db' },
    },
    data: {},
  });
  gateway.put(SECRETS, 'a', {
    metadata: {
      name: 'krypton-h-broken-v1',
      labels: { ...MANAGED, [KEYS.kind]: 'history' },
    },
    data: {},
  });
  gateway.put(SECRETS, 'a', { metadata: { name: 'other' }, data: {} });
  gateway.put(SECRETS, 'b', {
    metadata: { name: 'tls', labels: MANAGED },
    data: {},
  });
  const rewrite = new StorageRewrite({
    gateway,
    annotationPrefix: 'krypton.io',
    now: () => AT,
  });
  return { gateway, rewrite, snapshotName: snapshot.metadata.name! };
}

describe('StorageRewrite', () => {
  it('rewrites stale objects, finds current ones current, and leaves legacy and quarantined ones alone', async () => {
    const { gateway, rewrite, snapshotName } = await setup();
    gateway.markStale(SECRETS, 'a', 'db');
    gateway.markStale(SECRETS, 'a', snapshotName);
    gateway.markStale(SECRETS, 'a', 'db-v0');
    const before = await gateway.get(SECRETS, 'a', snapshotName);
    const result = await rewrite.run({ namespace: 'a' });
    expect(result.rewritten).toEqual([
      { namespace: 'a', name: 'db', kind: 'live' },
      { namespace: 'a', name: snapshotName, kind: 'snapshot' },
    ]);
    expect(result.alreadyCurrent).toEqual([]);
    expect(result.skipped).toEqual([
      { namespace: 'a', name: 'db-v0', reason: 'legacy' },
      { namespace: 'a', name: 'krypton-h-broken-v1', reason: 'quarantined' },
    ]);
    expect(result.counts).toEqual({
      rewritten: 2,
      alreadyCurrent: 0,
      conflictsResolved: 0,
      failed: 0,
      skipped: 2,
    });
    const after = await gateway.get(SECRETS, 'a', snapshotName);
    const { resourceVersion: _a, ...beforeMeta } = before.metadata;
    const { resourceVersion: _b, ...afterMeta } = after.metadata;
    expect({ ...after, metadata: afterMeta }).toEqual({
      ...before,
      metadata: beforeMeta,
    });
    expect(gateway.calls.filter(c => c.startsWith('mergePatch'))).toEqual([
      'mergePatch secrets db',
      `mergePatch secrets ${snapshotName}`,
    ]);
    const again = await rewrite.run({ namespace: 'a' });
    expect(again.counts).toMatchObject({ rewritten: 0, alreadyCurrent: 2 });
  });

  it('counts an object that another writer changed meanwhile as done', async () => {
    const { gateway, rewrite } = await setup();
    const mergePatch = gateway.mergePatch.bind(gateway);
    gateway.mergePatch = async (type, ns, name, patch) => {
      if (name === 'db') {
        gateway.put(SECRETS, 'a', await gateway.get(SECRETS, 'a', 'db'));
      }
      return mergePatch(type, ns, name, patch);
    };
    const result = await rewrite.run({ namespace: 'a' });
    expect(result.conflictsResolved).toEqual([
      { namespace: 'a', name: 'db', kind: 'live' },
    ]);
  });

  it('covers every namespace the lister may list, and reports failures per object and namespace', async () => {
    const { gateway, rewrite } = await setup();
    const listMetadata = gateway.listMetadata.bind(gateway);
    gateway.listMetadata = async (type, ns, request) => {
      if (type === SECRETS && ns === 'b')
        throw new KubeApiError(403, 'Forbidden');
      return listMetadata(type, ns, request);
    };
    gateway.mergePatch = async () => {
      throw new KubeApiError(0, 'Network');
    };
    const result = await rewrite.run({ lister: gateway });
    expect(result.namespaces).toEqual(['a', 'b']);
    expect(result.namespaceFailures).toEqual([
      {
        namespace: 'b',
        code: 'forbidden',
        message: expect.any(String),
        httpStatus: 403,
      },
    ]);
    expect(result.failed.map(f => [f.name, f.code])).toEqual([
      ['db', 'unconfirmed'],
      [expect.stringMatching(/^krypton-h-/), 'unconfirmed'],
    ]);
    expect(rewriteResultFor(result, 'b')).toMatchObject({
      namespaces: ['b'],
      failed: [],
      namespaceFailures: [{ namespace: 'b' }],
    });
  });

  it('keeps at most four writes in flight', async () => {
    const gateway = new InMemoryKubeGateway();
    for (let i = 0; i < 12; i++) {
      gateway.put(SECRETS, 'a', {
        metadata: { name: `s${i}`, labels: MANAGED },
        data: {},
      });
    }
    let inFlight = 0;
    let max = 0;
    const mergePatch = gateway.mergePatch.bind(gateway);
    gateway.mergePatch = async (type, ns, name, patch) => {
      inFlight++;
      max = Math.max(max, inFlight);
      await new Promise(r => setTimeout(r, 10));
      inFlight--;
      return mergePatch(type, ns, name, patch);
    };
    const result = await new StorageRewrite({
      gateway,
      annotationPrefix: 'krypton.io',
    }).run({
      namespace: 'a',
    });
    expect(result.counts.alreadyCurrent).toBe(12);
    expect(max).toBe(4);
  });
});

describe('storageMigrationStatus', () => {
  const migrations = (version: string): ResourceType<Workload> => ({
    apiPath: `/apis/storagemigration.k8s.io/${version}`,
    plural: 'storageversionmigrations',
    kind: 'StorageVersionMigration',
    clusterScoped: true,
  });

  it('reports the migrations of core Secrets with their phase', async () => {
    const gateway = new InMemoryKubeGateway();
    const put = (name: string, resource: string, conditions: unknown[]) =>
      gateway.put(migrations('v1beta1'), '', {
        metadata: { name },
        spec: { resource: { group: '', resource } },
        status: { conditions },
      } as Workload);
    put('secrets-1', 'secrets', [{ type: 'Succeeded', status: 'True' }]);
    put('secrets-2', 'secrets', [{ type: 'Running', status: 'True' }]);
    put('secrets-3', 'secrets', []);
    put('configmaps', 'configmaps', [{ type: 'Succeeded', status: 'True' }]);
    expect(await storageMigrationStatus(gateway)).toEqual({
      served: true,
      migrations: [
        { name: 'secrets-1', phase: 'Succeeded' },
        { name: 'secrets-2', phase: 'Running' },
        { name: 'secrets-3', phase: 'Pending' },
      ],
    });
  });

  it('says not served when no version of the API answers', async () => {
    const gateway = new InMemoryKubeGateway();
    gateway.list = async () => {
      throw new KubeApiError(404, 'NotFound');
    };
    expect(await storageMigrationStatus(gateway)).toEqual({
      served: false,
      migrations: [],
    });
  });
});
