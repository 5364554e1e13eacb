import { InMemoryKubeGateway } from '../testing/InMemoryKubeGateway';
import { textToBase64 } from '../encoding';
import { UpdateSecretRequest } from '../dto';
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
const CONTROLLER = {
  apiVersion: 'v1',
  kind: 'X',
  name: 'x',
  uid: 'u',
  controller: true,
};

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

type Setup = ReturnType<typeof setup>;

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

const withMetadata = (
  s: NativeSecret,
  metadata: Partial<NativeSecret['metadata']>,
): NativeSecret => ({ ...s, metadata: { ...s.metadata, ...metadata } });

const withAnnotations = (
  s: NativeSecret,
  annotations: Record<string, string>,
): NativeSecret =>
  withMetadata(s, {
    annotations: { ...s.metadata.annotations, ...annotations },
  });

/** Nothing in these tests ever removes this finalizer, so the object cannot go. */
const held = (s: NativeSecret) => withMetadata(s, { finalizers: ['x/hold'] });

const read = (t: Setup, name = 'a') => t.gateway.get(SECRETS, NS, name);

const revisionOf = (from: NativeSecret | string) =>
  typeof from === 'string' ? from : from.metadata.resourceVersion!;

/** Writes at the revision `from` was loaded at, as a retry or a second writer would. */
const updateFrom = (
  t: Setup,
  from: NativeSecret | string,
  changes: Omit<UpdateSecretRequest, 'resourceVersion'>,
  name = 'a',
) =>
  t.versioned.update(
    NS,
    name,
    { resourceVersion: revisionOf(from), ...changes },
    allow,
  );

async function update(t: Setup, data: Record<string, string>, name = 'a') {
  return updateFrom(t, await read(t, name), { data }, name);
}

const restore = (
  t: Setup,
  version: number,
  from: NativeSecret | string,
  name = 'a',
) =>
  t.versioned.restore(
    NS,
    name,
    { version, resourceVersion: revisionOf(from) },
    allow,
  );

const remove = (t: Setup, from: NativeSecret | string, keepHistory: boolean) =>
  t.versioned.delete(
    NS,
    'a',
    { resourceVersion: revisionOf(from), keepHistory },
    allow,
  );

const listed = async (t: Setup) =>
  (await t.versioned.versions(NS, 'a', allow)).map(v => v.version);

const snapshots = (t: Setup) =>
  [
    ...(
      t.gateway as unknown as { objects: Map<string, NativeSecret> }
    ).objects.values(),
  ]
    .filter(o => o.metadata.labels?.['krypton.io/kind'] === 'history')
    .sort((a, b) => a.metadata.name!.localeCompare(b.metadata.name!));

const snapshotVersions = (t: Setup) =>
  snapshots(t)
    .map(s => s.metadata.annotations?.['krypton.io/version'])
    .sort();

/** Puts `a` at v1, then writes each later value through Krypton so that each leaves a snapshot. */
async function seed(t: Setup, ...later: string[]) {
  put(t.gateway, 'a', { k: textToBase64('v1') });
  for (const v of later) await update(t, { k: v });
  return read(t);
}

/** Saves the v1 snapshot through an update whose live write then fails, filling the slot for a retry. */
async function failedUpdate(
  t: Setup,
  failure = new KubeApiError(0, 'Network'),
) {
  const replace = t.gateway.replace.bind(t.gateway);
  t.gateway.replace = async () => {
    throw failure;
  };
  const err = await rejection(update(t, { k: 'v2' }));
  t.gateway.replace = replace;
  return err;
}

/**
 * After every history list, writes each snapshot again, as an operator relabelling it or a storage
 * rewrite would: the revisions the inventory validated no longer hold when Krypton deletes.
 */
