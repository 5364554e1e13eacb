import { InMemoryKubeGateway } from '../testing/InMemoryKubeGateway';
import { textToBase64 } from '../encoding';
import { KryptonError, messages } from '../errors';
import { SecretHistory } from './history';
import { LiveGate, LiveSecrets } from './liveSecrets';
import { buildSnapshot, hash32, snapshotName } from './snapshots';
import { kryptonKeys } from '../annotations';
import { KubeApiError, NativeSecret, SECRETS } from './types';
import { VersionedSecrets } from './versionedSecrets';

const NS = 'ns';
const allow: LiveGate = {
  permit: async () => () => undefined,
  admit: () => undefined,
};
const MANAGED = { 'krypton.io/managed-by': 'krypton' };
const AT = new Date('2026-11-30T10:00:00.000Z');

function setup(limit: number | 'invalid' = 20, proveWrites = false) {
  const gateway = new InMemoryKubeGateway();
  const historyLimit =
    limit === 'invalid'
      ? { ok: false as const, error: 'bad limit' }
      : { ok: true as const, value: limit };
  const options = { annotationPrefix: 'krypton.io', historyLimit };
  const live = new LiveSecrets({
    ...options,
    gateway,
    cluster: 'c',
    managedOnly: true,
    proveWrites,
  });
  let now = AT;
  const history = new SecretHistory({ ...options, gateway, now: () => now });
  const versioned = (actor = 'user:default/alice') =>
    new VersionedSecrets({ live, history, actor });
  return {
    gateway,
    live,
    history,
    versioned: versioned(),
    as: versioned,
    setNow: (d: Date) => {
      now = d;
    },
  };
}

async function rejection(promise: Promise<unknown>): Promise<KryptonError> {
  try {
    await promise;
  } catch (e) {
    return e as KryptonError;
  }
  throw new Error('expected a rejection');
}

function put(
  gateway: InMemoryKubeGateway,
  name: string,
  data: Record<string, string>,
  extra: Partial<NativeSecret> & {
    annotations?: Record<string, string>;
  } = {},
) {
  const { annotations, ...rest } = extra;
  return gateway.put(SECRETS, NS, {
    metadata: { name, labels: { ...MANAGED }, annotations },
    data,
    ...rest,
  });
}

async function update(
  t: ReturnType<typeof setup>,
  name: string,
  text: Record<string, string>,
) {
  const current = await t.gateway.get(SECRETS, NS, name);
  return t.versioned.update(
    NS,
    name,
    { resourceVersion: current.metadata.resourceVersion!, data: text },
    allow,
  );
}

const snapshots = (t: ReturnType<typeof setup>) =>
  [
    ...(
      t.gateway as unknown as { objects: Map<string, NativeSecret> }
    ).objects.values(),
  ]
    .filter(o => o.metadata.labels?.['krypton.io/kind'] === 'history')
    .sort((a, b) => a.metadata.name!.localeCompare(b.metadata.name!));

/**
 * After every history list, writes each snapshot again, as an operator relabelling it or a storage
 * rewrite would: the revisions the inventory validated no longer hold when Krypton deletes.
 */
function touchSnapshotsAfterEachInventory(t: ReturnType<typeof setup>) {
  const listMetadata = t.gateway.listMetadata.bind(t.gateway);
  t.gateway.listMetadata = async (type, ns, request) => {
    const page = await listMetadata(type, ns, request);
    for (const snap of snapshots(t)) t.gateway.put(SECRETS, NS, snap);
    return page;
  };
}

describe('snapshot names', () => {
  it('hash the UID into at most 60 characters, whatever the live name', async () => {
    expect(await hash32('abc')).toBe('ba7816bf8f01cfea414140de5dae2223');
    // The largest counter that can still be incremented safely has 16 digits.
    const name = snapshotName(await hash32('uid'), 9_007_199_254_740_990);
    expect(name).toMatch(/^krypton-h-[0-9a-f]{32}-v[0-9]{16}$/);
    expect(name.length).toBe(60);
  });
});

