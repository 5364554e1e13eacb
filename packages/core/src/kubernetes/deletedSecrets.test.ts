import fc from 'fast-check';
import { kryptonKeys } from '../annotations';
import { KryptonError } from '../errors';
import { parseRecreateRequest } from '../validation';
import {
  DeletedLifetime,
  deletedSecretSummary,
  plannedRecreate,
  recordStandIn,
} from './deletedSecrets';
import { SnapshotRecord } from './snapshots';

const KEYS = kryptonKeys('krypton.io');
const UID = '6f1c2a3b-4d5e-4f60-8a1b-2c3d4e5f6a7b';

function record(version: number, extra: Partial<SnapshotRecord> = {}) {
  return {
    name: `krypton-h-${'0'.repeat(32)}-v${version}`,
    uid: `snap-${version}`,
    resourceVersion: String(100 + version),
    version,
    sourceUid: UID,
    sourceResourceVersion: String(10 + version),
    historyOf: 'db',
    sourceType: 'Opaque',
    snapshotAt: `2026-12-0${version}T10:00:00.000Z`,
    snapshotBy: 'user:default/alice',
    keys: ['password'],
    access: { owners: [], editors: [], viewers: [] },
    ...extra,
  } satisfies SnapshotRecord;
}

function lifetime(records: SnapshotRecord[]): DeletedLifetime {
  const newest = records[records.length - 1];
  return {
    owner: { uid: UID, name: 'db' },
    records,
    nameTaken: false,
    standIn: recordStandIn('team', newest, KEYS),
  };
}

describe('plannedRecreate', () => {
  it("takes the version's bytes, type, description and rules, managed, at version 1", () => {
    const chosen = record(2, {
      sourceType: 'example.com/custom',
      description: 'the database',
      access: {
        owners: ['user:default/alice'],
        editors: [],
        viewers: ['group:default/team-a'],
      },
    });
    const data = { blob: '/wA=', note: 'AA==' };
    const secret = plannedRecreate('team', chosen, data, KEYS);
    expect(secret).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'db',
        namespace: 'team',
        labels: { 'krypton.io/managed-by': 'krypton' },
        annotations: {
          'krypton.io/version': '1',
          'krypton.io/description': 'the database',
          'krypton.io/owners': 'user:default/alice',
          'krypton.io/viewers': 'group:default/team-a',
        },
      },
      type: 'example.com/custom',
      data,
    });
    // A new object: nothing binds it to the old lifetime.
    expect(secret.metadata.uid).toBeUndefined();
    expect(secret.metadata.resourceVersion).toBeUndefined();
  });

  it('refuses a service-account token, as every write through Krypton does', () => {
    const chosen = record(1, {
      sourceType: 'kubernetes.io/service-account-token',
    });
    expect(() => plannedRecreate('team', chosen, {}, KEYS)).toThrow(
      KryptonError,
    );
  });
});

describe('deletedSecretSummary', () => {
  it('names the deleter from the final state the recorder kept, newest version first', () => {
    const summary = deletedSecretSummary(
      lifetime([
        record(1),
        record(2, {
          finalState: true,
          snapshotBy: 'kubernetes:admin',
          snapshotVia: 'kubectl',
          description: 'last words',
        }),
      ]),
    );
    expect(summary).toMatchObject({
      name: 'db',
      uid: UID,
      type: 'Opaque',
      description: 'last words',
      deletedBy: 'kubernetes:admin',
      deletedVia: 'kubectl',
      deletedAt: '2026-12-02T10:00:00.000Z',
      nameTaken: false,
    });
    expect(summary.versions.map(v => v.version)).toEqual([2, 1]);
    expect(summary.versions[0].finalState).toBe(true);
  });

  it('says nothing of a deleter when no final state was kept', () => {
    const summary = deletedSecretSummary(lifetime([record(1), record(2)]));
    expect(summary.deletedBy).toBeUndefined();
    expect(summary.deletedAt).toBeUndefined();
    expect(summary.deletedVia).toBeUndefined();
  });
});

describe('recordStandIn', () => {
  it('is the deleted Secret as its newest version describes it, without values', () => {
    const standIn = recordStandIn(
      'team',
      record(3, {
        access: {
          owners: [],
          editors: ['user:default/bob'],
          viewers: [],
        },
      }),
      KEYS,
    );
    expect(standIn.metadata).toEqual({
      name: 'db',
      namespace: 'team',
      labels: { 'krypton.io/managed-by': 'krypton' },
      annotations: { 'krypton.io/editors': 'user:default/bob' },
    });
    expect(standIn.data).toBeUndefined();
  });
});

describe('parseRecreateRequest', () => {
  it('takes a UID and a positive version', () => {
    expect(parseRecreateRequest({ uid: UID, version: 3 })).toEqual({
      uid: UID,
      version: 3,
    });
  });

  it('refuses anything else with 400', () => {
    for (const body of [
      null,
      [],
      'x',
      { version: 1 },
      { uid: UID },
      { uid: UID, version: 0 },
      { uid: UID, version: 1.5 },
      { uid: UID, version: '1' },
      { uid: UID.toUpperCase(), version: 1 },
      { uid: `${UID}\n`, version: 1 },
      { uid: UID, version: 1, name: 'db' },
    ]) {
      expect(() => parseRecreateRequest(body)).toThrow(
        expect.objectContaining({ code: 'invalid_request' }),
      );
    }
  });

  it('refuses any other text, however long, without a hang', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 2000 }), uid => {
        try {
          parseRecreateRequest({ uid, version: 1 });
          return uid === uid.toLowerCase() && uid.length === 36;
        } catch (err) {
          return err instanceof KryptonError && err.code === 'invalid_request';
        }
      }),
    );
    expect(() =>
      parseRecreateRequest({ uid: `${'0'.repeat(1_000_000)}-`, version: 1 }),
    ).toThrow(KryptonError);
  });
});