function touchSnapshotsAfterEachInventory(t: Setup) {
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
    const out = await updateFrom(t, live, { data: { k: 'two' } }, longName);
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
      { annotations: { 'krypton.io/version': '4' } },
    );
    t.gateway.put(
      SECRETS,
      NS,
      withMetadata(await read(t, 'owned'), {
        // An owner that is not the Secret's controller: Krypton refuses to edit a controlled one.
        ownerReferences: [{ ...CONTROLLER, controller: false }],
        finalizers: ['example.com/keep'],
      }),
    );
    await update(t, { k: 'w' }, 'owned');
    const [snap] = snapshots(t);
    expect(snap.metadata.name).toMatch(/-v4$/);
    expect(snap.metadata.ownerReferences).toBeUndefined();
    expect(snap.metadata.finalizers).toBeUndefined();
    const liveNow = await read(t, 'owned');
    expect(liveNow.metadata.finalizers).toEqual(['example.com/keep']);
    expect(liveNow.metadata.ownerReferences).toHaveLength(1);
  });

  it.each<{ name: string; annotations: Record<string, string> }>([
    { name: 'without a counter', annotations: {} },
    {
      name: 'with the old counter 0',
      annotations: { 'krypton.io/version': '0' },
    },
  ])('treats a Secret $name as v1', async ({ annotations }) => {
    const t = setup();
    put(t.gateway, 'adopted', { k: textToBase64('v') }, { annotations });
    const first = await update(t, { k: 'w' }, 'adopted');
    expect(first.archive?.archivedVersion).toBe(1);
    expect(first.secret.metadata.annotations?.['krypton.io/version']).toBe('2');
    const second = await update(t, { k: 'x' }, 'adopted');
    expect(second.archive?.archivedVersion).toBe(2);
  });

  it('neither archives nor bumps on metadata-only edits', async () => {
    const t = setup();
    const s = put(t.gateway, 'meta', { k: textToBase64('v') });
    const out = await updateFrom(t, s, { description: 'd' }, 'meta');
    expect(out.archive).toBeUndefined();
    expect(snapshots(t)).toHaveLength(0);
  });

  it('refuses data changes before any history write while the limit is invalid', async () => {
    const t = setup('invalid');
    const s = put(t.gateway, 'a', { k: textToBase64('v') });
    t.gateway.calls.length = 0;
    const err = await rejection(updateFrom(t, s, { data: { k: 'w' } }));
    expect(err.status).toBe(503);
    expect(t.gateway.calls).toEqual(['get secrets a']);
  });
});

describe('verified retries', () => {
  it('reuses the snapshot of an exact-source retry, keeping its first actor and time', async () => {
    const t = setup();
    const s = await seed(t);
    expect((await failedUpdate(t)).status).toBe(503);
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
    await seed(t);
    await failedUpdate(t, new KubeApiError(500, 'InternalError'));
    // An external, metadata-only change moves the revision but not the counter.
    t.gateway.put(
      SECRETS,
      NS,
      withAnnotations(await read(t), { touched: 'yes' }),
    );
    const err = await rejection(update(t, { k: 'v2' }));
    expect(err.status).toBe(409);
    expect(err.message).toMatch(/already holds this version/);
    expect(snapshots(t)).toHaveLength(1);
    expect((await read(t)).data).toEqual({ k: textToBase64('v1') });
  });

  it.each<{ name: string; alter: (s: NativeSecret) => NativeSecret }>([
    {
      name: 'changed bytes',
      alter: s => ({ ...s, data: { k: textToBase64('forged') } }),
    },
    {
      name: 'an extra key',
      alter: s => ({ ...s, data: { ...s.data, extra: '' } }),
    },
    { name: 'a mutable occupant', alter: s => ({ ...s, immutable: false }) },
    { name: 'another type', alter: s => ({ ...s, type: 'example.com/x' }) },
    {
      name: 'changed rules',
      alter: s =>
        withAnnotations(s, { 'krypton.io/owners': 'user:default/eve' }),
    },
    {
      name: 'a finalizer',
      alter: s => withMetadata(s, { finalizers: ['x/y'] }),
    },
    {
      name: 'a controller',
      alter: s => withMetadata(s, { ownerReferences: [CONTROLLER] }),
    },
    {
      name: 'a pending deletion',
      alter: s => withMetadata(s, { deletionTimestamp: AT.toISOString() }),
    },
    {
      name: 'another source revision',
      alter: s =>
        withAnnotations(s, { 'krypton.io/source-resource-version': 'other' }),
    },
  ])(
    'blocks with 409 when the occupant of the slot has $name',
    async ({ alter }) => {
      const t = setup();
      const s = await seed(t);
      // Save the exact snapshot first, through a failed attempt, then tamper with it.
      await failedUpdate(t);
      const [snap] = snapshots(t);
      t.gateway.put(SECRETS, NS, alter(snap));
      const err = await rejection(updateFrom(t, s, { data: { k: 'v2' } }));
      expect(err.status).toBe(409);
      expect((await read(t)).metadata.resourceVersion).toBe(
        s.metadata.resourceVersion,
      );
    },
  );

  it('verifies a successful create answer too: admission may have altered it', async () => {
    const t = setup();
    await seed(t);
    const create = t.gateway.create.bind(t.gateway);
    t.gateway.create = async (type, ns, object) => {
      const mutated = {
        ...object,
        data: { ...(object as NativeSecret).data, injected: 'eA==' },
      };
      return create(type, ns, mutated as typeof object);
    };
    const err = await rejection(update(t, { k: 'v2' }));
    expect(err.status).toBe(409);
    expect((await read(t)).data).toEqual({ k: textToBase64('v1') });
  });

  it('blocks with 409 when the counter is behind newer retained history', async () => {
    const t = setup();
    const current = await seed(t, 'v2', 'v3');
    t.gateway.put(
      SECRETS,
      NS,
      withAnnotations(current, { 'krypton.io/version': '1' }),
    );
    // v1 is taken by another revision: the source conflict comes first.
    expect((await rejection(update(t, { k: 'x' }))).status).toBe(409);
    const [v1] = snapshots(t).filter(s => s.metadata.name!.endsWith('-v1'));
    await t.gateway.delete(SECRETS, NS, v1.metadata.name!, {
      uid: v1.metadata.uid!,
      resourceVersion: v1.metadata.resourceVersion!,
    });
    const err = await rejection(update(t, { k: 'x' }));
    expect(err.status).toBe(409);
    expect(err.message).toMatch(/behind its retained history/);
  });
});