describe('history of updates', () => {
  it('saves the replaced state as vN before the live write, bound to its UID and revision', async () => {
    const t = setup();
    const longName = `${'a'.repeat(61)}.${'b'.repeat(63)}.${'c'.repeat(
      63,
    )}.${'d'.repeat(63)}`;
    expect(longName).toHaveLength(253);
    const live = put(
      t.gateway,
      longName,
      { k: textToBase64('one') },
      {
        type: 'example.com/custom',
        annotations: {
          'krypton.io/version': '1',
          'krypton.io/description': 'db',
          'krypton.io/owners': 'user:default/alice',
          'kubectl.kubernetes.io/last-applied-configuration': '{"data":{}}',
          'example.com/controller': 'x',
        },
      },
    );
    t.gateway.calls.length = 0;
    const out = await t.versioned.update(
      NS,
      longName,
      { resourceVersion: live.metadata.resourceVersion!, data: { k: 'two' } },
      allow,
    );
    expect(out.archive).toEqual({
      archivedVersion: 1,
      reused: false,
      pruned: 0,
    });
    expect(t.gateway.calls).toEqual([
      `get secrets ${longName}`,
      `create secrets ${snapshotName(await hash32(live.metadata.uid!), 1)}`,
      'listMetadata secrets',
      `replace secrets ${longName}`,
    ]);
    const [snap] = snapshots(t);
    expect(snap.metadata.name!.length).toBeLessThanOrEqual(60);
    expect(snap.immutable).toBe(true);
    expect(snap.type).toBe('Opaque');
    expect(snap.data).toEqual({ k: textToBase64('one') });
    expect(snap.metadata.labels).toEqual({
      'krypton.io/managed-by': 'krypton',
      'krypton.io/kind': 'history',
      'krypton.io/source-uid': await hash32(live.metadata.uid!),
      'krypton.io/source-resource-version': await hash32(
        live.metadata.resourceVersion!,
      ),
    });
    expect(snap.metadata.annotations).toEqual({
      'krypton.io/history-format': 'uid-rv-v1',
      'krypton.io/source-uid': live.metadata.uid,
      'krypton.io/source-resource-version': live.metadata.resourceVersion,
      'krypton.io/history-of': longName,
      'krypton.io/source-type': 'example.com/custom',
      'krypton.io/version': '1',
      'krypton.io/snapshot-at': AT.toISOString(),
      'krypton.io/snapshot-by': 'user:default/alice',
      'krypton.io/keys': 'k',
      'krypton.io/description': 'db',
      'krypton.io/owners': 'user:default/alice',
    });
    expect(snap.metadata.finalizers).toBeUndefined();
    expect(out.secret.metadata.annotations?.['krypton.io/version']).toBe('2');
  });

  it('copies no lifecycle of the live object into the snapshot', async () => {
    const t = setup();
    put(
      t.gateway,
      'owned',
      { k: textToBase64('v') },
      {
        annotations: { 'krypton.io/version': '4' },
      },
    );
    const current = await t.gateway.get(SECRETS, NS, 'owned');
    current.metadata.ownerReferences = [
      { apiVersion: 'v1', kind: 'X', name: 'x', uid: 'u', controller: true },
    ];
    current.metadata.finalizers = ['example.com/keep'];
    t.gateway.put(SECRETS, NS, current);
    await update(t, 'owned', { k: 'w' });
    const [snap] = snapshots(t);
    expect(snap.metadata.name).toMatch(/-v4$/);
    expect(snap.metadata.ownerReferences).toBeUndefined();
    expect(snap.metadata.finalizers).toBeUndefined();
    const liveNow = await t.gateway.get(SECRETS, NS, 'owned');
    expect(liveNow.metadata.finalizers).toEqual(['example.com/keep']);
    expect(liveNow.metadata.ownerReferences).toHaveLength(1);
  });

  it('treats a Secret without a counter, or with the old 0, as v1', async () => {
    for (const counter of [undefined, '0']) {
      const t = setup();
      put(
        t.gateway,
        'adopted',
        { k: textToBase64('v') },
        {
          annotations: counter ? { 'krypton.io/version': counter } : {},
        },
      );
      const first = await update(t, 'adopted', { k: 'w' });
      expect(first.archive?.archivedVersion).toBe(1);
      expect(first.secret.metadata.annotations?.['krypton.io/version']).toBe(
        '2',
      );
      const second = await update(t, 'adopted', { k: 'x' });
      expect(second.archive?.archivedVersion).toBe(2);
    }
  });

  it('neither archives nor bumps on metadata-only edits', async () => {
    const t = setup();
    const s = put(t.gateway, 'meta', { k: textToBase64('v') });
    const out = await t.versioned.update(
      NS,
      'meta',
      { resourceVersion: s.metadata.resourceVersion!, description: 'd' },
      allow,
    );
    expect(out.archive).toBeUndefined();
    expect(snapshots(t)).toHaveLength(0);
  });

  it('refuses data changes before any history write while the limit is invalid', async () => {
    const t = setup('invalid');
    const s = put(t.gateway, 'a', { k: textToBase64('v') });
    t.gateway.calls.length = 0;
    const err = await rejection(
      t.versioned.update(
        NS,
        'a',
        { resourceVersion: s.metadata.resourceVersion!, data: { k: 'w' } },
        allow,
      ),
    );
    expect(err.status).toBe(503);
    expect(t.gateway.calls).toEqual(['get secrets a']);
  });
});

