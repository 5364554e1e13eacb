import { keyDiff } from '../keyDiff';
import { revealedOnly, unchangedDiff } from './changeDiff';

describe('unchangedDiff', () => {
  it('keeps every key unchanged, sorted, binary keys as binary, without values', () => {
    expect(
      unchangedDiff({ keys: ['b', 'a', 'bin', 'a'], binaryKeys: ['bin'] }),
    ).toEqual({
      entries: [
        { key: 'a', change: 'unchanged', kind: 'text' },
        { key: 'b', change: 'unchanged', kind: 'text' },
        { key: 'bin', change: 'unchanged', kind: 'binary' },
      ],
      valuesCompared: true,
      counts: { added: 0, removed: 0, changed: 0, unchanged: 3, present: 0 },
    });
  });

  it('carries no text even when the side has values', () => {
    const diff = unchangedDiff({
      keys: ['token'],
      binaryKeys: [],
      values: { data: { token: 'hunter2' }, binaryData: {} },
    });
    expect(JSON.stringify(diff)).not.toContain('hunter2');
  });
});

describe('revealedOnly', () => {
  const diff = keyDiff(
    {
      keys: ['kept', 'gone', 'changed', '__proto__'],
      binaryKeys: [],
      values: {
        data: {
          kept: 'k',
          gone: 'old-gone',
          changed: 'old',
          ['__proto__']: 'p',
        },
        binaryData: {},
      },
    },
    {
      keys: ['kept', 'changed', 'fresh', '__proto__'],
      binaryKeys: [],
      values: {
        data: {
          kept: 'k',
          changed: 'new',
          fresh: 'new-fresh',
          ['__proto__']: 'q',
        },
        binaryData: {},
      },
    },
  );

  it('strips every text when no key is named, and keeps the comparison', () => {
    const masked = revealedOnly(diff, []);
    expect(masked.valuesCompared).toBe(true);
    expect(masked.counts).toEqual(diff.counts);
    expect(masked.entries.map(e => [e.key, e.change])).toEqual(
      diff.entries.map(e => [e.key, e.change]),
    );
    for (const entry of masked.entries) {
      expect(entry).not.toHaveProperty('before');
      expect(entry).not.toHaveProperty('after');
    }
  });

  it('keeps the texts of the named keys only, whichever sides they are on', () => {
    const shown = revealedOnly(diff, ['changed', 'fresh', 'gone']);
    const byKey = Object.fromEntries(shown.entries.map(e => [e.key, e]));
    expect(byKey.changed).toEqual({
      key: 'changed',
      change: 'changed',
      kind: 'text',
      before: 'old',
      after: 'new',
    });
    expect(byKey.fresh).toEqual({
      key: 'fresh',
      change: 'added',
      kind: 'text',
      after: 'new-fresh',
    });
    expect(byKey.gone).toEqual({
      key: 'gone',
      change: 'removed',
      kind: 'text',
      before: 'old-gone',
    });
    expect(byKey.kept).toEqual({
      key: 'kept',
      change: 'unchanged',
      kind: 'text',
    });
  });

  it('treats "__proto__" as an ordinary key name', () => {
    const entry = (keys: string[]) =>
      revealedOnly(diff, keys).entries.find(e => e.key === '__proto__');
    expect(entry([])).toEqual({
      key: '__proto__',
      change: 'changed',
      kind: 'text',
    });
    expect(entry(['__proto__'])).toMatchObject({ before: 'p', after: 'q' });
  });
});