describe('writers that read before another write', () => {
  it('get the stale-revision 409, not an operator review, when history moved past their read', async () => {
    const t = setup();
    const s = await seed(t);
    const create = t.gateway.create.bind(t.gateway);
    let raced = false;
    t.gateway.create = async (type, ns, object) => {
      if (!raced) {
        raced = true;
        // Another writer saves v1 from the same read, then writes twice more.
        await update(t, { k: 'b1' });
        await update(t, { k: 'b2' });
      }
      return create(type, ns, object);
    };
    const err = await rejection(updateFrom(t, s, { data: { k: 'late' } }));
    expect(err.status).toBe(409);
    expect(err.message).toBe(
      'The Secret has changed since it was loaded. Reload it and re-apply your changes.',
    );
    expect((await read(t)).data).toEqual({ k: textToBase64('b2') });
  });
});

describe('retention', () => {
  it('prunes the oldest snapshots of that UID down to the limit, by app counter', async () => {
    const t = setup(2);
    await seed(t);
    const pruned: number[] = [];
    for (const v of ['v2', 'v3', 'v4', 'v5'])
      pruned.push((await update(t, { k: v })).archive!.pruned);
    expect(pruned).toEqual([0, 0, 1, 1]);
    expect(snapshotVersions(t)).toEqual(['3', '4']);
  });

  it('blocks the live write with 503 and counts when a finalizer holds an old snapshot', async () => {
    const t = setup(1);
    const before = await seed(t, 'v2');
    t.gateway.put(SECRETS, NS, held(snapshots(t)[0]));
    const err = await rejection(update(t, { k: 'v3' }));
    expect(err.status).toBe(503);
    expect(err.toEnvelope()).toEqual({
      error: expect.stringContaining('1 pending'),
      history: { confirmedAbsent: 0, pending: 1, failed: 0 },
    });
    expect((await read(t)).metadata.resourceVersion).toBe(
      before.metadata.resourceVersion,
    );
  });

  it('answers 503 when retention meets a snapshot changed since the inventory, and never retries with a revision nobody validated', async () => {
    const t = setup(1);
    const before = await seed(t, 'v2');
    touchSnapshotsAfterEachInventory(t);
    t.gateway.calls.length = 0;
    const err = await rejection(update(t, { k: 'v3' }));
    expect(err).toBeInstanceOf(KryptonError);
    // Spec, Retention: "other failures ... return 503 with confirmed-absent/pending/failed counts
    // and block the live replacement".
    expect(err.code).toBe('unavailable');
    expect(err.history).toEqual({ confirmedAbsent: 0, pending: 0, failed: 1 });
    expect(t.gateway.calls.filter(c => c.startsWith('delete'))).toHaveLength(1);
    expect(snapshotVersions(t)).toEqual(['1', '2']);
    expect((await read(t)).data).toEqual(before.data);
  });

  it('never lists, prunes or restores legacy, retagged, malformed or foreign records', async () => {
    const t = setup(1);
    const s = await seed(t);
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
    await update(t, { k: 'v2' });
    await update(t, { k: 'v3' });
    expect(await listed(t)).toEqual([2]);
    expect(await read(t, 'a-v1')).toMatchObject({
      metadata: { uid: legacy.metadata.uid },
    });
    expect(await read(t, retagged.metadata.name!)).toBeTruthy();
    const current = await read(t);
    expect((await rejection(restore(t, 7, current))).status).toBe(404);
    const deleted = await remove(t, current, false);
    expect(deleted.result).toEqual({ status: 'deleted', history: 'cleaned' });
    expect(await read(t, 'a-v1')).toBeTruthy();
    expect(await read(t, retagged.metadata.name!)).toBeTruthy();
  });
});

