import fc from 'fast-check';
import {
  kryptonKeys,
  parseVersionCounter,
  readAccessRules,
} from './annotations';
import { AccessPolicy, evaluateAccess, holdsAccessRole } from './access';
import {
  base64DecodedLength,
  base64ToBytes,
  bytesToBase64,
  isBase64,
  isWellFormedText,
  losslessText,
  textToBase64,
} from './encoding';
import { tryNormalizeEntityRef } from './entityRefs';
import { MAX_SECRET_BYTES } from './limits';
import {
  estimateSecretSize,
  exceedsDecodedBound,
  exceedsEstimate,
} from './size';
import {
  isSnapshotName,
  normalizeEntityRef,
  parseCreateRequest,
  parseJsonBody,
  parseQuery,
  parseUpdateRequest,
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

  it('round-trips bytes that read as text back to the same bytes', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 64 }),
          fc.string({ unit: 'binary' }).map(t => new TextEncoder().encode(t)),
        ),
        bytes => {
          const base64 = bytesToBase64(bytes);
          const text = losslessText(base64);
          fc.pre(text !== undefined);
          expect(textToBase64(text!)).toBe(base64);
        },
      ),
    );
  });

  it('accepts only canonical base64', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), bytes => {
        expect(isBase64(bytesToBase64(bytes))).toBe(true);
      }),
    );
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9+/=]{0,12}$/),
        s => !isBase64(s) || bytesToBase64(base64ToBytes(s)) === s,
      ),
    );
    for (const spelling of ['QR==', 'QUJ=', 'A===', 'QQ', 'Q Q==']) {
      expect(isBase64(spelling)).toBe(false);
    }
    expect(isBase64('QQ==')).toBe(true);
    expect(isBase64('QUI=')).toBe(true);
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

  it('puts the estimate limit at exactly 1 MiB', () => {
    // 748,982 bytes estimate to 1,048,575; one more byte estimates to 1,048,577.
    expect(estimateSecretSize({ k: 'x'.repeat(748_981) })).toBe(1_048_575);
    expect(exceedsEstimate({ k: 'x'.repeat(748_981) })).toBe(false);
    expect(estimateSecretSize({ k: 'x'.repeat(748_982) })).toBe(1_048_577);
    expect(exceedsEstimate({ k: 'x'.repeat(748_982) })).toBe(true);
    // Binary values count by their decoded bytes, so the boundary is the same.
    const bytes = (n: number) => bytesToBase64(new Uint8Array(n));
    expect(exceedsEstimate({}, { k: bytes(748_981) })).toBe(false);
    expect(exceedsEstimate({}, { k: bytes(748_982) })).toBe(true);
  });

  it('estimates valid Secrets on either side of the limit consistently with their byte count', () => {
    fc.assert(
      fc.property(fc.integer({ min: 748_900, max: 749_100 }), n => {
        expect(exceedsEstimate({ k: 'x'.repeat(n - 1) })).toBe(
          Math.ceil(n * 1.4) > MAX_SECRET_BYTES,
        );
      }),
      { numRuns: 50 },
    );
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
  const open: AccessPolicy = { admins: [], rulesRequired: false };
  const none = { owners: [], editors: [], viewers: [] };

  it('grants owners everything, editors edits, viewers reads', () => {
    const devs = as('user:default/x', ['group:default/devs']);
    expect(evaluateAccess(rules, as('user:default/olga'), 'delete', open)).toBe(
      'allow',
    );
    expect(evaluateAccess(rules, devs, 'update', open)).toBe('allow');
    expect(evaluateAccess(rules, devs, 'delete', open)).toBe('deny');
    expect(evaluateAccess(rules, devs, 'manageAccess', open)).toBe('deny');
    expect(evaluateAccess(rules, as('user:default/vic'), 'reveal', open)).toBe(
      'allow',
    );
    expect(evaluateAccess(rules, as('user:default/vic'), 'update', open)).toBe(
      'deny',
    );
    expect(
      evaluateAccess(rules, as('user:default/vic'), 'manageAccess', open),
    ).toBe('deny');
    expect(evaluateAccess(rules, as('user:default/nobody'), 'read', open)).toBe(
      'deny',
    );
  });

  it('compares refs case-insensitively', () => {
    expect(evaluateAccess(rules, as('User:Default/Olga'), 'delete', open)).toBe(
      'allow',
    );
  });

  it('lets admins pass and leaves Secrets without rules to the other gates', () => {
    const admin = as('user:default/a', ['group:default/admins']);
    const policy = { admins: ['group:default/admins'], rulesRequired: false };
    expect(evaluateAccess(rules, admin, 'delete', policy)).toBe('allow');
    expect(evaluateAccess(none, as('user:default/a'), 'delete', open)).toBe(
      'no-rules',
    );
  });

  it('refuses Secrets without rules to everyone but admins when rules are required', () => {
    const policy = { admins: ['group:default/admins'], rulesRequired: true };
    expect(evaluateAccess(none, as('user:default/a'), 'read', policy)).toBe(
      'deny',
    );
    expect(
      evaluateAccess(
        none,
        as('user:default/a', ['group:default/admins']),
        'read',
        policy,
      ),
    ).toBe('allow');
    expect(evaluateAccess(rules, as('user:default/vic'), 'read', policy)).toBe(
      'allow',
    );
  });

  it('normalizes hand-written annotations, and a list of only bad entries still counts as rules', () => {
    const keys = kryptonKeys('krypton.io');
    const read = readAccessRules(
      {
        'krypton.io/owners': ' user:Alice , group:Team-A,user:default/alice',
        'krypton.io/viewers': 'not a ref!,component:x',
      },
      keys,
    );
    expect(read.owners).toEqual(['user:default/alice', 'group:default/team-a']);
    expect(evaluateAccess(read, as('user:default/alice'), 'delete', open)).toBe(
      'allow',
    );
    const bad = readAccessRules({ 'krypton.io/viewers': 'not a ref!' }, keys);
    expect(evaluateAccess(bad, as('user:default/x'), 'read', open)).toBe(
      'deny',
    );
  });
});

