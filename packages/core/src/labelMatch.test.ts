import { matchesLabelSelector, tryParseLabelSelector } from './labelMatch';

const labels = {
  app: 'payments',
  tier: 'api',
  'app.kubernetes.io/part-of': 'shop',
  empty: '',
};

describe('tryParseLabelSelector', () => {
  it('parses every term form, keeping the commas inside sets', () => {
    expect(
      tryParseLabelSelector(
        'app=payments, tier==api,env!=prod,zone in (a, b),team notin (x),canary,!legacy',
      ),
    ).toEqual([
      { key: 'app', op: 'equals', value: 'payments' },
      { key: 'tier', op: 'equals', value: 'api' },
      { key: 'env', op: 'notEquals', value: 'prod' },
      { key: 'zone', op: 'in', values: ['a', 'b'] },
      { key: 'team', op: 'notIn', values: ['x'] },
      { key: 'canary', op: 'exists' },
      { key: 'legacy', op: 'notExists' },
    ]);
  });

  it('rejects what the API server would reject', () => {
    expect(tryParseLabelSelector('')).toBeUndefined();
    expect(tryParseLabelSelector('app=')).toEqual([
      { key: 'app', op: 'equals', value: '' },
    ]);
    expect(tryParseLabelSelector('app in (a')).toBeUndefined();
    expect(tryParseLabelSelector('app = pay ments')).toBeUndefined();
    expect(tryParseLabelSelector('app>1')).toBeUndefined();
    expect(tryParseLabelSelector('app in ((a))')).toBeUndefined();
    expect(tryParseLabelSelector('app in a)')).toBeUndefined();
    expect(tryParseLabelSelector(`app=${'a'.repeat(64)}`)).toBeUndefined();
  });

  it('reads what kubectl accepts: "in(", blanks and empty set values', () => {
    expect(tryParseLabelSelector('zone in(a , ,b), ! legacy')).toEqual([
      { key: 'zone', op: 'in', values: ['a', '', 'b'] },
      { key: 'legacy', op: 'notExists' },
    ]);
    expect(tryParseLabelSelector('zone notin ()')).toEqual([
      { key: 'zone', op: 'notIn', values: [''] },
    ]);
  });

  it('refuses a hostile annotation at once instead of freezing the page', () => {
    // An earlier regex failed on these in 2^n ways: 27 empty values took 45 s, 200 would never end.
    for (const n of [27, 200]) {
      const hostile = `a in (${', '.repeat(n)}!)`;
      expect(tryParseLabelSelector(hostile)).toBeUndefined();
      expect(matchesLabelSelector(hostile, { a: '' })).toBe(false);
    }
    expect(tryParseLabelSelector(','.repeat(1024))).toBeUndefined();
  });
});

describe('matchesLabelSelector', () => {
  it.each([
    ['app=payments', true],
    ['app==payments', true],
    ['app=orders', false],
    ['app.kubernetes.io/part-of=shop', true],
    ['empty=', true],
    ['missing=', false],
    // Negative forms also hold for objects without the label.
    ['app!=orders', true],
    ['app!=payments', false],
    ['missing!=x', true],
    ['tier in (api,web)', true],
    ['tier in (web)', false],
    ['missing in (api)', false],
    ['tier notin (web)', true],
    ['tier notin (api, web)', false],
    ['missing notin (api)', true],
    ['app', true],
    ['missing', false],
    ['!missing', true],
    ['!app', false],
    // Every term must hold.
    ['app=payments,tier=api', true],
    ['app=payments,tier=web', false],
    // Empty set values match the empty value.
    ['empty in (,x)', true],
    ['empty in ()', true],
    ['tier in (,x)', false],
    ['empty notin (x,)', false],
  ])('%s → %s', (selector, expected) => {
    expect(matchesLabelSelector(selector, labels)).toBe(expected);
  });

  it('matches nothing with an invalid selector', () => {
    expect(matchesLabelSelector('app=payments,', labels)).toBe(false);
    expect(matchesLabelSelector('', labels)).toBe(false);
  });

  it('does not treat inherited properties as labels', () => {
    expect(matchesLabelSelector('constructor', {})).toBe(false);
    expect(matchesLabelSelector('!toString', {})).toBe(true);
  });
});