describe('cleanup that meets failures', () => {
  it.each([
    { limit: 1, pruned: 1, kept: [2] },
    { limit: 2, pruned: 0, kept: [2, 1] },
  ])(
    'with a limit of $limit, a restore prunes oldest-first and keeps the state it rolled back from',
    async ({ limit, pruned, kept }) => {
      const t = setup(limit);
      const live = await seed(t, 'v2');
      const out = await restore(t, 1, live);
      expect(out.secret.data).toEqual({ k: textToBase64('v1') });
      expect(out.archive).toMatchObject({ archivedVersion: 2, pruned });
      expect(await listed(t)).toEqual(kept);
      const from = await t.versioned.version(NS, 'a', 2, allow);
      expect(from.data).toEqual({ k: 'v2' });
    },
  );

  it('stops pruning at the first failure, so no newer snapshot goes before an older one', async () => {
    const t = setup(5);
    const live = await seed(t, 'v2', 'v3', 'v4');
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
    await seed(t, 'v2');
    const deleteObject = t.gateway.delete.bind(t.gateway);
    t.gateway.delete = async (type, ns, name, pre) => {
      await deleteObject(type, ns, name, pre);
      throw new KubeApiError(0, 'Network');
    };
    const out = await update(t, { k: 'v3' });
    expect(out.archive?.pruned).toBe(1);
  });

  it('tells how far a delete cleanup got when a later step fails', async () => {
    const t = setup();
    const live = await seed(t, 'v2', 'v3');
    const listMetadata = t.gateway.listMetadata.bind(t.gateway);
    let lists = 0;
    t.gateway.listMetadata = async (type, ns, request) => {
      if (++lists === 2) throw new KubeApiError(503, 'ServiceUnavailable');
      return listMetadata(type, ns, request);
    };
    const err = await rejection(remove(t, live, false));
    expect(err.toEnvelope()).toEqual({
      error: "Krypton could not read the Secret's history. Try again later.",
      history: { confirmedAbsent: 2, pending: 0, failed: 0 },
    });
    expect(await read(t)).toBeTruthy();
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
    await update(t, { k: 'two' });
    await update(t, { k: 'three' });
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
    await update(t, { k: 'two' });
    const edited = t.gateway.put(
      SECRETS,
      NS,
      withMetadata(
        withAnnotations(await read(t), {
          'krypton.io/owners': 'user:default/bob',
          'krypton.io/description': 'now',
        }),
        { finalizers: ['example.com/keep'] },
      ),
    );
    const out = await restore(t, 1, edited);
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
    expect(await listed(t)).toEqual([2, 1]);
  });

  it.each<{
    name: string;
    attempt: (t: Setup, a: NativeSecret) => Promise<unknown>;
    refusal: Partial<Pick<KryptonError, 'status' | 'message'>>;
  }>([
    {
      name: 'from a stale revision',
      attempt: t => restore(t, 1, 'old'),
      refusal: { status: 409 },
    },
    {
      name: 'of a version missing from the history',
      attempt: (t, a) => restore(t, 9, a),
      refusal: { message: "That version is not in this Secret's history." },
    },
    {
      name: 'of a Secret pending deletion',
      attempt: (t, a) =>
        restore(
          t,
          1,
          t.gateway.put(
            SECRETS,
            NS,
            withMetadata(a, {
              deletionTimestamp: AT.toISOString(),
              finalizers: ['x/y'],
            }),
          ),
        ),
      refusal: { status: 409, message: expect.stringMatching(/being deleted/) },
    },
    {
      name: 'of an immutable Secret',
      attempt: async t => restore(t, 1, await read(t, 'frozen'), 'frozen'),
      refusal: { status: 404 },
    },
  ])(
    'refuses a restore $name before saving anything',
    async ({ attempt, refusal }) => {
      const t = setup();
      put(t.gateway, 'frozen', { k: textToBase64('v1') }, { immutable: true });
      const a = await seed(t, 'v2');
      expect(await rejection(attempt(t, a))).toMatchObject(refusal);
      expect(snapshots(t)).toHaveLength(1);
    },
  );

  it('allows a byte-identical restore of an immutable Secret and refuses a data change with 422', async () => {
    const t = setup();
    const current = await seed(t, 'v2', 'v1');
    const frozen = t.gateway.put(SECRETS, NS, { ...current, immutable: true });
    t.gateway.calls.length = 0;
    const same = await restore(t, 1, frozen);
    expect(same.dataChanged).toBe(false);
    expect(t.gateway.calls.filter(c => !c.startsWith('get'))).toEqual([]);
    const err = await rejection(restore(t, 2, frozen));
    expect(err.status).toBe(422);
    expect(snapshots(t)).toHaveLength(2);
  });
});

