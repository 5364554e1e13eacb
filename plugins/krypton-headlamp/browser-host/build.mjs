// Builds the host page into browser-host/dist, or copies it from the machine's cache.
//
// The page holds Headlamp's frontend only (about 4,600 modules, a minute of Vite on 2 cores):
// Krypton's plugin is not in it, Headlamp's loader fetches the plugin's dist/main.js at run time.
// So the page changes only with the files here and the installed packages (yarn.lock), and a
// build is kept per stamp of those in the toolchain cache that the Node and Yarn downloads use,
// which outlives a clone. KRYPTON_HEADLAMP_HOST_REBUILD=1 builds regardless.

import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..');
const outDir = path.join(here, 'dist');
const inputs = [
  path.join(here, 'index.html'),
  path.join(here, 'main.tsx'),
  path.join(here, 'vite.config.mjs'),
  fileURLToPath(import.meta.url),
  path.join(repoRoot, 'yarn.lock'),
];

const hash = createHash('sha256');
for (const file of inputs) hash.update(fs.readFileSync(file));
const stamp = hash.digest('hex').slice(0, 32);

const toolchainCache =
  process.env.KRYPTON_TOOLCHAIN_CACHE ??
  path.join(
    process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'),
    'krypton-toolchain',
  );
const cacheRoot = path.join(toolchainCache, 'headlamp-host');
const cached = path.join(cacheRoot, stamp);

const started = Date.now();
if (
  process.env.KRYPTON_HEADLAMP_HOST_REBUILD !== '1' &&
  fs.existsSync(path.join(cached, 'index.html'))
) {
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.cpSync(cached, outDir, { recursive: true });
  process.stdout.write(
    `headlamp host page: copied build ${stamp} from ${cacheRoot} in ${
      Date.now() - started
    } ms\n`,
  );
} else {
  await build({ configFile: path.join(here, 'vite.config.mjs') });
  fs.mkdirSync(cacheRoot, { recursive: true });
  const staging = fs.mkdtempSync(path.join(cacheRoot, '.staging-'));
  fs.cpSync(outDir, staging, { recursive: true });
  try {
    fs.renameSync(staging, cached);
  } catch {
    // Another run kept the same build first.
    fs.rmSync(staging, { recursive: true, force: true });
  }
  // Builds of other stamps go: a stamp changes with every yarn.lock change.
  for (const entry of fs.readdirSync(cacheRoot)) {
    if (entry !== stamp && !entry.startsWith('.staging-'))
      fs.rmSync(path.join(cacheRoot, entry), { recursive: true, force: true });
  }
  process.stdout.write(
    `headlamp host page: built ${stamp} in ${Date.now() - started} ms\n`,
  );
}
