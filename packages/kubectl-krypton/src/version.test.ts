import { VERSION } from './version';

describe('VERSION', () => {
  it("is the package's version", () => {
    // eslint-disable-next-line @backstage/no-relative-monorepo-imports
    const pkg = jest.requireActual<{ version: string }>('../package.json');
    expect(VERSION).toBe(pkg.version);
  });
});