describe('delete', () => {
  it('cleans up history, rechecking the live Secret before each delete, then deletes it', async () => {
    const t = setup();
    const live = await seed(t, 'v2', 'v3');
    t.gateway.calls.length = 0;
    const out = await remove(t, live, false);
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
      'mergePatch secrets a',
      'delete secrets a',
    ]);
    expect(snapshots(t)).toEqual([]);
  });

  it('marks the live Secret for the recorder just before its delete, at the checked revision', async () => {
    const t = setup();
    const live = await seed(t, 'v2', 'v3');
    // Finalizers keep the object, so the mark that the delete wrote can be read after it.
    const heldLive = t.gateway.put(SECRETS, NS, held(live));
    await remove(t, heldLive, false);
    const after = await read(t);
    expect(after.metadata.annotations?.['krypton.io/history-cleaned-at']).toBe(
      AT.toISOString(),
    );
    expect(after.metadata.uid).toBe(live.metadata.uid);
    expect(after.metadata.resourceVersion).not.toBe(
      heldLive.metadata.resourceVersion,
    );
  });

  it('writes no mark when history is kept: the recorder then keeps the final state', async () => {
    const t = setup();
    const live = await seed(t, 'v2', 'v3');
    t.gateway.calls.length = 0;
    await remove(t, live, true);
    expect(t.gateway.calls.filter(c => c.startsWith('mergePatch'))).toEqual([]);
  });

  it('answers 409 and keeps the live Secret when it changes between the last check and the mark', async () => {
    const t = setup();
    const live = await seed(t, 'v2', 'v3');
    const mergePatch = t.gateway.mergePatch.bind(t.gateway);
    t.gateway.mergePatch = async (...args) => {
      const current = await read(t);
      t.gateway.put(SECRETS, NS, {
        ...current,
        metadata: {
          ...current.metadata,
          labels: { ...current.metadata.labels, moved: 'yes' },
        },
      });
      return mergePatch(...args);
    };
    const err = await rejection(remove(t, live, false));
    expect(err.status).toBe(409);
    expect(err.message).toBe(messages.staleRevision);
    const after = await read(t);
    expect(after.metadata.uid).toBe(live.metadata.uid);
    expect(
      after.metadata.annotations?.['krypton.io/history-cleaned-at'],
    ).toBeUndefined();
  });

  it('answers 409 when a snapshot changed after the inventory, and deletes nothing more', async () => {
    const t = setup();
    const live = await seed(t, 'v2', 'v3');
    touchSnapshotsAfterEachInventory(t);
    t.gateway.calls.length = 0;
    const err = await rejection(remove(t, live, false));
    // Spec, Delete: "snapshot precondition conflicts return 409".
    expect(err.code).toBe('conflict');
    expect(err.message).toBe(messages.snapshotChanged);
    expect(t.gateway.calls.filter(c => c.startsWith('delete'))).toHaveLength(1);
    expect(snapshots(t)).toHaveLength(2);
    expect((await read(t)).metadata.uid).toBe(live.metadata.uid);
  });

  it('refuses a stale revision before touching history', async () => {
    const t = setup();
    await seed(t, 'v2', 'v3');
    t.gateway.calls.length = 0;
    const err = await rejection(remove(t, 'old', false));
    expect(err.status).toBe(409);
    expect(t.gateway.calls).toEqual(['getMetadata secrets a']);
  });

  it('keeps history when asked, and a recreated name starts a separate history', async () => {
    const t = setup();
    const live = await seed(t, 'v2', 'v3');
    const out = await remove(t, live, true);
    expect(out.result).toEqual({ status: 'deleted', history: 'kept' });
    expect(snapshots(t)).toHaveLength(2);
    put(t.gateway, 'a', { k: textToBase64('new life') });
    expect(await t.versioned.versions(NS, 'a', allow)).toEqual([]);
    const again = await update(t, { k: 'next' });
    expect(again.archive?.archivedVersion).toBe(1);
    expect(snapshots(t)).toHaveLength(3);
  });

  it('answers pending while finalizers hold the live Secret', async () => {
    const t = setup();
    const live = await seed(t, 'v2', 'v3');
    const out = await remove(t, t.gateway.put(SECRETS, NS, held(live)), false);
    expect(out.result).toEqual({ status: 'pending', history: 'cleaned' });
  });

  it('answers 503 with counts and keeps the live Secret when a snapshot cannot go', async () => {
    const t = setup();
    const live = await seed(t, 'v2', 'v3');
    t.gateway.put(SECRETS, NS, held(snapshots(t)[0]));
    const err = await rejection(remove(t, live, false));
    expect(err.status).toBe(503);
    expect(err.toEnvelope().history).toEqual({
      confirmedAbsent: 1,
      pending: 1,
      failed: 0,
    });
    expect(await read(t)).toBeTruthy();
  });

  it('stops with 409 when the live Secret changes during cleanup', async () => {
    const t = setup();
    const live = await seed(t, 'v2', 'v3');
    const deleteObject = t.gateway.delete.bind(t.gateway);
    let touched = false;
    t.gateway.delete = async (type, ns, name, pre) => {
      const out = await deleteObject(type, ns, name, pre);
      if (!touched) {
        touched = true;
        t.gateway.put(SECRETS, NS, await read(t));
      }
      return out;
    };
    const err = await rejection(remove(t, live, false));
    expect(err.status).toBe(409);
    expect(await read(t)).toBeTruthy();
  });
});

