import { formatJson } from './formats';

describe('formatJson', () => {
  it('flags number literals that parsing would change, and only those', () => {
    expect(formatJson('[0.5000, 1e3, -0.25]')).toMatchObject({
      ok: true,
      inexactNumbers: false,
    });
    expect(formatJson('{"id": 12345678901234567890}')).toMatchObject({
      ok: true,
      inexactNumbers: true,
    });
  });

  it('reads a fraction of 100,000 zeros as the digits it has', () => {
    // Trailing-zero trimming once retried from every zero of such a run (quadratic): this value
    // froze the preview of every viewer. The result must still tell 0.1 from 0.1…01.
    const zeros = '0'.repeat(100_000);
    expect(formatJson(`[0.1${zeros}1]`)).toMatchObject({
      ok: true,
      inexactNumbers: true,
    });
    expect(formatJson(`[0.1${zeros}]`)).toMatchObject({
      ok: true,
      inexactNumbers: false,
    });
  });
});
