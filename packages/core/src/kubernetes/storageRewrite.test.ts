import { InMemoryKubeGateway } from '../testing/InMemoryKubeGateway';
import { textToBase64 } from '../encoding';
import { kryptonKeys } from '../annotations';
import { buildSnapshot } from './snapshots';
import {
  migrationSucceededSince,
  storageMigrationManifest,
  storageMigrationStatus,
} from './storageMigrations';
import {
  OLD_KEY_MESSAGES,
  STORAGE_REWRITE_MAX_LISTED,
  STORAGE_REWRITE_MESSAGES,
  StorageRewrite,
  UNMANAGED_SECRETS_NOTE,
} from './storageRewrite';
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

/** A namespace of `count` managed Secrets named s000, s001, ... */
function many(count: number, stale = true) {
  const gateway = new InMemoryKubeGateway();
  for (let i = 0; i < count; i++) {
    const name = `s${String(i).padStart(3, '0')}`;
    gateway.put(SECRETS, 'a', {
      metadata: { name, labels: MANAGED },
      data: {},
    });
    if (stale) gateway.markStale(SECRETS, 'a', name);
  }
  return gateway;
}

const patched = (gateway: InMemoryKubeGateway) =>
  gateway.calls.filter(c => c.startsWith('mergePatch'));