describe('a proof of the user’s own live write (hybrid mode)', () => {
  it.each<{
    name: string;
    attempt: (t: Setup, live: NativeSecret) => Promise<unknown>;
  }>([
    { name: 'an update', attempt: t => update(t, { k: 'v3' }) },
    { name: 'a restore', attempt: (t, live) => restore(t, 1, live) },
    { name: 'a delete', attempt: (t, live) => remove(t, live, false) },
  ])(
    'comes before any history change of $name, and a refusal leaves history as it was',
    async ({ attempt }) => {
      const t = setup(1, true);
      const live = await seed(t, 'v2');
      t.gateway.calls.length = 0;
      t.gateway.dryRunDenied.add('replace');
      t.gateway.dryRunDenied.add('delete');
      expect((await rejection(attempt(t, live))).code).toBe('forbidden');
      expect(t.gateway.calls.filter(c => !/^(get|dryRun)/.test(c))).toEqual([]);
      expect(snapshots(t)).toHaveLength(1);
      expect((await read(t)).data).toEqual(live.data);
    },
  );

  it('runs once per write when allowed, before the snapshot is saved', async () => {
    const t = setup(20, true);
    await seed(t);
    t.gateway.calls.length = 0;
    await update(t, { k: 'v2' });
    // The helper reads the Secret first, then the route reads it through the gate.
    expect(t.gateway.calls.slice(2, 4)).toEqual([
      'dryRunReplace secrets a',
      `create secrets ${snapshots(t)[0].metadata.name}`,
    ]);
    // A metadata-only edit saves nothing: the user's own write is the only change.
    t.gateway.calls.length = 0;
    await updateFrom(t, await read(t), { description: 'd' });
    expect(t.gateway.calls.some(c => c.startsWith('dryRun'))).toBe(false);
  });
});

