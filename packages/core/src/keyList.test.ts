import fc from 'fast-check';
import { KryptonError, messages } from './errors';
import {
  MAX_REQUESTED_KEYS,
  parseQuery,
  parseSecretKeyList,
  validateDataKey,
} from './validation';

const MESSAGE =
  'Query parameter "keys" must be a comma-separated list of at most 1,000 different Secret keys.';

/** The refusal of a list, or undefined when it is read. */
function refusal(raw: string): KryptonError | undefined {
  try {
    parseSecretKeyList(raw);
    return undefined;
  } catch (err) {
    if (err instanceof KryptonError) return err;
    throw err;
  }
}

const isKey = (key: string) => {
  try {
    validateDataKey(key);
    return true;
  } catch {
    return false;
  }
};

describe('parseSecretKeyList', () => {
  it('has the fixed message, whose bound is the one enforced', () => {
    expect(messages.invalidKeyList).toBe(MESSAGE);
    expect(MAX_REQUESTED_KEYS).toBe(1000);
  });

  it('reads comma-separated keys in the order given', () => {
    expect(parseSecretKeyList('password')).toEqual(['password']);
    expect(parseSecretKeyList('username,password,tls.crt')).toEqual([
      'username',
      'password',
      'tls.crt',
    ]);
    // Names that are special to JavaScript objects are ordinary keys.
    expect(
      parseSecretKeyList('__proto__,constructor,toString,.dotfile,A-b_c.d'),
    ).toEqual(['__proto__', 'constructor', 'toString', '.dotfile', 'A-b_c.d']);
    expect(parseSecretKeyList('k'.repeat(253))).toEqual(['k'.repeat(253)]);
  });

  it('reads exactly MAX_REQUESTED_KEYS keys, of the longest length too, and refuses one more', () => {
    const keys = Array.from({ length: MAX_REQUESTED_KEYS }, (_, i) => `k${i}`);
    expect(parseSecretKeyList(keys.join(','))).toEqual(keys);
    expect(refusal([...keys, 'one-more'].join(','))?.message).toBe(MESSAGE);

    // The longest valid list: 1,000 keys of 253 characters.
    const longest = Array.from({ length: MAX_REQUESTED_KEYS }, (_, i) =>
      `${i}`.padStart(253, 'k'),
    );
    expect(parseSecretKeyList(longest.join(','))).toHaveLength(
      MAX_REQUESTED_KEYS,
    );
    expect(refusal(`${longest.join(',')},x`)?.message).toBe(MESSAGE);
  });

  it.each([
    ['an empty list', ''],
    ['an empty entry', 'a,,b'],
    ['a leading comma', ',a'],
    ['a trailing comma', 'a,'],
    ['a lone comma', ','],
    ['a key with "/"', 'a/b'],
    ['a key with a space', 'a b'],
    ['a blank around a key', 'a, b'],
    ['"."', '.'],
    ['".."', '..'],
    ['a key that starts with ".."', '..data'],
    ['a non-ASCII key', 'ä'],
    ['a NUL', 'a\u0000'],
    ['a key of 254 characters', 'k'.repeat(254)],
    ['a repeated key', 'a,b,a'],
    ['a repeated __proto__', '__proto__,__proto__'],
    ['a percent sign (the list is read decoded)', 'a%2Cb'],
  ])('refuses %s with the fixed 400', (_label, raw) => {
    const err = refusal(raw);
    expect(err?.status).toBe(400);
    expect(err?.toEnvelope()).toEqual({ error: MESSAGE });
  });

  it('refuses hostile lists with the same fixed 400, in time linear in their length', () => {
    // No timing assertion: each of these is refused by the length bound or at the first fault.
    for (const raw of [
      ','.repeat(200_000),
      'k'.repeat(1024 * 1024),
      `${'a,'.repeat(100_000)}a`,
      `${'k'.repeat(253)},`.repeat(2_000),
      'a,'.repeat(1_001).slice(0, -1),
    ]) {
      expect(refusal(raw)?.toEnvelope()).toEqual({ error: MESSAGE });
    }
  });

  it('reads a list exactly when every entry is a distinct valid key and there are at most 1,000', () => {
    const entry = fc.oneof(
      fc.constantFrom('a', 'b', 'tls.crt', '__proto__', '.', '..x', ''),
      fc.stringMatching(/^[-._a-zA-Z0-9]{1,6}$/),
      fc.string({ maxLength: 6 }).filter(s => !s.includes(',')),
    );
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 8 }), entries => {
        const valid =
          entries.every(isKey) && new Set(entries).size === entries.length;
        const raw = entries.join(',');
        const outcome = refusal(raw)?.message ?? parseSecretKeyList(raw);
        expect(outcome).toEqual(valid ? entries : MESSAGE);
      }),
    );
  });
});

describe('parseQuery with a key list', () => {
  const schema = { keys: 'keyList' } as const;

  it('reads the list and keeps the other rules of queries', () => {
    const parsed: { keys?: string[] } = parseQuery(
      { keys: 'password,username' },
      schema,
    );
    expect(parsed).toEqual({ keys: ['password', 'username'] });
    expect(parseQuery({}, schema)).toEqual({});
    expect(() => parseQuery({ keys: '' }, schema)).toThrow(MESSAGE);
    expect(() => parseQuery({ keys: 'a,,b' }, schema)).toThrow(MESSAGE);
    expect(() => parseQuery({ keys: ['a', 'b'] }, schema)).toThrow(
      'Query parameter "keys" must be given once, as text.',
    );
    expect(() => parseQuery({ key: 'a' }, schema)).toThrow(
      'Unknown query parameter "key".',
    );
  });
});