describe('verified retries', () => {
  it('reuses the snapshot of an exact-source retry, keeping its first actor and time', async () => {
    const t = setup();
    const s = put(t.gateway, 'a', { k: textToBase64('v1') });
    const replace = t.gateway.replace.bind(t.gateway);
    t.gateway.replace = async () => {
      throw new KubeApiError(0, 'Network');
    };
    const failed = await rejection(update(t, 'a', { k: 'v2' }));
    expect(failed.status).toBe(503);
    t.gateway.replace = replace;
    t.setNow(new Date('2026-12-01T00:00:00.000Z'));
    const retried = await t
      .as('user:default/bob')
      .update(
        NS,
        'a',
        { resourceVersion: s.metadata.resourceVersion!, data: { k: 'v2' } },
        allow,
      );
    expect(retried.archive).toEqual({
      archivedVersion: 1,
      reused: true,
      pruned: 0,
    });
    const [snap] = snapshots(t);
    expect(snap.metadata.annotations?.['krypton.io/snapshot-at']).toBe(
      AT.toISOString(),
    );
    expect(snap.metadata.annotations?.['krypton.io/snapshot-by']).toBe(
      'user:default/alice',
    );
  });

  it('blocks with 409 when the slot holds another revision of the same version', async () => {
    const t = setup();
    put(t.gateway, 'a', { k: textToBase64('v1') });
    const replace = t.gateway.replace.bind(t.gateway);
    t.gateway.replace = async () => {
      throw new KubeApiError(500, 'InternalError');
    };
    await rejection(update(t, 'a', { k: 'v2' }));
    t.gateway.replace = replace;
    // An external, metadata-only change moves the revision but not the counter.
    const current = await t.gateway.get(SECRETS, NS, 'a');
    current.metadata.annotations = {
      ...current.metadata.annotations,
      touched: 'yes',
    };
    t.gateway.put(SECRETS, NS, current);
    const err = await rejection(update(t, 'a', { k: 'v2' }));
    expect(err.status).toBe(409);
    expect(err.message).toMatch(/already holds this version/);
    expect(snapshots(t)).toHaveLength(1);
    expect((await t.gateway.get(SECRETS, NS, 'a')).data).toEqual({
      k: textToBase64('v1'),
    });
  });

  it.each([
    [
      'changed bytes',
      (s: NativeSecret) => ({ ...s, data: { k: textToBase64('forged') } }),
    ],
    [
      'an extra key',
      (s: NativeSecret) => ({ ...s, data: { ...s.data, extra: '' } }),
    ],
    ['a mutable occupant', (s: NativeSecret) => ({ ...s, immutable: false })],
    ['another type', (s: NativeSecret) => ({ ...s, type: 'example.com/x' })],
    [
      'changed rules',
      (s: NativeSecret) => ({
        ...s,
        metadata: {
          ...s.metadata,
          annotations: {
            ...s.metadata.annotations,
            'krypton.io/owners': 'user:default/eve',
          },
        },
      }),
    ],
    [
      'a finalizer',
      (s: NativeSecret) => ({
        ...s,
        metadata: { ...s.metadata, finalizers: ['x/y'] },
      }),
    ],
    [
      'a controller',
      (s: NativeSecret) => ({
        ...s,
        metadata: {
          ...s.metadata,
          ownerReferences: [
            {
              apiVersion: 'v1',
              kind: 'X',
              name: 'x',
              uid: 'u',
              controller: true,
            },
          ],
        },
      }),
    ],
    [
      'a pending deletion',
      (s: NativeSecret) => ({
        ...s,
        metadata: { ...s.metadata, deletionTimestamp: AT.toISOString() },
      }),
    ],
    [
      'another source revision',
      (s: NativeSecret) => ({
        ...s,
        metadata: {
          ...s.metadata,
          annotations: {
            ...s.metadata.annotations,
            'krypton.io/source-resource-version': 'other',
          },
        },
      }),
    ],
  ])(
    'blocks with 409 when the occupant of the slot has %s',
    async (_what, alter) => {
      const t = setup();
      const s = put(t.gateway, 'a', { k: textToBase64('v1') });
      // Save the exact snapshot first, through a failed attempt, then tamper with it.
      const replace = t.gateway.replace.bind(t.gateway);
      t.gateway.replace = async () => {
        throw new KubeApiError(0, 'Network');
      };
      await rejection(update(t, 'a', { k: 'v2' }));
      t.gateway.replace = replace;
      const [snap] = snapshots(t);
      t.gateway.put(SECRETS, NS, alter(snap));
      const err = await rejection(
        t.versioned.update(
          NS,
          'a',
          { resourceVersion: s.metadata.resourceVersion!, data: { k: 'v2' } },
          allow,
        ),
      );
      expect(err.status).toBe(409);
      expect(
        (await t.gateway.get(SECRETS, NS, 'a')).metadata.resourceVersion,
      ).toBe(s.metadata.resourceVersion);
    },
  );

  it('verifies a successful create answer too: admission may have altered it', async () => {
    const t = setup();
    put(t.gateway, 'a', { k: textToBase64('v1') });
    const create = t.gateway.create.bind(t.gateway);
    t.gateway.create = async (type, ns, object) => {
      const mutated = {
        ...object,
        data: { ...(object as NativeSecret).data, injected: 'eA==' },
      };
      return create(type, ns, mutated as typeof object);
    };
    const err = await rejection(update(t, 'a', { k: 'v2' }));
    expect(err.status).toBe(409);
    expect((await t.gateway.get(SECRETS, NS, 'a')).data).toEqual({
      k: textToBase64('v1'),
    });
  });

  it('blocks with 409 when the counter is behind newer retained history', async () => {
    const t = setup();
    put(t.gateway, 'a', { k: textToBase64('v1') });
    await update(t, 'a', { k: 'v2' });
    await update(t, 'a', { k: 'v3' });
    const current = await t.gateway.get(SECRETS, NS, 'a');
    current.metadata.annotations = {
      ...current.metadata.annotations,
      'krypton.io/version': '1',
    };
    t.gateway.put(SECRETS, NS, current);
    // v1 is taken by another revision: the source conflict comes first.
    expect((await rejection(update(t, 'a', { k: 'x' }))).status).toBe(409);
    const [v1] = snapshots(t).filter(s => s.metadata.name!.endsWith('-v1'));
    await t.gateway.delete(SECRETS, NS, v1.metadata.name!, {
      uid: v1.metadata.uid!,
      resourceVersion: v1.metadata.resourceVersion!,
    });
    const err = await rejection(update(t, 'a', { k: 'x' }));
    expect(err.status).toBe(409);
    expect(err.message).toMatch(/behind its retained history/);
  });
});

describe('writers that read before another write', () => {
  it('get the stale-revision 409, not an operator review, when history moved past their read', async () => {
    const t = setup();
    const s = put(t.gateway, 'a', { k: textToBase64('v1') });
    const create = t.gateway.create.bind(t.gateway);
    let raced = false;
    t.gateway.create = async (type, ns, object) => {
      if (!raced) {
        raced = true;
        // Another writer saves v1 from the same read, then writes twice more.
        await update(t, 'a', { k: 'b1' });
        await update(t, 'a', { k: 'b2' });
      }
      return create(type, ns, object);
    };
    const err = await rejection(
      t.versioned.update(
        NS,
        'a',
        { resourceVersion: s.metadata.resourceVersion!, data: { k: 'late' } },
        allow,
      ),
    );
    expect(err.status).toBe(409);
    expect(err.message).toBe(
      'The Secret has changed since it was loaded. Reload it and re-apply your changes.',
    );
    expect((await t.gateway.get(SECRETS, NS, 'a')).data).toEqual({
      k: textToBase64('b2'),
    });
  });
});