describe('entity refs', () => {
  const part = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,20}$/);

  it('normalizes every user and group ref to one lowercase form, idempotently', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('user', 'User', 'group', 'GROUP'),
        fc.option(part, { nil: undefined }),
        part,
        (kind, namespace, name) => {
          const ref = namespace
            ? `${kind}:${namespace}/${name}`
            : `${kind}:${name}`;
          const normal = tryNormalizeEntityRef(ref)!;
          expect(normal).toBe(
            `${kind.toLowerCase()}:${(
              namespace ?? 'default'
            ).toLowerCase()}/${name.toLowerCase()}`,
          );
          expect(tryNormalizeEntityRef(normal)).toBe(normal);
          expect(normalizeEntityRef(ref)).toBe(normal);
        },
      ),
    );
  });

  it("lowercases any name as Backstage's toLocaleLowerCase('en-US') does", () => {
    fc.assert(
      fc.property(
        fc
          .string({ unit: 'grapheme', minLength: 1, maxLength: 12 })
          .filter(name => !/[:/\s]/.test(name)),
        name => {
          const ref = `User:Default/${name}`;
          expect(tryNormalizeEntityRef(ref)).toBe(
            ref.toLocaleLowerCase('en-US'),
          );
        },
      ),
    );
    // Letters whose lowercase differs in Turkish or Lithuanian, and the final sigma.
    expect(
      tryNormalizeEntityRef('user:default/\u0130I\u03a3\u0391\u03a3'),
    ).toBe('user:default/i\u0307i\u03c3\u03b1\u03c2');
  });

  it('refuses other kinds and malformed refs', () => {
    for (const ref of [
      'component:default/x',
      'alice',
      '',
      'user:',
      'x'.repeat(600),
    ]) {
      expect(tryNormalizeEntityRef(ref)).toBeUndefined();
      expect(() => normalizeEntityRef(ref)).toThrow(
        /user and group entity refs/,
      );
    }
    expect(() => normalizeEntityRef(42)).toThrow(/user and group entity refs/);
  });
});

