import fc from 'fast-check';
import { parseVersionCounter } from './annotations';
import { evaluateAccess } from './access';
import {
  base64DecodedLength,
  bytesToBase64,
  isWellFormedText,
  losslessText,
  textToBase64,
} from './encoding';
import { MAX_SECRET_BYTES } from './limits';
import {
  estimateSecretSize,
  exceedsDecodedBound,
  exceedsEstimate,
} from './size';
import {
  isSnapshotName,
  validateDataKey,
  validateSecretName,
} from './validation';

const label = fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,20}[a-z0-9])?$/);

describe('names and keys', () => {
  it('accepts DNS subdomains up to 253 characters', () => {
    fc.assert(
      fc.property(fc.array(label, { minLength: 1, maxLength: 8 }), parts => {
        const name = parts.join('.');
        fc.pre(name.length <= 253);
        expect(validateSecretName(name)).toBe(name);
      }),
    );
  });

  it('rejects uppercase, underscores, edge dashes and names over 253 characters', () => {
    for (const name of [
      'Secret',
      'a_b',
      '-a',
      'a-',
      'a..b',
      '',
      'a'.repeat(254),
    ]) {
      expect(() => validateSecretName(name)).toThrow(/Invalid Secret name/);
    }
  });

  it('accepts Kubernetes data keys and rejects the rest', () => {
    for (const key of [
      'a',
      'tls.crt',
      '.dotfile',
      '__proto__',
      'constructor',
      'A-b_c.d',
    ]) {
      expect(() => validateDataKey(key)).not.toThrow();
    }
    for (const key of ['', '.', '..', 'a b', 'a/b', 'ä', 'k'.repeat(254)]) {
      expect(() => validateDataKey(key)).toThrow(/Invalid key/);
    }
  });

  it('recognizes snapshot storage names by prefix only', () => {
    expect(isSnapshotName('krypton-h-abc-v1')).toBe(true);
    expect(isSnapshotName('krypton-history')).toBe(false);
    expect(isSnapshotName('my-krypton-h-x')).toBe(false);
  });
});

describe('version counters', () => {
  it('treats a missing counter and the old 0 as version 1', () => {
    expect(parseVersionCounter(undefined)).toEqual({ ok: true, version: 1 });
    expect(parseVersionCounter('0')).toEqual({ ok: true, version: 1 });
  });

  it('reads canonical positive integers that can still be incremented', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER - 1 }),
        n => {
          fc.pre(String(n).length <= 16);
          expect(parseVersionCounter(String(n))).toEqual({
            ok: true,
            version: n,
          });
        },
      ),
    );
  });

  it('rejects malformed and exhausted counters', () => {
    for (const raw of [
      '',
      '-1',
      '01',
      '1.0',
      ' 1',
      'v1',
      '1e3',
      String(Number.MAX_SAFE_INTEGER),
    ]) {
      expect(parseVersionCounter(raw)).toEqual({ ok: false });
    }
  });
});

describe('text and binary values', () => {
  it('round-trips every well-formed string through base64 losslessly', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), s => {
        expect(losslessText(textToBase64(s))).toBe(s);
      }),
    );
  });

  it('keeps a BOM', () => {
    expect(losslessText(textToBase64('\ufeffx'))).toBe('\ufeffx');
  });

  it('classifies bytes that are not valid UTF-8 as binary', () => {
    expect(
      losslessText(bytesToBase64(new Uint8Array([0xc3, 0x28]))),
    ).toBeUndefined();
    expect(losslessText(bytesToBase64(new Uint8Array([0xff])))).toBeUndefined();
  });

  it('computes decoded lengths without decoding', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), bytes => {
        expect(base64DecodedLength(bytesToBase64(bytes))).toBe(bytes.length);
      }),
    );
  });

  it('flags lone surrogates as not well-formed', () => {
    expect(isWellFormedText('a\ud800b')).toBe(false);
    expect(isWellFormedText('\udc00')).toBe(false);
    expect(isWellFormedText('😀')).toBe(true);
  });
});

describe('size guard', () => {
  it('estimates UTF-8 bytes of keys and values times 1.4', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), fc.string()),
        text => {
          const bytes = Object.entries(text).reduce(
            (n, [k, v]) => n + Buffer.byteLength(k) + Buffer.byteLength(v),
            0,
          );
          expect(estimateSecretSize(text)).toBe(Math.ceil(bytes * 1.4));
        },
      ),
    );
  });

  it('puts the estimate limit at 1 MiB', () => {
    const under = Math.floor(MAX_SECRET_BYTES / 1.4) - 1;
    expect(exceedsEstimate({ k: 'x'.repeat(under - 1) })).toBe(false);
    expect(exceedsEstimate({ k: 'x'.repeat(under + 2) })).toBe(true);
  });

  it('bounds raw data by decoded bytes only', () => {
    const exactly = bytesToBase64(new Uint8Array(MAX_SECRET_BYTES));
    expect(exceedsDecodedBound({ a: exactly })).toBe(false);
    expect(exceedsDecodedBound({ a: exactly, b: 'AA==' })).toBe(true);
  });
});

describe('access rules', () => {
  const rules = {
    owners: ['user:default/olga'],
    editors: ['group:default/devs'],
    viewers: ['user:default/vic'],
  };
  const as = (ref: string, groups: string[] = []) => ({
    userEntityRef: ref,
    ownershipEntityRefs: [ref, ...groups],
  });

  it('grants owners everything, editors edits, viewers reads', () => {
    expect(evaluateAccess(rules, as('user:default/olga'), 'delete')).toBe(
      'allow',
    );
    expect(
      evaluateAccess(
        rules,
        as('user:default/x', ['group:default/devs']),
        'update',
      ),
    ).toBe('allow');
    expect(
      evaluateAccess(
        rules,
        as('user:default/x', ['group:default/devs']),
        'delete',
      ),
    ).toBe('deny');
    expect(evaluateAccess(rules, as('user:default/vic'), 'reveal')).toBe(
      'allow',
    );
    expect(evaluateAccess(rules, as('user:default/vic'), 'update')).toBe(
      'deny',
    );
    expect(evaluateAccess(rules, as('user:default/nobody'), 'read')).toBe(
      'deny',
    );
  });

  it('compares refs case-insensitively', () => {
    expect(evaluateAccess(rules, as('User:Default/Olga'), 'delete')).toBe(
      'allow',
    );
  });

  it('lets admins pass and leaves Secrets without rules to the other gates', () => {
    expect(
      evaluateAccess(
        rules,
        as('user:default/a', ['group:default/admins']),
        'delete',
        ['group:default/admins'],
      ),
    ).toBe('allow');
    expect(
      evaluateAccess(
        { owners: [], editors: [], viewers: [] },
        as('user:default/a'),
        'delete',
      ),
    ).toBe('no-rules');
  });
});
