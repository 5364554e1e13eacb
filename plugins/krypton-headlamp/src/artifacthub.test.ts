import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import {
  archiveChecksum,
  archiveFileName,
  artifactHubPkg,
  cleanPackageJson,
  releaseArchiveUrl,
} from '../scripts/artifacthub.mjs';

const workspacePackage = {
  name: '@krypton/plugin-krypton-headlamp',
  version: '1.2.3',
  description: 'Krypton for Headlamp',
  private: true,
  main: 'src/index.tsx',
  license: 'Apache-2.0',
  backstage: { role: 'web-library' },
  scripts: { build: 'headlamp-plugin build && node scripts/package.mjs' },
  dependencies: { '@krypton/core': 'workspace:^' },
  devDependencies: {
    '@kinvolk/headlamp-plugin': '0.14.0',
    '@krypton/kube-testenv': 'workspace:^',
  },
  jest: { testEnvironment: 'node' },
};

describe('cleanPackageJson', () => {
  it('keeps what Headlamp reads and drops every trace of the monorepo', () => {
    const clean = cleanPackageJson(workspacePackage);
    expect(clean).toEqual({
      name: '@krypton/plugin-krypton-headlamp',
      version: '1.2.3',
      description: 'Krypton for Headlamp',
      license: 'Apache-2.0',
      devDependencies: { '@kinvolk/headlamp-plugin': '0.14.0' },
    });
    expect(JSON.stringify(clean)).not.toContain('workspace:');
  });

  it('refuses a package without an exact headlamp-plugin version, or without a field', () => {
    expect(() =>
      cleanPackageJson({
        ...workspacePackage,
        devDependencies: { '@kinvolk/headlamp-plugin': 'workspace:^' },
      }),
    ).toThrow('must pin @kinvolk/headlamp-plugin');
    expect(() =>
      cleanPackageJson({ ...workspacePackage, devDependencies: {} }),
    ).toThrow('must pin @kinvolk/headlamp-plugin');
    expect(() =>
      cleanPackageJson({ ...workspacePackage, license: undefined }),
    ).toThrow('package.json has no license');
  });
});

describe('archiveFileName', () => {
  it('is the name headlamp-plugin package gives the tarball', () => {
    expect(archiveFileName(workspacePackage)).toBe(
      'krypton-plugin-krypton-headlamp-1.2.3.tar.gz',
    );
  });
});

describe('archiveChecksum', () => {
  it("is Artifact Hub's SHA256:<hex> of the file's bytes", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'krypton-artifacthub-'));
    try {
      const file = path.join(dir, 'plugin.tar.gz');
      const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
      fs.writeFileSync(file, bytes);
      const checksum = archiveChecksum(fs.readFileSync(file));
      expect(checksum).toBe(
        `SHA256:${createHash('sha256').update(bytes).digest('hex')}`,
      );
      expect(checksum).toMatch(/^SHA256:[0-9a-f]{64}$/);

      fs.appendFileSync(file, Buffer.from([0]));
      expect(archiveChecksum(fs.readFileSync(file))).not.toBe(checksum);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('releaseArchiveUrl', () => {
  const fileName = 'krypton-plugin-krypton-headlamp-1.2.3.tar.gz';

  it('is undefined while there is no release location', () => {
    expect(releaseArchiveUrl(undefined, fileName)).toBeUndefined();
    expect(releaseArchiveUrl('', fileName)).toBeUndefined();
  });

  it('accepts an https URL of this archive', () => {
    expect(
      releaseArchiveUrl(
        `https://releases.example.org/v1.2.3/${fileName}`,
        fileName,
      ),
    ).toBe(`https://releases.example.org/v1.2.3/${fileName}`);
  });

  it.each([
    ['text that is no URL', 'not a URL', 'is not a URL'],
    [
      'plain http',
      `http://releases.example.org/${fileName}`,
      'must be an https URL',
    ],
    [
      'credentials',
      `https://user:pass@releases.example.org/${fileName}`,
      'must not carry credentials',
    ],
    [
      'another file',
      'https://releases.example.org/other-1.0.0.tar.gz',
      `must end with /${fileName}`,
    ],
    [
      'an overlong URL',
      `https://releases.example.org/${'a/'.repeat(1100)}${fileName}`,
      'longer than 2048',
    ],
  ])('refuses %s', (_label, value, message) => {
    expect(() => releaseArchiveUrl(value, fileName)).toThrow(message);
  });
});

describe('artifactHubPkg', () => {
  const checksum = `SHA256:${'ab'.repeat(32)}`;
  const createdAt = new Date('2026-12-02T07:30:00.123Z');

  it('names the release archive and its checksum in the annotations', () => {
    const url =
      'https://releases.example.org/v1.2.3/krypton-plugin-krypton-headlamp-1.2.3.tar.gz';
    const yml = artifactHubPkg({
      pkg: workspacePackage,
      checksum,
      archiveUrl: url,
      createdAt,
    });
    const lines = yml.split('\n');
    expect(lines).toContain('version: "1.2.3"');
    expect(lines).toContain('createdAt: "2026-12-02T07:30:00Z"');
    expect(lines).toContain('description: "Krypton for Headlamp"');
    expect(lines).toContain(`  headlamp/plugin/archive-url: "${url}"`);
    expect(lines).toContain(
      `  headlamp/plugin/archive-checksum: "${checksum}"`,
    );
    expect(lines).toContain('  headlamp/plugin/version-compat: ">=0.42"');
    expect(lines).toContain(
      '  headlamp/plugin/distro-compat: "desktop,in-cluster"',
    );
    expect(yml).not.toContain('Placeholder');
    expect(yml).not.toContain('example.invalid');
  });

  it('labels a placeholder URL on a host that cannot resolve when there is no release', () => {
    const yml = artifactHubPkg({
      pkg: workspacePackage,
      checksum,
      archiveUrl: undefined,
      createdAt,
    });
    expect(yml).toContain(
      '# Placeholder: Krypton publishes no release of this archive yet.',
    );
    expect(yml.split('\n')).toContain(
      '  headlamp/plugin/archive-url: "https://example.invalid/krypton-headlamp/krypton-plugin-krypton-headlamp-1.2.3.tar.gz"',
    );
  });

  it('quotes values, so a description cannot break out of its YAML scalar', () => {
    const yml = artifactHubPkg({
      pkg: { ...workspacePackage, description: 'a "quoted"\nannotations: {}' },
      checksum,
      archiveUrl: undefined,
      createdAt,
    });
    expect(yml.split('\n')).toContain(
      'description: "a \\"quoted\\"\\nannotations: {}"',
    );
    expect(yml.match(/^annotations:/gm)).toHaveLength(1);
  });
});
