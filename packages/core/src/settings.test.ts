import fc from 'fast-check';
import {
  parseHistoryLimit,
  parseManagedOnly,
  parseRestartEnabled,
} from './settings';

describe('parseHistoryLimit', () => {
  it('defaults to 20 when unset', () => {
    expect(parseHistoryLimit(undefined)).toEqual({ ok: true, value: 20 });
  });

  it('accepts every decimal integer from 1 to 100', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), n => {
        expect(parseHistoryLimit(String(n))).toEqual({ ok: true, value: n });
      }),
    );
  });

  it.each([
    ['empty', ''],
    ['zero', '0'],
    ['negative', '-1'],
    ['fractional', '1.5'],
    ['a trailing dot', '20.'],
    ['leading whitespace', ' 20'],
    ['trailing whitespace', '20 '],
    ['a newline', '20\n'],
    ['leading zeros', '020'],
    ['a plus sign', '+20'],
    ['an exponent', '1e2'],
    ['hexadecimal', '0x10'],
    ['full-width digits', '２０'],
    ['words', 'twenty'],
    ['above the range', '101'],
    ['far above the range', '99999999999999999999'],
  ])('rejects %s (%j)', (_label, raw) => {
    expect(parseHistoryLimit(raw)).toEqual({
      ok: false,
      error: 'KRYPTON_HISTORY_LIMIT must be a decimal integer from 1 to 100',
    });
  });

  it('rejects anything that is not the canonical form of an integer in range', () => {
    fc.assert(
      fc.property(fc.string(), raw => {
        const canonical = /^[1-9][0-9]*$/.test(raw) && Number(raw) <= 100;
        expect(parseHistoryLimit(raw).ok).toBe(canonical);
      }),
    );
  });
});

describe('feature flags', () => {
  it('enables restart only for exactly "true"', () => {
    expect(parseRestartEnabled('true')).toBe(true);
    for (const raw of [undefined, '', 'TRUE', 'True', '1', 'yes', ' true']) {
      expect(parseRestartEnabled(raw)).toBe(false);
    }
  });

  it('serves only managed Secrets unless exactly "false"', () => {
    expect(parseManagedOnly('false')).toBe(false);
    for (const raw of [undefined, '', 'FALSE', '0', 'no', 'true']) {
      expect(parseManagedOnly(raw)).toBe(true);
    }
  });
});