describe('StorageRewrite', () => {
  it('re-encodes every Krypton-labelled object, lists quarantined and legacy ones apart, and confirms with a second pass', async () => {
    const { gateway, rewrite, snapshotName } = await setup();
    for (const name of ['db', snapshotName, 'db-v0', 'krypton-h-broken-v1'])
      gateway.markStale(SECRETS, 'a', name);
    const before = await gateway.get(SECRETS, 'a', 'krypton-h-broken-v1');
    const result = await rewrite.run({ namespace: 'a' });
    expect(result.counts).toEqual({
      seen: 4,
      rewritten: 4,
      alreadyCurrent: 0,
      conflictsResolved: 0,
      gone: 0,
      failed: 0,
      quarantined: 1,
      legacy: 1,
    });
    expect(result.flagged).toEqual([
      { namespace: 'a', name: 'db-v0', reason: 'legacy', outcome: 'rewritten' },
      {
        namespace: 'a',
        name: 'krypton-h-broken-v1',
        reason: 'quarantined',
        outcome: 'rewritten',
      },
    ]);
    // The write changed nothing but the revision: not a byte, label or annotation.
    const after = await gateway.get(SECRETS, 'a', 'krypton-h-broken-v1');
    const { resourceVersion: _a, ...beforeMeta } = before.metadata;
    const { resourceVersion: _b, ...afterMeta } = after.metadata;
    expect({ ...after, metadata: afterMeta }).toEqual({
      ...before,
      metadata: beforeMeta,
    });
    // The first pass wrote, so a second one ran and found everything current.
    expect(result.recheck?.counts).toMatchObject({
      seen: 4,
      rewritten: 0,
      alreadyCurrent: 4,
    });
    expect(patched(gateway)).toHaveLength(8);
    expect(result.oldKeyRetirement).toEqual({
      verdict: 'ready',
      reasons: [],
      unmanagedSecrets: UNMANAGED_SECRETS_NOTE,
    });
    expect(UNMANAGED_SECRETS_NOTE).toContain('StorageVersionMigration');
    expect(UNMANAGED_SECRETS_NOTE).toContain('kubectl');

    // A run over objects already current needs no second pass.
    const again = await rewrite.run({ namespace: 'a' });
    expect(again.counts).toMatchObject({ rewritten: 0, alreadyCurrent: 4 });
    expect(again.recheck).toBeUndefined();
    expect(again.oldKeyRetirement.verdict).toBe('ready');
  });

  it('is blocked when the second pass still writes, as behind an API server with the old configuration', async () => {
    const gateway = many(3);
    const mergePatch = gateway.mergePatch.bind(gateway);
    gateway.mergePatch = async (type, ns, name, patch) => {
      const out = await mergePatch(type, ns, name, patch);
      gateway.markStale(SECRETS, ns, name);
      return out;
    };
    const result = await new StorageRewrite({
      gateway,
      annotationPrefix: 'krypton.io',
    }).run({ namespace: 'a' });
    expect(result.recheck?.counts.rewritten).toBe(3);
    expect(result.oldKeyRetirement.verdict).toBe('blocked');
    expect(result.oldKeyRetirement.reasons).toEqual([
      {
        code: 'rewritten_on_recheck',
        count: 3,
        message: OLD_KEY_MESSAGES.rewritten_on_recheck,
      },
    ]);
  });

  it('counts an object changed meanwhile as resolved, and one deleted or replaced as gone', async () => {
    const { gateway, rewrite, snapshotName } = await setup();
    const mergePatch = gateway.mergePatch.bind(gateway);
    let first = true;
    gateway.mergePatch = async (type, ns, name, patch) => {
      if (first && name === 'db') {
        gateway.put(SECRETS, 'a', await gateway.get(SECRETS, 'a', 'db'));
      }
      if (first && name === snapshotName) {
        await gateway.delete(SECRETS, 'a', name, {
          uid: (await gateway.get(SECRETS, 'a', name)).metadata.uid!,
          resourceVersion: (
            await gateway.get(SECRETS, 'a', name)
          ).metadata.resourceVersion!,
        });
      }
      if (first && name === 'db-v0') {
        const old = await gateway.get(SECRETS, 'a', name);
        gateway.put(SECRETS, 'a', {
          ...old,
          metadata: { ...old.metadata, uid: 'another' },
        });
        first = false;
      }
      return mergePatch(type, ns, name, patch);
    };
    const result = await rewrite.run({ namespace: 'a' });
    expect(result.counts).toMatchObject({
      seen: 4,
      conflictsResolved: 1,
      gone: 2,
      failed: 0,
      alreadyCurrent: 1,
    });
    expect(result.gone.map(g => g.name).sort()).toEqual(
      ['db-v0', snapshotName].sort(),
    );
    expect(result.failed).toEqual([]);
    // The conflict made a second pass, which found everything current.
    expect(result.recheck?.counts).toMatchObject({ rewritten: 0, failed: 0 });
    expect(result.oldKeyRetirement.verdict).toBe('ready');
  });

  it('writes each page before it reads the next, and holds no more than a page', async () => {
    const gateway = many(7);
    const rewrite = new StorageRewrite({
      gateway,
      annotationPrefix: 'krypton.io',
      pageSize: 3,
    });
    const result = await rewrite.run({ namespace: 'a', dryRun: false });
    const firstPass = gateway.calls.slice(0, 10);
    expect(firstPass).toEqual([
      'listMetadata secrets',
      'mergePatch secrets s000',
      'mergePatch secrets s001',
      'mergePatch secrets s002',
      'listMetadata secrets',
      'mergePatch secrets s003',
      'mergePatch secrets s004',
      'mergePatch secrets s005',
      'listMetadata secrets',
      'mergePatch secrets s006',
    ]);
    expect(result.counts).toMatchObject({ seen: 7, rewritten: 7 });
    expect(result.oldKeyRetirement.verdict).toBe('ready');
  });

  it('starts the list again when its continuation expires, counting nothing twice', async () => {
    const gateway = many(7);
    const listMetadata = gateway.listMetadata.bind(gateway);
    let expired = 0;
    gateway.listMetadata = async (type, ns, request) => {
      if (request.continueToken && expired === 0) {
        expired++;
        throw new KubeApiError(410, 'Expired');
      }
      return listMetadata(type, ns, request);
    };
    const result = await new StorageRewrite({
      gateway,
      annotationPrefix: 'krypton.io',
      pageSize: 3,
    }).run({ namespace: 'a' });
    expect(result.listRestarts).toBe(1);
    expect(result.counts).toMatchObject({ seen: 7, rewritten: 7, failed: 0 });
    expect(result.namespaceFailures).toEqual([]);
    // The first page was written once: its objects were passed over after the restart.
    expect(
      patched(gateway).filter(c => c === 'mergePatch secrets s000'),
    ).toHaveLength(2); // once per pass
    expect(result.oldKeyRetirement.verdict).toBe('ready');
  });

  it('gives up on a list that keeps expiring without progress', async () => {
    const gateway = many(7);
    const listMetadata = gateway.listMetadata.bind(gateway);
    gateway.listMetadata = async (type, ns, request) => {
      if (request.continueToken) throw new KubeApiError(410, 'Expired');
      return listMetadata(type, ns, request);
    };
    const result = await new StorageRewrite({
      gateway,
      annotationPrefix: 'krypton.io',
      pageSize: 3,
    }).run({ namespace: 'a' });
    expect(result.listRestarts).toBe(1);
    expect(result.counts.seen).toBe(3);
    expect(result.namespaceFailures).toEqual([
      {
        namespace: 'a',
        code: 'incomplete_list',
        message: STORAGE_REWRITE_MESSAGES.incomplete_list,
        httpStatus: 410,
      },
    ]);
    expect(result.oldKeyRetirement.verdict).toBe('blocked');
    expect(result.oldKeyRetirement.reasons.map(r => r.code)).toContain(
      'namespace_failed',
    );
  });

  it('pages the namespaces of a cluster-wide run, keeps to those admitted, and reports failures with its own messages', async () => {
    const { gateway } = await setup();
    for (const ns of ['c', 'd', 'e'])
      gateway.put(NAMESPACES, '', { metadata: { name: ns } });
    gateway.put(SECRETS, 'e', {
      metadata: { name: 'x', labels: MANAGED },
      data: {},
    });
    const listMetadata = gateway.listMetadata.bind(gateway);
    gateway.listMetadata = async (type, ns, request) => {
      if (type === SECRETS && ns === 'b')
        throw new KubeApiError(403, 'Forbidden');
      return listMetadata(type, ns, request);
    };
    gateway.mergePatch = async () => {
      throw new KubeApiError(0, 'Network');
    };
    const parts: string[] = [];
    const result = await new StorageRewrite({
      gateway,
      annotationPrefix: 'krypton.io',
      pageSize: 2,
    }).run({
      lister: gateway,
      admit: ns => ns !== 'd',
      onNamespace: part => {
        parts.push(`${part.namespaces[0]}:${part.oldKeyRetirement.verdict}`);
      },
    });
    expect(result.namespaces).toEqual(['a', 'b', 'c', 'e']);
    expect(parts).toEqual(['a:blocked', 'b:blocked', 'c:ready', 'e:blocked']);
    expect(result.namespaceFailures).toEqual([
      {
        namespace: 'b',
        code: 'forbidden',
        message: STORAGE_REWRITE_MESSAGES.forbidden,
        httpStatus: 403,
      },
    ]);
    expect(result.failed.map(f => [f.namespace, f.name, f.code])).toEqual([
      ['a', 'db', 'unconfirmed'],
      ['a', 'db-v0', 'unconfirmed'],
      ['a', expect.stringMatching(/^krypton-h-/), 'unconfirmed'],
      ['a', 'krypton-h-broken-v1', 'unconfirmed'],
      ['e', 'x', 'unconfirmed'],
    ]);
    expect(result.failed[0].message).toBe(STORAGE_REWRITE_MESSAGES.unconfirmed);
    expect(STORAGE_REWRITE_MESSAGES.unconfirmed).not.toContain('workload');
    expect(result.oldKeyRetirement.reasons.map(r => [r.code, r.count])).toEqual(
      [
        ['failed', 5],
        ['namespace_failed', 1],
      ],
    );
  });

  it('counts in a dry run and writes nothing', async () => {
    const { gateway, rewrite } = await setup();
    const result = await rewrite.run({ namespace: 'a', dryRun: true });
    expect(patched(gateway)).toEqual([]);
    expect(result.dryRun).toBe(true);
    expect(result.counts).toEqual({
      seen: 4,
      rewritten: 0,
      alreadyCurrent: 0,
      conflictsResolved: 0,
      gone: 0,
      failed: 0,
      quarantined: 1,
      legacy: 1,
    });
    expect(result.flagged.map(f => f.outcome)).toEqual(['listed', 'listed']);
    expect(result.oldKeyRetirement.reasons.map(r => r.code)).toEqual([
      'dry_run',
    ]);
  });

  it('stops at its time limit, before the next page', async () => {
    const gateway = many(7);
    let clock = AT.getTime();
    const mergePatch = gateway.mergePatch.bind(gateway);
    gateway.mergePatch = async (type, ns, name, patch) => {
      clock += 1000;
      return mergePatch(type, ns, name, patch);
    };
    const result = await new StorageRewrite({
      gateway,
      annotationPrefix: 'krypton.io',
      pageSize: 3,
      timeLimitMs: 2500,
      now: () => new Date(clock),
    }).run({ namespace: 'a' });
    expect(result.counts.rewritten).toBe(3);
    expect(result.stopped).toBe('deadline');
    expect(result.namespaceFailures.map(f => f.code)).toEqual(['deadline']);
    expect(result.oldKeyRetirement.reasons.map(r => r.code)).toEqual([
      'deadline',
    ]);
  });

  it('stops on a cancel between pages, never in the middle of one, and reports its progress', async () => {
    const gateway = many(7);
    const progress: Array<[string, number, number, number | undefined]> = [];
    let cancel = false;
    const result = await new StorageRewrite({
      gateway,
      annotationPrefix: 'krypton.io',
      pageSize: 3,
    }).run({
      namespace: 'a',
      shouldStop: () => cancel,
      onProgress: p => {
        progress.push([p.pass, p.seen, p.rewritten, p.namespacesDone]);
        expect(p.namespacesTotal).toBe(1);
        // Asked while the first page is written: the page still ends, the next is not read.
        if (p.seen === 3) cancel = true;
      },
    });
    expect(patched(gateway)).toHaveLength(3);
    expect(result.counts).toMatchObject({ seen: 3, rewritten: 3 });
    expect(result.recheck).toBeUndefined();
    expect(result.stopped).toBe('cancelled');
    expect(result.namespaceFailures).toEqual([]);
    expect(result.oldKeyRetirement).toMatchObject({
      verdict: 'blocked',
      reasons: [
        { code: 'cancelled', count: 1, message: OLD_KEY_MESSAGES.cancelled },
      ],
    });
    expect(progress).toEqual([
      ['first', 0, 0, 0],
      ['first', 3, 3, 0],
      ['first', 3, 3, 1],
      ['first', 3, 3, 1],
    ]);
  });

  it('counts the progress of each pass over the run, and the namespaces of a cluster-wide run', async () => {
    const gateway = many(5);
    for (const ns of ['a', 'b', 'c'])
      gateway.put(NAMESPACES, '', { metadata: { name: ns } });
    gateway.put(SECRETS, 'c', {
      metadata: { name: 'x', labels: MANAGED },
      data: {},
    });
    gateway.markStale(SECRETS, 'c', 'x');
    const seen: string[] = [];
    const result = await new StorageRewrite({
      gateway,
      annotationPrefix: 'krypton.io',
      pageSize: 2,
    }).run({
      lister: gateway,
      admit: ns => ns !== 'b',
      onProgress: p =>
        seen.push(
          `${p.namespace ?? '-'} ${p.pass} ${p.seen}/${p.rewritten}/${
            p.alreadyCurrent
          } ${p.namespacesDone}`,
        ),
    });
    expect(result.counts).toMatchObject({ seen: 6, rewritten: 6 });
    expect(result.recheck?.counts).toMatchObject({ seen: 6, rewritten: 0 });
    expect(seen).toEqual([
      'a first 0/0/0 0',
      'a first 2/2/0 0',
      'a first 4/4/0 0',
      'a first 5/5/0 0',
      'a recheck 0/0/0 0',
      'a recheck 2/0/2 0',
      'a recheck 4/0/4 0',
      'a recheck 5/0/5 0',
      '- recheck 5/0/5 1',
      // b is passed over: the caller may not list it.
      'c first 5/5/0 2',
      'c first 6/6/0 2',
      'c recheck 5/0/5 2',
      'c recheck 6/0/6 2',
      '- recheck 6/0/6 3',
      '- recheck 6/0/6 3',
    ]);
  });

  it('lists at most a bounded number of entries, and counts the rest', async () => {
    const gateway = many(STORAGE_REWRITE_MAX_LISTED + 5);
    gateway.mergePatch = async () => {
      throw new KubeApiError(503, 'ServiceUnavailable');
    };
    const result = await new StorageRewrite({
      gateway,
      annotationPrefix: 'krypton.io',
    }).run({ namespace: 'a' });
    expect(result.counts.failed).toBe(STORAGE_REWRITE_MAX_LISTED + 5);
    expect(result.failed).toHaveLength(STORAGE_REWRITE_MAX_LISTED);
    expect(result.truncated).toBe(true);
  });

  it('keeps at most four writes in flight', async () => {
    const gateway = many(12, false);
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
    }).run({ namespace: 'a' });
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

  it('reads v1 to the last page, with phases, and whether one succeeded since a run', async () => {
    const gateway = new InMemoryKubeGateway();
    const put = (
      name: string,
      resource: string,
      conditions: unknown[],
      at: string,
    ) =>
      gateway.put(migrations('v1'), '', {
        metadata: { name, creationTimestamp: at },
        spec: { resource: { group: '', resource } },
        status: { conditions },
      } as Workload);
    // More than one page of others before the Secrets' own.
    for (let i = 0; i < 150; i++)
      put(
        `a-cm-${String(i).padStart(3, '0')}`,
        'configmaps',
        [],
        AT.toISOString(),
      );
    put(
      'secrets-1',
      'secrets',
      [{ type: 'Succeeded', status: 'True' }],
      '2026-11-30T11:00:00Z',
    );
    put(
      'secrets-2',
      'secrets',
      [{ type: 'Running', status: 'True' }],
      '2026-11-30T13:00:00Z',
    );
    put('secrets-3', 'secrets', [], '2026-11-30T13:00:00Z');
    const status = await storageMigrationStatus(gateway, {
      since: AT.toISOString(),
    });
    expect(status).toEqual({
      served: true,
      version: 'v1',
      migrations: [
        {
          name: 'secrets-1',
          phase: 'Succeeded',
          createdAt: '2026-11-30T11:00:00Z',
        },
        {
          name: 'secrets-2',
          phase: 'Running',
          createdAt: '2026-11-30T13:00:00Z',
        },
        {
          name: 'secrets-3',
          phase: 'Pending',
          createdAt: '2026-11-30T13:00:00Z',
        },
      ],
      succeededSince: false,
      manifest: storageMigrationManifest('v1'),
    });
    expect(gateway.calls.filter(c => c.startsWith('list'))).toHaveLength(2);
    expect(
      migrationSucceededSince(
        [{ name: 'm', phase: 'Succeeded', createdAt: '2026-11-30T12:00:00Z' }],
        AT.toISOString(),
      ),
    ).toBe(true);
    expect(storageMigrationManifest('v1')).toContain('resource: secrets');
  });

  it('falls back to the beta version, and says not served when no version answers', async () => {
    const gateway = new InMemoryKubeGateway();
    const list = gateway.list.bind(gateway);
    gateway.list = async (type, ns, request) => {
      if (type.apiPath.endsWith('/v1')) throw new KubeApiError(404, 'NotFound');
      return list(type, ns, request);
    };
    expect(await storageMigrationStatus(gateway)).toMatchObject({
      served: true,
      version: 'v1beta1',
      migrations: [],
    });
    gateway.list = async () => {
      throw new KubeApiError(404, 'NotFound');
    };
    expect(await storageMigrationStatus(gateway)).toEqual({
      served: false,
      migrations: [],
    });
  });
});
