import { trimTrailingSlashes } from './trimTrailingSlashes';

describe('trimTrailingSlashes', () => {
  it.each([
    ['', ''],
    ['/', ''],
    ['///', ''],
    ['a', 'a'],
    ['a/', 'a'],
    ['a//b//', 'a//b'],
    ['/krypton/secret/demo/db/', '/krypton/secret/demo/db'],
    ['/krypton/secret/demo/db', '/krypton/secret/demo/db'],
  ])('trims %j to %j', (path, trimmed) => {
    expect(trimTrailingSlashes(path)).toBe(trimmed);
  });

  it('keeps a long run of slashes that does not end the path', () => {
    const path = `${'/'.repeat(200_000)}x`;
    expect(trimTrailingSlashes(path)).toBe(path);
    expect(trimTrailingSlashes(`${path}///`)).toBe(path);
  });
});
