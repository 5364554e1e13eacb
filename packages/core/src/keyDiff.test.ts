import { DiffSide, keyDiff } from './keyDiff';

function side(
  data: Record<string, string>,
  binaryData: Record<string, string> = {},
): DiffSide {
  return {
    keys: [...Object.keys(data), ...Object.keys(binaryData)],
    binaryKeys: Object.keys(binaryData),
    values: { data, binaryData },
  };
}

const byKey = (diff: ReturnType<typeof keyDiff>, key: string) =>
  diff.entries.find(e => e.key === key);

describe('keyDiff', () => {
  it('finds added, removed, changed and unchanged text keys, sorted by key', () => {
    const diff = keyDiff(
      side({ kept: 'same', old: 'gone', password: 'v1' }),
      side({ kept: 'same', password: 'v2', fresh: 'new' }),
    );
    expect(diff.valuesCompared).toBe(true);
    expect(diff.entries.map(e => [e.key, e.change])).toEqual([
      ['fresh', 'added'],
      ['kept', 'unchanged'],
      ['old', 'removed'],
      ['password', 'changed'],
    ]);
    expect(byKey(diff, 'fresh')).toEqual({
      key: 'fresh',
      change: 'added',
      kind: 'text',
      after: 'new',
    });
    expect(byKey(diff, 'old')).toEqual({
      key: 'old',
      change: 'removed',
      kind: 'text',
      before: 'gone',
    });
    expect(byKey(diff, 'password')).toMatchObject({
      before: 'v1',
      after: 'v2',
    });
    expect(diff.counts).toEqual({
      added: 1,
      removed: 1,
      changed: 1,
      unchanged: 1,
      present: 0,
    });
  });

  it('compares binary keys by their decoded bytes and never carries their values', () => {
    const diff = keyDiff(
      side({}, { same: 'AAEC/w==', differs: 'AAEC/w==', dropped: 'AP8=' }),
      side({}, { same: 'AAEC/w==', differs: 'AAEC/g==', added: '/w==' }),
    );
    expect(diff.entries).toEqual([
      { key: 'added', change: 'added', kind: 'binary' },
      { key: 'differs', change: 'changed', kind: 'binary' },
      { key: 'dropped', change: 'removed', kind: 'binary' },
      { key: 'same', change: 'unchanged', kind: 'binary' },
    ]);
  });

  it('counts identical bytes as unchanged even when one side holds them as text', () => {
    // "hi" as UTF-8 is aGk=; the same bytes are the same value whichever map holds them.
    const diff = keyDiff(side({ note: 'hi' }), side({}, { note: 'aGk=' }));
    expect(diff.entries).toEqual([
      { key: 'note', change: 'unchanged', kind: 'binary' },
    ]);
    const changed = keyDiff(side({ note: 'hi' }), side({}, { note: 'AP8=' }));
    expect(changed.entries[0]).toEqual({
      key: 'note',
      change: 'changed',
      kind: 'binary',
    });
  });

  it('compares keys only when one side has no values, and says so', () => {
    const diff = keyDiff(
      { keys: ['password', 'old'], binaryKeys: [] },
      side({ password: 'v2', fresh: 'new' }),
    );
    expect(diff.valuesCompared).toBe(false);
    expect(diff.entries.map(e => [e.key, e.change])).toEqual([
      ['fresh', 'added'],
      ['old', 'removed'],
      ['password', 'present'],
    ]);
    // Only the side that is known carries its text.
    expect(byKey(diff, 'password')).toEqual({
      key: 'password',
      change: 'present',
      kind: 'text',
      after: 'v2',
    });
    expect(diff.counts.present).toBe(1);
  });

  it('treats __proto__ and constructor as ordinary keys', () => {
    const from = JSON.parse('{"__proto__":"a","constructor":"b"}') as Record<
      string,
      string
    >;
    const to = JSON.parse('{"__proto__":"a2"}') as Record<string, string>;
    const diff = keyDiff(side(from), side(to));
    expect(diff.entries.map(e => [e.key, e.change])).toEqual([
      ['__proto__', 'changed'],
      ['constructor', 'removed'],
    ]);
  });

  it('is empty for two empty sides', () => {
    const diff = keyDiff(side({}), side({}));
    expect(diff.entries).toEqual([]);
    expect(diff.valuesCompared).toBe(true);
  });
});