describe('retention', () => {
  it('prunes the oldest snapshots of that UID down to the limit, by app counter', async () => {
    const t = setup(2);
    put(t.gateway, 'a', { k: textToBase64('v1') });
    const pruned: number[] = [];
    for (const v of ['v2', 'v3', 'v4', 'v5'])
      pruned.push((await update(t, 'a', { k: v })).archive!.pruned);
    expect(pruned).toEqual([0, 0, 1, 1]);
    expect(
      snapshots(t)
        .map(s => s.metadata.annotations?.['krypton.io/version'])
        .sort(),
    ).toEqual(['3', '4']);
  });

  it('blocks the live write with 503 and counts when a finalizer holds an old snapshot', async () => {
    const t = setup(1);
    put(t.gateway, 'a', { k: textToBase64('v1') });
    await update(t, 'a', { k: 'v2' });
    const [old] = snapshots(t);
    t.gateway.put(SECRETS, NS, {
      ...old,
      metadata: { ...old.metadata, finalizers: ['x/hold'] },
    });
    const before = await t.gateway.get(SECRETS, NS, 'a');
    const err = await rejection(update(t, 'a', { k: 'v3' }));
    expect(err.status).toBe(503);
    expect(err.toEnvelope()).toEqual({
      error: expect.stringContaining('1 pending'),
      history: { confirmedAbsent: 0, pending: 1, failed: 0 },
    });
    expect(
      (await t.gateway.get(SECRETS, NS, 'a')).metadata.resourceVersion,
    ).toBe(before.metadata.resourceVersion);
  });

  it('answers 503 when retention meets a snapshot changed since the inventory, and never retries with a revision nobody validated', async () => {
    const t = setup(1);
    put(t.gateway, 'a', { k: textToBase64('v1') });
    await update(t, 'a', { k: 'v2' });
    touchSnapshotsAfterEachInventory(t);
    const before = await t.gateway.get(SECRETS, NS, 'a');
    t.gateway.calls.length = 0;
    const err = await rejection(update(t, 'a', { k: 'v3' }));
    expect(err).toBeInstanceOf(KryptonError);
    // Spec, Retention: "other failures ... return 503 with confirmed-absent/pending/failed counts
    // and block the live replacement".
    expect(err.code).toBe('unavailable');
    expect(err.history).toEqual({ confirmedAbsent: 0, pending: 0, failed: 1 });
    expect(t.gateway.calls.filter(c => c.startsWith('delete'))).toHaveLength(1);
    expect(
      snapshots(t)
        .map(s => s.metadata.annotations?.['krypton.io/version'])
        .sort(),
    ).toEqual(['1', '2']);
    expect((await t.gateway.get(SECRETS, NS, 'a')).data).toEqual(before.data);
  });

  it('never lists, prunes or restores legacy, retagged, malformed or foreign records', async () => {
    const t = setup(1);
    const s = put(t.gateway, 'a', { k: textToBase64('v1') });
    const uidHash = await hash32(s.metadata.uid!);
    const legacy = t.gateway.put(SECRETS, NS, {
      metadata: { name: 'a-v1', labels: { ...MANAGED } },
      data: { k: textToBase64('old') },
    });
    const retagged = t.gateway.put(SECRETS, NS, {
      metadata: {
        name: snapshotName(uidHash, 7),
        labels: {
          ...MANAGED,
          'krypton.io/kind': 'history',
          'krypton.io/source-uid': uidHash,
        },
        annotations: {
          'krypton.io/version': '7',
          'krypton.io/source-uid': s.metadata.uid!,
        },
      },
      immutable: true,
      type: 'Opaque',
      data: {},
    });
    await update(t, 'a', { k: 'v2' });
    await update(t, 'a', { k: 'v3' });
    const versions = await t.versioned.versions(NS, 'a', allow);
    expect(versions.map(v => v.version)).toEqual([2]);
    expect(await t.gateway.get(SECRETS, NS, 'a-v1')).toMatchObject({
      metadata: { uid: legacy.metadata.uid },
    });
    expect(
      await t.gateway.get(SECRETS, NS, retagged.metadata.name!),
    ).toBeTruthy();
    const current = await t.gateway.get(SECRETS, NS, 'a');
    const restore = await rejection(
      t.versioned.restore(
        NS,
        'a',
        { version: 7, resourceVersion: current.metadata.resourceVersion! },
        allow,
      ),
    );
    expect(restore.status).toBe(404);
    const deleted = await t.versioned.delete(
      NS,
      'a',
      {
        resourceVersion: current.metadata.resourceVersion!,
        keepHistory: false,
      },
      allow,
    );
    expect(deleted.result).toEqual({ status: 'deleted', history: 'cleaned' });
    expect(await t.gateway.get(SECRETS, NS, 'a-v1')).toBeTruthy();
    expect(
      await t.gateway.get(SECRETS, NS, retagged.metadata.name!),
    ).toBeTruthy();
  });
});