describe('one record validation', () => {
  async function forged(change: (s: NativeSecret) => void) {
    const t = setup(2);
    await seed(t, 'v2');
    const copy = JSON.parse(JSON.stringify(snapshots(t)[0])) as NativeSecret;
    change(copy);
    t.gateway.put(SECRETS, NS, copy);
    return t;
  }

  it.each<{ name: string; change: (s: NativeSecret) => void }>([
    {
      name: 'history-of names another Secret',
      change: s => {
        s.metadata.annotations!['krypton.io/history-of'] = 'b';
      },
    },
    {
      name: 'it is not Opaque',
      change: s => {
        s.type = 'example.com/x';
      },
    },
  ])('a record is ignored on every path when $name', async ({ change }) => {
    const t = await forged(change);
    expect(await t.versioned.versions(NS, 'a', allow)).toEqual([]);
    const err = await rejection(restore(t, 1, await read(t)));
    expect(err.code).toBe('not_found');
    for (const v of ['v3', 'v4']) await update(t, { k: v });
    await remove(t, await read(t), false);
    expect(snapshotVersions(t)).toEqual(['1']);
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
    const before = await seed(t);
    const listMetadata = t.gateway.listMetadata.bind(t.gateway);
    t.gateway.listMetadata = async (type, ns, request) => {
      for (const snap of snapshots(t)) {
        snap.metadata.finalizers = ['example.com/hold'];
        snap.metadata.deletionTimestamp = AT.toISOString();
        t.gateway.put(SECRETS, NS, snap);
      }
      return listMetadata(type, ns, request);
    };
    const err = await rejection(update(t, { k: 'v2' }));
    expect(err.code).toBe('conflict');
    expect(err.message).toBe(messages.archiveChanged);
    expect((await read(t)).data).toEqual(before.data);
  });

  async function withExactSnapshot(keys: string | undefined) {
    const t = setup();
    const live = await seed(t);
    const exact = await buildSnapshot(live, 1, kryptonKeys('krypton.io'), {
      by: 'user:default/tool',
      at: AT.toISOString(),
    });
    if (keys === undefined)
      delete exact.metadata.annotations!['krypton.io/keys'];
    else exact.metadata.annotations!['krypton.io/keys'] = keys;
    t.gateway.put(SECRETS, NS, exact);
    return update(t, { k: 'v2' });
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
  it.each<{
    name: string;
    gate: (t: Setup, live: NativeSecret) => Promise<unknown>;
    calls: string[];
  }>([
    {
      name: 'the version list',
      gate: t => t.versioned.versions(NS, 'a', allow),
      calls: ['getMetadata secrets a', 'listMetadata secrets'],
    },
    {
      name: 'a delete',
      gate: (t, live) => remove(t, live, true),
      calls: [
        'getMetadata secrets a',
        'getMetadata secrets a',
        'delete secrets a',
      ],
    },
  ])(
    'read only the metadata of the live Secret for $name',
    async ({ gate, calls }) => {
      const t = setup();
      const live = await seed(t, 'v2');
      t.gateway.calls.length = 0;
      await gate(t, live);
      expect(t.gateway.calls).toEqual(calls);
    },
  );

  it.each([
    { proveWrites: false, calls: ['getMetadata secrets a'] },
    { proveWrites: true, calls: ['get secrets a', 'dryRunReplace secrets a'] },
  ])(
    'restart reads the whole Secret only where its dry run needs it (proveWrites: $proveWrites)',
    async ({ proveWrites, calls }) => {
      const t = setup(20, proveWrites);
      await seed(t);
      t.gateway.calls.length = 0;
      const live = await t.live.gateRestart(NS, 'a', allow);
      expect(t.gateway.calls).toEqual(calls);
      expect(live.data === undefined).toBe(!proveWrites);
    },
  );
});
