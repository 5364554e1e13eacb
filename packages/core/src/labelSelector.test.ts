import fc from 'fast-check';
import { KryptonError } from './errors';
import {
  LabelRequirement,
  formatLabelSelector,
  parseLabelSelector,
} from './labelSelector';
import { validateLabelSelector } from './validation';

const MESSAGE =
  'Invalid label selector: use terms such as app=payments, tier!=cache or env in (prod,staging), separated by commas.';

/** The `a in ( , , … , !)` family: an old regex failed on it in 2^n ways. */
const hostile = (n: number) => `a in (${', '.repeat(n)}!)`;

function refusal(selector: string): unknown {
  try {
    parseLabelSelector(selector);
  } catch (e) {
    return e;
  }
  return undefined;
}

describe('parseLabelSelector', () => {
  it.each<[string, LabelRequirement[], string]>([
    ['app', [{ key: 'app', op: 'exists' }], 'app'],
    ['!app', [{ key: 'app', op: 'notExists' }], '!app'],
    ['! app', [{ key: 'app', op: 'notExists' }], '!app'],
    [
      'app=payments',
      [{ key: 'app', op: 'equals', value: 'payments' }],
      'app=payments',
    ],
    [
      'app==payments',
      [{ key: 'app', op: 'equals', value: 'payments' }],
      'app=payments',
    ],
    [
      ' app  =  payments ',
      [{ key: 'app', op: 'equals', value: 'payments' }],
      'app=payments',
    ],
    [
      'app != cache',
      [{ key: 'app', op: 'notEquals', value: 'cache' }],
      'app!=cache',
    ],
    ['app=', [{ key: 'app', op: 'equals', value: '' }], 'app='],
    ['app !=', [{ key: 'app', op: 'notEquals', value: '' }], 'app!='],
    [
      'env in (prod,staging)',
      [{ key: 'env', op: 'in', values: ['prod', 'staging'] }],
      'env in (prod,staging)',
    ],
    [
      'env in(prod , staging)',
      [{ key: 'env', op: 'in', values: ['prod', 'staging'] }],
      'env in (prod,staging)',
    ],
    [
      '\tenv\tnotin\t(\tprod\t)\r\n',
      [{ key: 'env', op: 'notIn', values: ['prod'] }],
      'env notin (prod)',
    ],
    // Empty values, as Kubernetes reads them.
    ['env in ()', [{ key: 'env', op: 'in', values: [''] }], 'env in ()'],
    ['env in ( )', [{ key: 'env', op: 'in', values: [''] }], 'env in ()'],
    ['env in (,)', [{ key: 'env', op: 'in', values: [''] }], 'env in ()'],
    ['env in (,,,)', [{ key: 'env', op: 'in', values: [''] }], 'env in ()'],
    [
      'env in (,a)',
      [{ key: 'env', op: 'in', values: ['', 'a'] }],
      'env in (,a)',
    ],
    [
      'env notin (a,)',
      [{ key: 'env', op: 'notIn', values: ['a', ''] }],
      'env notin (a,)',
    ],
    [
      'env in (a, ,b)',
      [{ key: 'env', op: 'in', values: ['a', '', 'b'] }],
      'env in (a,,b)',
    ],
    [
      'env in (a,,,b)',
      [{ key: 'env', op: 'in', values: ['a', '', 'b'] }],
      'env in (a,,b)',
    ],
    // A set holds each value once.
    [
      'env in (b,a,b)',
      [{ key: 'env', op: 'in', values: ['b', 'a'] }],
      'env in (b,a)',
    ],
    // Prefixed keys.
    [
      'app.kubernetes.io/part-of=shop',
      [{ key: 'app.kubernetes.io/part-of', op: 'equals', value: 'shop' }],
      'app.kubernetes.io/part-of=shop',
    ],
    [
      'example-1.com/My_Name.v2',
      [{ key: 'example-1.com/My_Name.v2', op: 'exists' }],
      'example-1.com/My_Name.v2',
    ],
    // "in" and "notin" are operators only after a key.
    [
      'in in (in,notin)',
      [{ key: 'in', op: 'in', values: ['in', 'notin'] }],
      'in in (in,notin)',
    ],
    ['notin=in', [{ key: 'notin', op: 'equals', value: 'in' }], 'notin=in'],
    [
      'app=payments, tier!=cache,env in (prod,staging) , canary,!legacy',
      [
        { key: 'app', op: 'equals', value: 'payments' },
        { key: 'tier', op: 'notEquals', value: 'cache' },
        { key: 'env', op: 'in', values: ['prod', 'staging'] },
        { key: 'canary', op: 'exists' },
        { key: 'legacy', op: 'notExists' },
      ],
      'app=payments,tier!=cache,env in (prod,staging),canary,!legacy',
    ],
  ])('reads %j', (selector, requirements, canonical) => {
    expect(parseLabelSelector(selector)).toEqual(requirements);
    expect(formatLabelSelector(requirements)).toBe(canonical);
    expect(validateLabelSelector(selector)).toBe(canonical);
  });

  it('accepts keys and values at their length limits', () => {
    const name = `a${'-'.repeat(61)}b`;
    const prefix = `${'p'.repeat(63)}.${'q'.repeat(63)}.${'r'.repeat(
      63,
    )}.${'s'.repeat(61)}`;
    expect(prefix).toHaveLength(253);
    expect(parseLabelSelector(`${prefix}/${name}=${name}`)).toEqual([
      { key: `${prefix}/${name}`, op: 'equals', value: name },
    ]);
    const longest = `${'a,'.repeat(511)}ab`;
    expect(longest).toHaveLength(1024);
    expect(parseLabelSelector(longest)).toHaveLength(512);
  });

  it.each([
    ['an empty selector', ''],
    ['blanks only', ' \t\r\n'],
    ['27 empty values and a "!"', hostile(27)],
    ['200 empty values and a "!"', hostile(200)],
    ['200 empty values and a ")"', `a in (${', '.repeat(200)}))`],
    ['nested parentheses', 'a in ((b))'],
    ['an unclosed set', 'a in (b'],
    ['an unopened set', 'a in b)'],
    ['closing before opening', ')('],
    ['a set after a value', 'a=b(c)'],
    ['"in" without a set', 'a in b'],
    ['"in" with nothing after it', 'a in'],
    ['"notin" without parentheses', 'a notin b,c'],
    ['1,024 commas', ','.repeat(1024)],
    ['1,025 characters of valid terms', `${'a,'.repeat(512)}a`],
    ['a trailing comma', 'a=b,'],
    ['a leading comma', ',a=b'],
    ['an empty term', 'a,,b'],
    ['two commas in a row after a value', 'a in (b,,)'],
    ['two commas alone', 'a in (,,)'],
    ['an uppercase prefix', 'Example.com/a'],
    ['an empty prefix', '/a'],
    ['an empty name', 'example.com/'],
    ['two slashes', 'a/b/c'],
    ['an empty DNS label in the prefix', 'a..b/c'],
    ['a prefix label ending in "-"', 'a-.b/c'],
    ['a prefix over 253 characters', `${'p'.repeat(254)}/a`],
    ['a key starting with "-"', '-a'],
    ['a key ending with "."', 'a.'],
    ['a key over 63 characters', 'k'.repeat(64)],
    ['a non-ASCII key', 'é=x'],
    ['a Unicode blank', 'a\u00a0=b'],
    ['a NUL', 'a=b\u0000'],
    ['a value starting with "-"', 'a=-b'],
    ['a value over 63 characters', `a=${'v'.repeat(64)}`],
    ['a blank inside a value', 'app = pay ments'],
    ['a blank inside a set value', 'a in (b c)'],
    ['an invalid set value', 'a in (b_)'],
    ['a slash in a value', 'a=b/c'],
    ['">"', 'a>1'],
    ['"<"', 'a<1'],
    ['"==="', 'a===b'],
    ['a negated equality', '!a=b'],
    ['a negated set', '!a in (b)'],
    ['a bare "!="', '!=a'],
    ['two "!"', '!!a'],
    ['two values', 'a=b=c'],
    ['a semicolon', 'app=x;drop'],
    ['a lone "("', '('],
  ])('refuses %s', (_name, selector) => {
    const error = refusal(selector);
    expect(error).toBeInstanceOf(KryptonError);
    expect((error as KryptonError).code).toBe('invalid_request');
    expect((error as KryptonError).message).toBe(MESSAGE);
    expect(() => validateLabelSelector(selector)).toThrow(MESSAGE);
  });
});