describe('cleanup that meets failures', () => {
  it.each([1, 2])(
    'with a limit of %i, a restore prunes oldest-first and keeps the state it rolled back from',
    async limit => {
      const t = setup(limit);
      put(t.gateway, 'a', { k: textToBase64('v1') });
      await update(t, 'a', { k: 'v2' });
      const live = await t.gateway.get(SECRETS, NS, 'a');
      const out = await t.versioned.restore(
        NS,
        'a',
        { version: 1, resourceVersion: live.metadata.resourceVersion! },
        allow,
      );
      expect(out.secret.data).toEqual({ k: textToBase64('v1') });
      expect(out.archive).toMatchObject({
        archivedVersion: 2,
        pruned: 2 - limit,
      });
      expect(
        (await t.versioned.versions(NS, 'a', allow)).map(v => v.version),
      ).toEqual(limit === 1 ? [2] : [2, 1]);
      const from = await t.versioned.version(NS, 'a', 2, allow);
      expect(from.data).toEqual({ k: 'v2' });
    },
  );

  it('stops pruning at the first failure, so no newer snapshot goes before an older one', async () => {
    const t = setup(5);
    put(t.gateway, 'a', { k: textToBase64('v1') });
    for (const v of ['v2', 'v3', 'v4']) await update(t, 'a', { k: v });
    const strict = new VersionedSecrets({
      live: t.live,
      history: new SecretHistory({
        gateway: t.gateway,
        annotationPrefix: 'krypton.io',
        historyLimit: { ok: true, value: 1 },
      }),
      actor: 'user:default/alice',
    });
    const attempts: string[] = [];
    t.gateway.delete = async (_type, _ns, name) => {
      attempts.push(name);
      throw new KubeApiError(500, 'InternalError');
    };
    const live = await t.gateway.get(SECRETS, NS, 'a');
    const err = await rejection(
      strict.update(
        NS,
        'a',
        { resourceVersion: live.metadata.resourceVersion!, data: { k: 'v5' } },
        allow,
      ),
    );
    expect(err.toEnvelope().history).toEqual({
      confirmedAbsent: 0,
      pending: 0,
      failed: 1,
    });
    expect(attempts).toEqual([snapshots(t)[0].metadata.name]);
    expect(snapshots(t)[0].metadata.name).toMatch(/-v1$/);
  });

  it('confirms a delete that got no answer by reading the snapshot again', async () => {
    const t = setup(1);
    put(t.gateway, 'a', { k: textToBase64('v1') });
    await update(t, 'a', { k: 'v2' });
    const remove = t.gateway.delete.bind(t.gateway);
    t.gateway.delete = async (type, ns, name, pre) => {
      await remove(type, ns, name, pre);
      throw new KubeApiError(0, 'Network');
    };
    const out = await update(t, 'a', { k: 'v3' });
    expect(out.archive?.pruned).toBe(1);
  });

  it('tells how far a delete cleanup got when a later step fails', async () => {
    const t = setup();
    put(t.gateway, 'a', { k: textToBase64('v1') });
    await update(t, 'a', { k: 'v2' });
    await update(t, 'a', { k: 'v3' });
    const live = await t.gateway.get(SECRETS, NS, 'a');
    const listMetadata = t.gateway.listMetadata.bind(t.gateway);
    let lists = 0;
    t.gateway.listMetadata = async (type, ns, request) => {
      if (++lists === 2) throw new KubeApiError(503, 'ServiceUnavailable');
      return listMetadata(type, ns, request);
    };
    const err = await rejection(
      t.versioned.delete(
        NS,
        'a',
        { resourceVersion: live.metadata.resourceVersion!, keepHistory: false },
        allow,
      ),
    );
    expect(err.toEnvelope()).toEqual({
      error: "Krypton could not read the Secret's history. Try again later.",
      history: { confirmedAbsent: 2, pending: 0, failed: 0 },
    });
    expect(await t.gateway.get(SECRETS, NS, 'a')).toBeTruthy();
  });
});

