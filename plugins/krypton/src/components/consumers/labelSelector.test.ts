import { matchesLabelSelector, parseLabelSelector } from './labelSelector';

const labels = {
  app: 'payments',
  tier: 'api',
  'app.kubernetes.io/part-of': 'shop',
  empty: '',
};

describe('parseLabelSelector', () => {
  it('parses every term form, keeping the commas inside sets', () => {
    expect(
      parseLabelSelector(
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
    expect(parseLabelSelector('')).toBeUndefined();
    expect(parseLabelSelector('app=')).toEqual([
      { key: 'app', op: 'equals', value: '' },
    ]);
    expect(parseLabelSelector('app in (a')).toBeUndefined();
    expect(parseLabelSelector('app = pay ments')).toBeUndefined();
    expect(parseLabelSelector('app>1')).toBeUndefined();
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
