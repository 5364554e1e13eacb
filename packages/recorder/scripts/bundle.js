#!/usr/bin/env node
// Bundles the recorder's entry point (src/main.ts with @krypton/core and its dependencies) into
// one CommonJS file that plain Node runs: the image's entry point (Dockerfile), the one that
// `./krypton start` runs, and the one the integration tests start. With --local it also bundles
// the launcher that `./krypton start` uses to run it on the local control plane.
// Usage: bundle.js [outfile] | bundle.js --local
const { buildSync } = require('esbuild');
const { join } = require('node:path');

const root = join(__dirname, '..');

function build(entry, outfile) {
  buildSync({
    entryPoints: [join(root, entry)],
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    outfile,
    logLevel: 'error',
  });
  return outfile;
}

function bundle(outfile = join(root, 'dist', 'recorder.cjs')) {
  return build('src/main.ts', outfile);
}

module.exports = { bundle };

if (require.main === module) {
  if (process.argv[2] === '--local') {
    bundle();
    build('src/local/cli.ts', join(root, 'dist', 'local-recorder.cjs'));
  } else {
    bundle(process.argv[2]);
  }
}