describe('versions and restore', () => {
  const special = () =>
    JSON.parse(
      `{"__proto__":"${textToBase64('proto')}","bom":"${textToBase64(
        '\ufeffhi',
      )}","empty":"","bin":"AP+A"}`,
    ) as Record<string, string>;

  it('lists the validated history newest first without values, and reads one version split', async () => {
    const t = setup();
    put(t.gateway, 'a', special(), {
      annotations: { 'krypton.io/owners': 'user:default/alice' },
    });
    await update(t, 'a', { k: 'two' });
    await update(t, 'a', { k: 'three' });
    const versions = await t.versioned.versions(NS, 'a', allow);
    expect(versions.map(v => v.version)).toEqual([2, 1]);
    expect(versions[1]).toEqual({
      version: 1,
      snapshotAt: AT.toISOString(),
      snapshotBy: 'user:default/alice',
      sourceType: 'Opaque',
      sourceResourceVersion: expect.any(String),
      keys: ['__proto__', 'bin', 'bom', 'empty'],
    });
    expect(JSON.stringify(versions)).not.toContain(textToBase64('proto'));
    const v1 = await t.versioned.version(NS, 'a', 1, allow);
    expect(Object.getOwnPropertyDescriptor(v1.data, '__proto__')?.value).toBe(
      'proto',
    );
    expect(v1.data.bom).toBe('\ufeffhi');
    expect(v1.binaryData).toEqual({ bin: 'AP+A' });
    expect(v1.binaryKeys).toEqual(['bin']);
    expect(v1.access.owners).toEqual(['user:default/alice']);
  });

  it('restores the original base64 byte-exact, archives the current state and keeps the live metadata', async () => {
    const t = setup();
    put(t.gateway, 'a', special(), {
      annotations: { 'krypton.io/owners': 'user:default/alice' },
      type: 'example.com/custom',
    });
    await update(t, 'a', { k: 'two' });
    const current = await t.gateway.get(SECRETS, NS, 'a');
    current.metadata.finalizers = ['example.com/keep'];
    current.metadata.annotations = {
      ...current.metadata.annotations,
      'krypton.io/owners': 'user:default/bob',
      'krypton.io/description': 'now',
    };
    const edited = t.gateway.put(SECRETS, NS, current);
    const out = await t.versioned.restore(
      NS,
      'a',
      { version: 1, resourceVersion: edited.metadata.resourceVersion! },
      allow,
    );
    expect(out.archive?.archivedVersion).toBe(2);
    const restored = out.secret;
    expect(
      Object.getOwnPropertyDescriptor(restored.data, '__proto__')?.value,
    ).toBe(textToBase64('proto'));
    expect(restored.data).toEqual(special());
    expect(restored.type).toBe('example.com/custom');
    expect(restored.metadata.uid).toBe(edited.metadata.uid);
    expect(restored.metadata.finalizers).toEqual(['example.com/keep']);
    expect(restored.metadata.annotations?.['krypton.io/owners']).toBe(
      'user:default/bob',
    );
    expect(restored.metadata.annotations?.['krypton.io/description']).toBe(
      'now',
    );
    expect(restored.metadata.annotations?.['krypton.io/version']).toBe('3');
    // The state rolled back from is itself restorable.
    expect(
      (await t.versioned.versions(NS, 'a', allow)).map(v => v.version),
    ).toEqual([2, 1]);
  });

  it('checks revision, pending deletion, type and immutability before saving anything', async () => {
    const t = setup();
    put(t.gateway, 'frozen', { k: textToBase64('v1') }, { immutable: true });
    put(t.gateway, 'a', { k: textToBase64('v1') });
    await update(t, 'a', { k: 'v2' });
    const a = await t.gateway.get(SECRETS, NS, 'a');
    expect(
      (
        await rejection(
          t.versioned.restore(
            NS,
            'a',
            { version: 1, resourceVersion: 'old' },
            allow,
          ),
        )
      ).status,
    ).toBe(409);
    expect(
      (
        await rejection(
          t.versioned.restore(
            NS,
            'a',
            { version: 9, resourceVersion: a.metadata.resourceVersion! },
            allow,
          ),
        )
      ).message,
    ).toBe("That version is not in this Secret's history.");
    const pending = t.gateway.put(SECRETS, NS, {
      ...a,
      metadata: {
        ...a.metadata,
        deletionTimestamp: AT.toISOString(),
        finalizers: ['x/y'],
      },
    });
    const err = await rejection(
      t.versioned.restore(
        NS,
        'a',
        { version: 1, resourceVersion: pending.metadata.resourceVersion! },
        allow,
      ),
    );
    expect(err.status).toBe(409);
    expect(err.message).toMatch(/being deleted/);
    const frozen = await t.gateway.get(SECRETS, NS, 'frozen');
    expect(
      (
        await rejection(
          t.versioned.restore(
            NS,
            'frozen',
            { version: 1, resourceVersion: frozen.metadata.resourceVersion! },
            allow,
          ),
        )
      ).status,
    ).toBe(404);
    expect(snapshots(t)).toHaveLength(1);
  });

  it('allows a byte-identical restore of an immutable Secret and refuses a data change with 422', async () => {
    const t = setup();
    put(t.gateway, 'a', { k: textToBase64('v1') });
    await update(t, 'a', { k: 'v2' });
    await update(t, 'a', { k: 'v1' });
    const current = await t.gateway.get(SECRETS, NS, 'a');
    const frozen = t.gateway.put(SECRETS, NS, { ...current, immutable: true });
    t.gateway.calls.length = 0;
    const same = await t.versioned.restore(
      NS,
      'a',
      { version: 1, resourceVersion: frozen.metadata.resourceVersion! },
      allow,
    );
    expect(same.dataChanged).toBe(false);
    expect(t.gateway.calls.filter(c => !c.startsWith('get'))).toEqual([]);
    const err = await rejection(
      t.versioned.restore(
        NS,
        'a',
        { version: 2, resourceVersion: frozen.metadata.resourceVersion! },
        allow,
      ),
    );
    expect(err.status).toBe(422);
    expect(snapshots(t)).toHaveLength(2);
  });
});

