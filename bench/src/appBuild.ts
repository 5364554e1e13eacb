import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';

// The bench only runs from source in the repository.
// eslint-disable-next-line no-restricted-syntax
const repoRoot = resolve(__dirname, '../..');
const cacheDir = join(repoRoot, '.cache/bench/app-production');
const appDist = join(repoRoot, 'packages/app/dist');
const execFileAsync = promisify(execFile);

/** What the app's production bundle is made of: its sources, Krypton's, the lockfile, the config. */
const INPUTS = [
  'packages/app/src',
  'packages/app/public',
  'packages/app/package.json',
  'plugins/krypton/src',
  'plugins/krypton/package.json',
  'plugins/krypton-common/src',
  'plugins/krypton-common/package.json',
  'plugins/krypton-react/src',
  'plugins/krypton-react/package.json',
  'packages/core/src',
  'packages/core/package.json',
  'app-config.yaml',
  'package.json',
  'yarn.lock',
];

/** Tests are not bundled, so editing one does not make the cached build stale. */
const NOT_BUNDLED = /\.test\.tsx?$|__testUtils__|setupTests\.ts$/;

function files(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap(name => files(join(path, name)));
}

/** A hash of every input's path and content. */
function sourceKey(): string {
  const hash = createHash('sha256');
  for (const input of INPUTS) {
    for (const file of files(join(repoRoot, input))) {
      if (NOT_BUNDLED.test(file)) continue;
      hash.update(relative(repoRoot, file)).update('\0');
      hash.update(readFileSync(file)).update('\0');
    }
  }
  return hash.digest('hex');
}

export interface ProductionApp {
  /** Whether this run built the app, or took it from the cache. */
  built: boolean;
  /** How long the build took, or 0 from the cache. */
  buildMs: number;
  /** The directory of a given build (KRYPTON_BENCH_APP_DIST), if one was. */
  from?: string;
}

/**
 * Puts the app's production build (`yarn workspace app build`, which is `backstage-cli package
 * build`) at packages/app/dist, where the example backend's app plugin serves it, as a deployment
 * does. The build is cached under .cache/bench/app-production by a hash of its inputs, so only a
 * changed source builds again; call it under the run lock, before the backend starts.
 */
export async function productionApp(): Promise<ProductionApp> {
  // KRYPTON_BENCH_APP_DIST=<dir>: serve that production build instead (one made from an older
  // commit, say, to compare with); it is copied, never built.
  const given = process.env.KRYPTON_BENCH_APP_DIST;
  if (given) {
    if (!existsSync(join(given, 'index.html'))) {
      throw new Error(`KRYPTON_BENCH_APP_DIST: no index.html in ${given}`);
    }
    rmSync(appDist, { recursive: true, force: true });
    cpSync(given, appDist, { recursive: true });
    return { built: false, buildMs: 0, from: given };
  }
  const key = sourceKey();
  const keyFile = join(cacheDir, 'source-key');
  const cached = join(cacheDir, 'dist');
  const hit =
    existsSync(keyFile) &&
    readFileSync(keyFile, 'utf8') === key &&
    existsSync(join(cached, 'index.html'));
  let buildMs = 0;
  if (!hit) {
    const started = Date.now();
    const env: NodeJS.ProcessEnv = { ...process.env };
    // jest's NODE_ENV=test would select a browserslist environment that the app does not define.
    delete env.NODE_ENV;
    for (const name of Object.keys(env)) {
      if (name.startsWith('JEST_')) delete env[name];
    }
    await execFileAsync('yarn', ['workspace', 'app', 'build'], {
      cwd: repoRoot,
      env,
      maxBuffer: 64 * 1024 * 1024,
    });
    buildMs = Date.now() - started;
    rmSync(cacheDir, { recursive: true, force: true });
    mkdirSync(cacheDir, { recursive: true });
    cpSync(appDist, cached, { recursive: true });
    writeFileSync(keyFile, key);
  } else {
    rmSync(appDist, { recursive: true, force: true });
    cpSync(cached, appDist, { recursive: true });
  }
  return { built: !hit, buildMs };
}
