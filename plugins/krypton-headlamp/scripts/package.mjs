// Writes the plugin archive that Headlamp installs, and its Artifact Hub metadata, into archive/:
//   archive/krypton-plugin-krypton-headlamp-<version>.tar.gz  (krypton-headlamp/main.js + package.json)
//   archive/artifacthub-pkg.yml                               (that archive's SHA-256)
// Run after `headlamp-plugin build` (the package's build script). `headlamp-plugin package` would
// copy the workspace package.json, with its workspace: ranges, into the archive, so it packages a
// staged copy of the package instead: dist/ and the clean package.json, in a folder named for
// the plugin.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  archiveChecksum,
  archiveFileName,
  artifactHubPkg,
  cleanPackageJson,
  PLUGIN_FOLDER,
  releaseArchiveUrl,
} from './artifacthub.mjs';

const packageDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
);
const archiveDir = path.join(packageDir, 'archive');
const pkg = JSON.parse(
  fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'),
);
const fileName = archiveFileName(pkg);
// Checked before anything is written, so a bad URL fails the build without an archive.
const archiveUrl = releaseArchiveUrl(
  process.env.KRYPTON_HEADLAMP_ARCHIVE_URL,
  fileName,
);

if (!fs.existsSync(path.join(packageDir, 'dist', 'main.js'))) {
  throw new Error('dist/main.js is missing: run headlamp-plugin build first');
}

const stage = fs.mkdtempSync(
  path.join(os.tmpdir(), 'krypton-headlamp-package-'),
);
try {
  const staged = path.join(stage, PLUGIN_FOLDER);
  fs.cpSync(path.join(packageDir, 'dist'), path.join(staged, 'dist'), {
    recursive: true,
  });
  fs.writeFileSync(
    path.join(staged, 'package.json'),
    `${JSON.stringify(cleanPackageJson(pkg), null, 2)}\n`,
  );
  fs.rmSync(archiveDir, { recursive: true, force: true });
  execFileSync(
    path.join(packageDir, 'node_modules', '.bin', 'headlamp-plugin'),
    ['package', staged, archiveDir],
    { stdio: 'inherit' },
  );
} finally {
  fs.rmSync(stage, { recursive: true, force: true });
}

const checksum = archiveChecksum(
  fs.readFileSync(path.join(archiveDir, fileName)),
);
fs.writeFileSync(
  path.join(archiveDir, 'artifacthub-pkg.yml'),
  artifactHubPkg({ pkg, checksum, archiveUrl, createdAt: new Date() }),
);
process.stdout.write(
  `Wrote archive/artifacthub-pkg.yml (${checksum}${
    archiveUrl ? '' : ', placeholder archive-url'
  }).\n`,
);
