import { SecretListItem, SecretSummary } from './dto';
import { newestRestorable, restoreBlockOf } from './restoreBlock';

const summary: SecretSummary = {
  cluster: 'c',
  namespace: 'ns',
  name: 's',
  uid: 'u',
  resourceVersion: '7',
  type: 'Opaque',
  managed: true,
  version: 3,
  access: { owners: [], editors: [], viewers: [] },
  immutable: false,
  keys: ['a'],
  binaryKeys: [],
};

describe('restoreBlockOf', () => {
  it('offers restore on a readable, mutable Secret the user may restore', () => {
    expect(restoreBlockOf(summary, true)).toBeUndefined();
  });

  it('blocks without a live summary or without a decision', () => {
    expect(restoreBlockOf(undefined, true)).toBe('liveUnreadable');
    expect(restoreBlockOf(summary, undefined)).toBe('liveUnreadable');
  });

  it('names the Secret-side reasons before the user-side one, in the engine order', () => {
    const all = {
      ...summary,
      deletionTimestamp: '2026-01-01T00:00:00Z',
      immutable: true,
      type: 'kubernetes.io/service-account-token',
      version: null,
    };
    expect(restoreBlockOf(all, false)).toBe('pendingDeletion');
    expect(
      restoreBlockOf({ ...all, deletionTimestamp: undefined }, false),
    ).toBe('immutable');
    expect(
      restoreBlockOf(
        { ...all, deletionTimestamp: undefined, immutable: false },
        false,
      ),
    ).toBe('serviceAccountToken');
    expect(restoreBlockOf({ ...summary, version: null }, false)).toBe(
      'invalidCounter',
    );
    expect(restoreBlockOf(summary, false)).toBe('denied');
  });

  it('offers an immutable Secret from a list, which cannot know immutability', () => {
    const { immutable: _i, keys: _k, binaryKeys: _b, ...view } = summary;
    const item: SecretListItem = { ...view, keyCount: 1 };
    expect(restoreBlockOf(item, true)).toBeUndefined();
  });
});

describe('newestRestorable', () => {
  it('skips a snapshot of the live revision itself', () => {
    const items = [
      { version: 3, sourceResourceVersion: '7' },
      { version: 2, sourceResourceVersion: '5' },
    ];
    expect(newestRestorable(items, '7')?.version).toBe(2);
    expect(newestRestorable(items, '9')?.version).toBe(3);
    expect(newestRestorable(items.slice(0, 1), '7')).toBeUndefined();
  });
});
