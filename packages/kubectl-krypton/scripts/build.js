#!/usr/bin/env node
// Bundles the CLI (src/bin.ts with @krypton/core and js-yaml) into one CommonJS file that plain
// Node runs: the npm package's bin and the single-file executable's script.
const { buildSync } = require('esbuild');
const { join } = require('node:path');

const root = join(__dirname, '..');

function bundle(outfile = join(root, 'dist', 'kubectl-krypton.cjs')) {
  buildSync({
    entryPoints: [join(root, 'src/bin.ts')],
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    minify: true,
    outfile,
    logLevel: 'error',
  });
  return outfile;
}

module.exports = { bundle };

if (require.main === module) bundle(process.argv[2]);