describe('delete', () => {
  async function withHistory(t: ReturnType<typeof setup>) {
    put(t.gateway, 'a', { k: textToBase64('v1') });
    await update(t, 'a', { k: 'v2' });
    await update(t, 'a', { k: 'v3' });
    return t.gateway.get(SECRETS, NS, 'a');
  }

  it('cleans up history, rechecking the live Secret before each delete, then deletes it', async () => {
    const t = setup();
    const live = await withHistory(t);
    t.gateway.calls.length = 0;
    const out = await t.versioned.delete(
      NS,
      'a',
      { resourceVersion: live.metadata.resourceVersion!, keepHistory: false },
      allow,
    );
    expect(out).toEqual({
      result: { status: 'deleted', history: 'cleaned' },
      cleanup: { confirmedAbsent: 2, pending: 0, failed: 0 },
    });
    const uidHash = await hash32(live.metadata.uid!);
    expect(t.gateway.calls).toEqual([
      'getMetadata secrets a',
      'listMetadata secrets',
      'getMetadata secrets a',
      `delete secrets ${snapshotName(uidHash, 1)}`,
      'getMetadata secrets a',
      `delete secrets ${snapshotName(uidHash, 2)}`,
      'listMetadata secrets',
      'getMetadata secrets a',
      'delete secrets a',
    ]);
    expect(snapshots(t)).toEqual([]);
  });

  it('answers 409 when a snapshot changed after the inventory, and deletes nothing more', async () => {
    const t = setup();
    const live = await withHistory(t);
    touchSnapshotsAfterEachInventory(t);
    t.gateway.calls.length = 0;
    const err = await rejection(
      t.versioned.delete(
        NS,
        'a',
        { resourceVersion: live.metadata.resourceVersion!, keepHistory: false },
        allow,
      ),
    );
    // Spec, Delete: "snapshot precondition conflicts return 409".
    expect(err.code).toBe('conflict');
    expect(err.message).toBe(messages.snapshotChanged);
    expect(t.gateway.calls.filter(c => c.startsWith('delete'))).toHaveLength(1);
    expect(snapshots(t)).toHaveLength(2);
    expect((await t.gateway.get(SECRETS, NS, 'a')).metadata.uid).toBe(
      live.metadata.uid,
    );
  });

  it('refuses a stale revision before touching history', async () => {
    const t = setup();
    await withHistory(t);
    t.gateway.calls.length = 0;
    const err = await rejection(
      t.versioned.delete(
        NS,
        'a',
        { resourceVersion: 'old', keepHistory: false },
        allow,
      ),
    );
    expect(err.status).toBe(409);
    expect(t.gateway.calls).toEqual(['getMetadata secrets a']);
  });

  it('keeps history when asked, and a recreated name starts a separate history', async () => {
    const t = setup();
    const live = await withHistory(t);
    const out = await t.versioned.delete(
      NS,
      'a',
      { resourceVersion: live.metadata.resourceVersion!, keepHistory: true },
      allow,
    );
    expect(out.result).toEqual({ status: 'deleted', history: 'kept' });
    expect(snapshots(t)).toHaveLength(2);
    put(t.gateway, 'a', { k: textToBase64('new life') });
    expect(await t.versioned.versions(NS, 'a', allow)).toEqual([]);
    const again = await update(t, 'a', { k: 'next' });
    expect(again.archive?.archivedVersion).toBe(1);
    expect(snapshots(t)).toHaveLength(3);
  });

  it('answers pending while finalizers hold the live Secret', async () => {
    const t = setup();
    const live = await withHistory(t);
    const held = t.gateway.put(SECRETS, NS, {
      ...live,
      metadata: { ...live.metadata, finalizers: ['x/hold'] },
    });
    const out = await t.versioned.delete(
      NS,
      'a',
      { resourceVersion: held.metadata.resourceVersion!, keepHistory: false },
      allow,
    );
    expect(out.result).toEqual({ status: 'pending', history: 'cleaned' });
  });

  it('answers 503 with counts and keeps the live Secret when a snapshot cannot go', async () => {
    const t = setup();
    const live = await withHistory(t);
    const [first] = snapshots(t);
    t.gateway.put(SECRETS, NS, {
      ...first,
      metadata: { ...first.metadata, finalizers: ['x/hold'] },
    });
    const err = await rejection(
      t.versioned.delete(
        NS,
        'a',
        { resourceVersion: live.metadata.resourceVersion!, keepHistory: false },
        allow,
      ),
    );
    expect(err.status).toBe(503);
    expect(err.toEnvelope().history).toEqual({
      confirmedAbsent: 1,
      pending: 1,
      failed: 0,
    });
    expect(await t.gateway.get(SECRETS, NS, 'a')).toBeTruthy();
  });

  it('stops with 409 when the live Secret changes during cleanup', async () => {
    const t = setup();
    const live = await withHistory(t);
    const remove = t.gateway.delete.bind(t.gateway);
    let touched = false;
    t.gateway.delete = async (type, ns, name, pre) => {
      const out = await remove(type, ns, name, pre);
      if (!touched) {
        touched = true;
        const now = await t.gateway.get(SECRETS, NS, 'a');
        t.gateway.put(SECRETS, NS, now);
      }
      return out;
    };
    const err = await rejection(
      t.versioned.delete(
        NS,
        'a',
        { resourceVersion: live.metadata.resourceVersion!, keepHistory: false },
        allow,
      ),
    );
    expect(err.status).toBe(409);
    expect(await t.gateway.get(SECRETS, NS, 'a')).toBeTruthy();
  });
});

describe('a proof of the user’s own live write (hybrid mode)', () => {
  it('comes before any history change, and a refusal leaves history as it was', async () => {
    const t = setup(1, true);
    put(t.gateway, 'a', { k: textToBase64('v1') });
    await update(t, 'a', { k: 'v2' });
    const live = await t.gateway.get(SECRETS, NS, 'a');
    t.gateway.calls.length = 0;
    t.gateway.dryRunDenied.add('replace');
    t.gateway.dryRunDenied.add('delete');
    const refusals = [
      await rejection(update(t, 'a', { k: 'v3' })),
      await rejection(
        t.versioned.restore(
          NS,
          'a',
          { version: 1, resourceVersion: live.metadata.resourceVersion! },
          allow,
        ),
      ),
      await rejection(
        t.versioned.delete(
          NS,
          'a',
          {
            resourceVersion: live.metadata.resourceVersion!,
            keepHistory: false,
          },
          allow,
        ),
      ),
    ];
    expect(refusals.map(e => e.code)).toEqual([
      'forbidden',
      'forbidden',
      'forbidden',
    ]);
    expect(t.gateway.calls.filter(c => !/^(get|dryRun)/.test(c))).toEqual([]);
    expect(snapshots(t)).toHaveLength(1);
    expect((await t.gateway.get(SECRETS, NS, 'a')).data).toEqual(live.data);
  });

  it('runs once per write when allowed, before the snapshot is saved', async () => {
    const t = setup(20, true);
    put(t.gateway, 'a', { k: textToBase64('v1') });
    t.gateway.calls.length = 0;
    await update(t, 'a', { k: 'v2' });
    // The helper reads the Secret first, then the route reads it through the gate.
    expect(t.gateway.calls.slice(2, 4)).toEqual([
      'dryRunReplace secrets a',
      `create secrets ${snapshots(t)[0].metadata.name}`,
    ]);
    // A metadata-only edit saves nothing: the user's own write is the only change.
    t.gateway.calls.length = 0;
    const current = await t.gateway.get(SECRETS, NS, 'a');
    await t.versioned.update(
      NS,
      'a',
      { resourceVersion: current.metadata.resourceVersion!, description: 'd' },
      allow,
    );
    expect(t.gateway.calls.some(c => c.startsWith('dryRun'))).toBe(false);
  });
});