// Generated selectors, from Kubernetes' definitions of keys and values.
const nameArb = fc.stringMatching(
  /^[A-Za-z0-9](?:[-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/,
);
const dnsLabelArb = fc.stringMatching(/^[a-z0-9](?:[-a-z0-9]{0,20}[a-z0-9])?$/);
const keyArb = fc.oneof(
  nameArb,
  fc
    .tuple(fc.array(dnsLabelArb, { minLength: 1, maxLength: 4 }), nameArb)
    .map(([labels, name]) => `${labels.join('.')}/${name}`),
  fc.constantFrom('in', 'notin'),
);
const valueArb = fc.oneof(fc.constant(''), nameArb, fc.constant('in'));
const requirementArb: fc.Arbitrary<LabelRequirement> = fc.oneof(
  fc.record({
    key: keyArb,
    op: fc.constantFrom('exists' as const, 'notExists' as const),
  }),
  fc.record({
    key: keyArb,
    op: fc.constantFrom('equals' as const, 'notEquals' as const),
    value: valueArb,
  }),
  fc.record({
    key: keyArb,
    op: fc.constantFrom('in' as const, 'notIn' as const),
    values: fc.uniqueArray(valueArb, { minLength: 1, maxLength: 5 }),
  }),
);
const selectorArb = fc.array(requirementArb, { minLength: 1, maxLength: 6 });

/** Kubernetes' blanks, which may surround every operator, parenthesis and comma. */
const blankArb = fc.constantFrom('', ' ', '  ', '\t', '\n', '\r\n');

/** A spelling with blanks where kubectl allows them, and "==" for some "=". */
function noisy(
  requirements: readonly LabelRequirement[],
  blanks: readonly string[],
  doubleEquals: boolean,
): string {
  let i = 0;
  const b = () => blanks[i++ % blanks.length];
  // A key and a following "in" or "notin" need a blank between them.
  const b1 = () => b() || ' ';
  const term = (r: LabelRequirement): string => {
    switch (r.op) {
      case 'exists':
        return r.key;
      case 'notExists':
        return `!${b()}${r.key}`;
      case 'equals':
        return `${r.key}${b()}${doubleEquals ? '==' : '='}${b()}${r.value}`;
      case 'notEquals':
        return `${r.key}${b()}!=${b()}${r.value}`;
      default: {
        const values = r.values.map(v => `${b()}${v}${b()}`).join(',');
        return `${r.key}${b1()}${
          r.op === 'in' ? 'in' : 'notin'
        }${b()}(${values})`;
      }
    }
  };
  return requirements.map(r => `${b()}${term(r)}${b()}`).join(',');
}

describe('formatLabelSelector and parseLabelSelector', () => {
  it('round-trip generated selectors through the canonical text', () => {
    fc.assert(
      fc.property(selectorArb, requirements => {
        const text = formatLabelSelector(requirements);
        expect(parseLabelSelector(text)).toEqual(requirements);
        expect(validateLabelSelector(text)).toBe(text);
      }),
    );
  });

  it('read every kubectl spelling of a generated selector the same way', () => {
    fc.assert(
      fc.property(
        selectorArb,
        fc.array(blankArb, { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        (requirements, blanks, doubleEquals) => {
          const text = noisy(requirements, blanks, doubleEquals);
          fc.pre(text.length <= 1024);
          expect(parseLabelSelector(text)).toEqual(requirements);
        },
      ),
    );
  });

  it('either refuse a string of selector characters or read it back from its canonical text', () => {
    const unit = fc.constantFrom(
      'a',
      'b',
      '-',
      '.',
      '/',
      '=',
      '!',
      '(',
      ')',
      ',',
      ' ',
      '\t',
      'in',
      'notin',
      '<',
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 40 }), selector => {
        let requirements: LabelRequirement[];
        try {
          requirements = parseLabelSelector(selector);
        } catch (e) {
          // A refusal is fine, but only as Krypton's 400.
          return e instanceof KryptonError;
        }
        expect(requirements.length).toBeGreaterThan(0);
        expect(parseLabelSelector(formatLabelSelector(requirements))).toEqual(
          requirements,
        );
        return true;
      }),
      { numRuns: 1000 },
    );
  });
});
