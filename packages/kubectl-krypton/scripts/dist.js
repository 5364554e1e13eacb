#!/usr/bin/env node
// Builds everything kubectl krypton ships, into dist/, with one command (`yarn dist`):
//   kubectl-krypton.cjs               the bundle, which the npm package's bin runs (build.js)
//   kubectl-krypton-linux-x64         a single executable that needs no Node on the machine: this
//                                     Node's binary with the bundle injected (Node's single
//                                     executable applications)
//   kubectl-krypton-linux-x64.tar.gz  that executable, kubectl_complete-krypton and LICENSE, as
//                                     krew installs them
//   krew/krypton.yaml                 the krew plugin manifest, with the archive's SHA-256
//   SHA256SUMS                        the checksums of the executable and the archive
// Usage: dist.js [--release-url URL]: the URL the archive will be published under (the
// manifest's uri); without it, the manifest is for `kubectl krew install --manifest=... --archive=...`.
const { execFileSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const {
  chmodSync,
  copyFileSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} = require('node:fs');
const { join } = require('node:path');
const { bundle } = require('./build');

const root = join(__dirname, '..');
const dist = join(root, 'dist');
const { version } = require('../package.json');

/** The sentinel that Node's binary carries for a single executable's blob. */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const TARGET = `${process.platform}-${process.arch}`;

const sha256 = path =>
  createHash('sha256').update(readFileSync(path)).digest('hex');

function releaseUrl(argv) {
  const i = argv.indexOf('--release-url');
  if (i === -1) return undefined;
  const url = argv[i + 1];
  if (!url || !/^https:\/\/\S+$/.test(url))
    throw new Error('--release-url must be an https:// URL');
  return url.replace(/\/+$/, '');
}

/** The single executable: this Node, with the bundle and its V8 code cache injected. */
async function singleExecutable(script) {
  const blob = join(dist, 'sea-prep.blob');
  const config = join(dist, 'sea-config.json');
  writeFileSync(
    config,
    JSON.stringify({
      main: script,
      output: blob,
      disableExperimentalSEAWarning: true,
      useCodeCache: true,
    }),
  );
  execFileSync(process.execPath, ['--experimental-sea-config', config], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const executable = join(dist, `kubectl-krypton-${TARGET}`);
  rmSync(executable, { force: true });
  copyFileSync(process.execPath, executable);
  chmodSync(executable, 0o755);
  const { inject } = require('postject');
  await inject(executable, 'NODE_SEA_BLOB', readFileSync(blob), {
    sentinelFuse: SEA_FUSE,
  });
  rmSync(blob);
  rmSync(config);
  return executable;
}

function krewManifest(archive, url) {
  const name = `kubectl-krypton-${TARGET}.tar.gz`;
  return `apiVersion: krew.googlecontainertools.github.com/v1alpha2
kind: Plugin
metadata:
  name: krypton
spec:
  version: v${version}
  shortDescription: Secret history, diffs, restores and consumers, kept by Krypton
  description: |
    kubectl krypton keeps every change of a Kubernetes Secret as a version: history, diff,
    restore, edit, consumers and restart, with your kubeconfig and your RBAC.
  platforms:
    - selector:
        matchLabels:
          os: ${process.platform}
          arch: ${process.arch === 'x64' ? 'amd64' : process.arch}
      uri: ${url ? `${url}/${name}` : name}
      sha256: ${sha256(archive)}
      bin: kubectl-krypton
      files:
        - from: kubectl-krypton
          to: .
        - from: kubectl_complete-krypton
          to: .
        - from: LICENSE
          to: .
`;
}

async function main(argv) {
  const url = releaseUrl(argv);
  mkdirSync(dist, { recursive: true });
  const script = bundle();
  const executable = await singleExecutable(script);

  // The archive holds the executable under the name kubectl looks for on PATH.
  const stage = join(dist, 'stage');
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage);
  copyFileSync(executable, join(stage, 'kubectl-krypton'));
  copyFileSync(
    join(root, 'bin', 'kubectl_complete-krypton'),
    join(stage, 'kubectl_complete-krypton'),
  );
  copyFileSync(join(root, '..', '..', 'LICENSE'), join(stage, 'LICENSE'));
  const archive = join(dist, `kubectl-krypton-${TARGET}.tar.gz`);
  // Owned by root and dated 1970: nothing of the build machine's users or clock in the archive.
  // (The executable itself differs between builds: V8's code cache is not reproducible.)
  execFileSync('tar', [
    '--sort=name',
    '--owner=0',
    '--group=0',
    '--numeric-owner',
    '--mtime=@0',
    '-czf',
    archive,
    '-C',
    stage,
    'kubectl-krypton',
    'kubectl_complete-krypton',
    'LICENSE',
  ]);
  rmSync(stage, { recursive: true });

  mkdirSync(join(dist, 'krew'), { recursive: true });
  writeFileSync(join(dist, 'krew', 'krypton.yaml'), krewManifest(archive, url));
  writeFileSync(
    join(dist, 'SHA256SUMS'),
    [executable, archive]
      .map(path => `${sha256(path)}  ${path.slice(dist.length + 1)}\n`)
      .join(''),
  );
  return { script, executable, archive };
}

module.exports = { main };

if (require.main === module) {
  main(process.argv.slice(2)).then(
    out => {
      for (const path of Object.values(out)) process.stdout.write(`${path}\n`);
    },
    err => {
      process.stderr.write(`dist: ${err.message}\n`);
      process.exitCode = 1;
    },
  );
}