describe('one record validation', () => {
  async function forged(change: (s: NativeSecret) => void) {
    const t = setup(2);
    put(t.gateway, 'a', { k: textToBase64('v1') });
    await update(t, 'a', { k: 'v2' });
    const [v1] = snapshots(t);
    const copy = JSON.parse(JSON.stringify(v1)) as NativeSecret;
    change(copy);
    t.gateway.put(SECRETS, NS, copy);
    return t;
  }

  it.each([
    [
      'history-of names another Secret',
      (s: NativeSecret) => {
        s.metadata.annotations!['krypton.io/history-of'] = 'b';
      },
    ],
    [
      'it is not Opaque',
      (s: NativeSecret) => {
        s.type = 'example.com/x';
      },
    ],
  ])('a record is ignored on every path when %s', async (_what, change) => {
    const t = await forged(change);
    expect(await t.versioned.versions(NS, 'a', allow)).toEqual([]);
    const live = await t.gateway.get(SECRETS, NS, 'a');
    const err = await rejection(
      t.versioned.restore(
        NS,
        'a',
        { version: 1, resourceVersion: live.metadata.resourceVersion! },
        allow,
      ),
    );
    expect(err.code).toBe('not_found');
    for (const v of ['v3', 'v4']) await update(t, 'a', { k: v });
    const now = await t.gateway.get(SECRETS, NS, 'a');
    await t.versioned.delete(
      NS,
      'a',
      { resourceVersion: now.metadata.resourceVersion!, keepHistory: false },
      allow,
    );
    expect(
      snapshots(t).map(s => s.metadata.annotations?.['krypton.io/version']),
    ).toEqual(['1']);
  });

  it('a mutable record is never read or restored', async () => {
    const t = await forged(s => {
      delete s.immutable;
    });
    const err = await rejection(t.versioned.version(NS, 'a', 1, allow));
    expect(err.code).toBe('not_found');
  });
});

describe('saving the replaced state', () => {
  it('refuses the live write when its snapshot is terminating by the time retention reads it', async () => {
    const t = setup();
    put(t.gateway, 'a', { k: textToBase64('v1') });
    const listMetadata = t.gateway.listMetadata.bind(t.gateway);
    t.gateway.listMetadata = async (type, ns, request) => {
      for (const snap of snapshots(t)) {
        snap.metadata.finalizers = ['example.com/hold'];
        snap.metadata.deletionTimestamp = AT.toISOString();
        t.gateway.put(SECRETS, NS, snap);
      }
      return listMetadata(type, ns, request);
    };
    const before = await t.gateway.get(SECRETS, NS, 'a');
    const err = await rejection(update(t, 'a', { k: 'v2' }));
    expect(err.code).toBe('conflict');
    expect(err.message).toBe(messages.archiveChanged);
    expect((await t.gateway.get(SECRETS, NS, 'a')).data).toEqual(before.data);
  });

  async function withExactSnapshot(keys: string | undefined) {
    const t = setup();
    const live = put(t.gateway, 'a', { k: textToBase64('v1') });
    const exact = await buildSnapshot(live, 1, kryptonKeys('krypton.io'), {
      by: 'user:default/tool',
      at: AT.toISOString(),
    });
    if (keys === undefined)
      delete exact.metadata.annotations!['krypton.io/keys'];
    else exact.metadata.annotations!['krypton.io/keys'] = keys;
    t.gateway.put(SECRETS, NS, exact);
    return update(t, 'a', { k: 'v2' });
  }

  it('accepts an exact snapshot in the slot without the keys annotation', async () => {
    expect((await withExactSnapshot(undefined)).archive).toMatchObject({
      reused: true,
    });
  });

  it('refuses an occupant whose keys annotation disagrees with its bytes', async () => {
    expect((await rejection(withExactSnapshot('other'))).message).toBe(
      messages.sourceConflict,
    );
  });
});

describe('gates that need no values', () => {
  it('read only the metadata of the live Secret for the version list and a delete', async () => {
    const t = setup();
    put(t.gateway, 'a', { k: textToBase64('v1') });
    await update(t, 'a', { k: 'v2' });
    t.gateway.calls.length = 0;
    await t.versioned.versions(NS, 'a', allow);
    expect(t.gateway.calls).toEqual([
      'getMetadata secrets a',
      'listMetadata secrets',
    ]);
    const live = await t.gateway.get(SECRETS, NS, 'a');
    t.gateway.calls.length = 0;
    await t.versioned.delete(
      NS,
      'a',
      { resourceVersion: live.metadata.resourceVersion!, keepHistory: true },
      allow,
    );
    expect(t.gateway.calls).toEqual([
      'getMetadata secrets a',
      'getMetadata secrets a',
      'delete secrets a',
    ]);
  });

  it('restart reads the whole Secret only where its dry run needs it', async () => {
    for (const proveWrites of [false, true]) {
      const t = setup(20, proveWrites);
      put(t.gateway, 'a', { k: textToBase64('v1') });
      t.gateway.calls.length = 0;
      const live = await t.live.gateRestart(NS, 'a', allow);
      expect(t.gateway.calls).toEqual(
        proveWrites
          ? ['get secrets a', 'dryRunReplace secrets a']
          : ['getMetadata secrets a'],
      );
      expect(live.data === undefined).toBe(!proveWrites);
    }
  });
});