describe('request bodies and queries', () => {
  it('refuses snapshot storage names on create', () => {
    expect(() =>
      parseCreateRequest({
        name: 'krypton-h-0123456789abcdef0123456789abcdef-v2',
      }),
    ).toThrow(/reserved for Krypton's history snapshots/);
    expect(parseCreateRequest({ name: 'krypton-hx' }).name).toBe('krypton-hx');
  });

  it('refuses base64 that is not canonical', () => {
    expect(() =>
      parseUpdateRequest({ resourceVersion: '1', binaryData: { b: 'QR==' } }),
    ).toThrow(/canonical base64/);
  });

  it('parses generated valid create requests without loss', () => {
    const key = fc
      .stringMatching(/^[-._a-zA-Z0-9]{1,40}$/)
      .filter(k => k !== '.' && !k.startsWith('..'));
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,10}[a-z0-9])?$/), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.dictionary(key, fc.string({ unit: 'grapheme', maxLength: 40 })),
        fc.dictionary(key, fc.uint8Array({ maxLength: 16 }).map(bytesToBase64)),
        (parts, data, bytes) => {
          const name = parts.join('.');
          fc.pre(!isSnapshotName(name));
          const binaryData = Object.fromEntries(
            Object.entries(bytes).filter(([k]) => !(k in data)),
          );
          const parsed = parseCreateRequest({ name, data, binaryData });
          expect(parsed.name).toBe(name);
          expect({ ...parsed.data }).toEqual({ ...data });
          expect({ ...parsed.binaryData }).toEqual(binaryData);
        },
      ),
    );
  });

  it('refuses bodies that are not UTF-8 instead of replacing bytes', () => {
    expect(parseJsonBody(new TextEncoder().encode('{"a":"\u00e9"}'))).toEqual({
      a: 'é',
    });
    const invalid = new Uint8Array([
      0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d,
    ]);
    expect(() => parseJsonBody(invalid)).toThrow(
      'The request body is not valid UTF-8.',
    );
    expect(() => parseJsonBody(new TextEncoder().encode('{"a":'))).toThrow(
      'The request body is not valid JSON.',
    );
  });

  it('reads declared query parameters and refuses unknown, repeated and malformed ones', () => {
    const schema = {
      resourceVersion: 'resourceVersion',
      keepHistory: 'boolean',
    } as const;
    expect(
      parseQuery({ resourceVersion: '12', keepHistory: 'true' }, schema),
    ).toEqual({
      resourceVersion: '12',
      keepHistory: true,
    });
    expect(parseQuery({}, schema)).toEqual({});
    expect(() => parseQuery({ watch: 'true' }, schema)).toThrow(
      'Unknown query parameter "watch".',
    );
    expect(() =>
      parseQuery({ keepHistory: ['true', 'false'] }, schema),
    ).toThrow(/given once/);
    expect(() => parseQuery({ keepHistory: 'yes' }, schema)).toThrow(
      /true or false/,
    );
    expect(() => parseQuery({ resourceVersion: { a: '1' } }, schema)).toThrow(
      /given once/,
    );
    expect(() => parseQuery({ resourceVersion: '' }, schema)).toThrow(
      /resourceVersion/,
    );
  });
});

describe('access roles for permission conditions', () => {
  const rules = {
    owners: ['user:default/olga'],
    editors: ['group:default/team-a'],
    viewers: ['user:default/vic'],
  };
  it('counts a greater role as holding a lesser one', () => {
    expect(holdsAccessRole(rules, ['user:default/olga'], 'viewer')).toBe(true);
    expect(holdsAccessRole(rules, ['user:default/olga'], 'owner')).toBe(true);
    expect(holdsAccessRole(rules, ['group:default/team-a'], 'editor')).toBe(
      true,
    );
    expect(holdsAccessRole(rules, ['group:default/team-a'], 'owner')).toBe(
      false,
    );
    expect(holdsAccessRole(rules, ['user:default/vic'], 'viewer')).toBe(true);
    expect(holdsAccessRole(rules, ['user:default/vic'], 'editor')).toBe(false);
  });
  it('normalizes claims as the rules are normalized, and ignores junk', () => {
    expect(holdsAccessRole(rules, ['Group:Team-A'], 'editor')).toBe(true);
    expect(holdsAccessRole(rules, ['', 'not a ref', 'user:'], 'viewer')).toBe(
      false,
    );
    expect(holdsAccessRole(rules, [], 'viewer')).toBe(false);
  });
});
