// Checks the six packed tarballs as a registry would serve them:
//   node checkTarballs.mjs <core.tgz> <common.tgz> <react.tgz> <frontend.tgz> <backend.tgz> <scaffolder module.tgz> <engine string>...
// Each manifest must point main, module, types, exports and typesVersions at files of its own
// dist/, name no src/ path and no workspace:, file:, link: or portal: range; the frontend must
// have what app.packages: all discovers (role frontend-plugin, an ./alpha export); frontend and
// backend must carry the config schema that backstage-cli compiles from config.d.ts, the backend
// its knex migrations; the backend and the scaffolder module must be marked as backend features.
// Core is host-neutral, so it depends on no Backstage package; the value views depend on core only,
// the frontend, backend and module on core and common. Core's root entry carries the engines, so
// only tree-shaking keeps them out of the frontend bundle: core must say "sideEffects": false, and
// the engine strings must be in its dist's kubernetes/ modules, where the bundle check looks for
// them (so that it can fail).
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, relative } from 'node:path';

const [
  coreTgz,
  commonTgz,
  reactTgz,
  frontendTgz,
  backendTgz,
  moduleTgz,
  ...engineStrings
] = process.argv.slice(2);
const repoRoot = join(dirname(new URL(import.meta.url).pathname), '../..');
const errors = [];

function unpack(tgz) {
  const dir = mkdtempSync(join(tmpdir(), 'krypton-tgz-'));
  execFileSync('tar', ['-xzf', tgz, '-C', dir]);
  const root = join(dir, 'package');
  const files = [];
  const walk = d => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else files.push(relative(root, p));
    }
  };
  walk(root);
  return {
    dir,
    root,
    files,
    pkg: JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')),
  };
}

function check(t, label, expectedExports) {
  const { pkg, root, files } = t;
  const err = message => errors.push(`${label}: ${message}`);
  const inDist = (field, path) => {
    if (typeof path !== 'string')
      return err(`${field} is not a path: ${JSON.stringify(path)}`);
    const p = normalize(path);
    if (p === 'package.json') return undefined;
    if (!p.startsWith('dist/')) err(`${field} points outside dist/: ${path}`);
    if (/(^|\/)src\//.test(path)) err(`${field} names a src/ path: ${path}`);
    if (!existsSync(join(root, p)))
      err(`${field} names a file missing from the tarball: ${path}`);
    return undefined;
  };

  if (pkg.private) err('is private');
  for (const field of [
    'dependencies',
    'peerDependencies',
    'optionalDependencies',
  ]) {
    for (const [name, range] of Object.entries(pkg[field] ?? {})) {
      if (/^(workspace|file|link|portal|patch):/.test(range)) {
        err(`${field}.${name} is ${range}`);
      }
    }
  }
  for (const field of ['main', 'module', 'types']) {
    if (pkg[field] !== undefined) inDist(field, pkg[field]);
  }
  if (!pkg.main || !pkg.types) err('has no main or types');
  const walkExports = (value, path) => {
    if (typeof value === 'string') inDist(path, value);
    else {
      for (const [k, v] of Object.entries(value)) {
        // The "backstage" condition names the entry's feature type (set by prepack), not a file.
        if (k !== 'backstage') walkExports(v, `${path}[${k}]`);
      }
    }
  };
  if (expectedExports) {
    const keys = Object.keys(pkg.exports ?? {}).sort();
    if (JSON.stringify(keys) !== JSON.stringify([...expectedExports].sort())) {
      err(
        `exports are ${JSON.stringify(keys)}, expected ${JSON.stringify(
          expectedExports,
        )}`,
      );
    }
    for (const [k, v] of Object.entries(pkg.exports ?? {})) {
      walkExports(v, `exports[${k}]`);
      if (
        k !== './package.json' &&
        (typeof v !== 'object' || !v.types || !v.default)
      ) {
        err(`exports[${k}] lacks types or default: ${JSON.stringify(v)}`);
      }
    }
  } else if (pkg.exports) {
    walkExports(pkg.exports, 'exports');
  }
  for (const [k, paths] of Object.entries(pkg.typesVersions?.['*'] ?? {})) {
    for (const p of paths) inDist(`typesVersions[${k}]`, p);
  }
  const leaks = files.filter(
    f => /^src\//.test(f) || /\.test\.[jt]sx?$/.test(f),
  );
  if (leaks.length)
    err(`carries sources or tests: ${leaks.slice(0, 5).join(', ')}`);
  for (const f of pkg.files ?? []) {
    if (!existsSync(join(root, f)))
      err(`files names ${f}, which is not in the tarball`);
  }
}

function checkConfigSchema(t, label) {
  const { pkg, root, files } = t;
  if (pkg.configSchema !== 'config.schema.json') {
    errors.push(
      `${label}: configSchema is ${JSON.stringify(
        pkg.configSchema,
      )}, expected config.schema.json`,
    );
    return;
  }
  try {
    const schema = JSON.parse(
      readFileSync(join(root, 'config.schema.json'), 'utf8'),
    );
    if (!schema.properties?.krypton) {
      errors.push(`${label}: config.schema.json has no krypton property`);
    }
  } catch (e) {
    errors.push(
      `${label}: config.schema.json is missing or not JSON (${e.message})`,
    );
  }
  if (files.includes('config.d.ts')) {
    errors.push(
      `${label}: carries config.d.ts, which backstage-cli replaces with config.schema.json`,
    );
  }
}

/** The files a dist entry reaches through relative imports. */
function reachable(root, entry) {
  const seen = new Set();
  const visit = file => {
    if (seen.has(file)) return;
    seen.add(file);
    const src = readFileSync(join(root, file), 'utf8');
    for (const m of src.matchAll(
      /(?:from|import|require\()\s*['"](\.[^'"]+)['"]/g,
    )) {
      visit(normalize(join(dirname(file), m[1])));
    }
  };
  visit(entry);
  return [...seen];
}

const core = unpack(coreTgz);
const common = unpack(commonTgz);
const react = unpack(reactTgz);
const frontend = unpack(frontendTgz);
const backend = unpack(backendTgz);
const scaffolderModule = unpack(moduleTgz);
try {
  check(core, '@krypton/core', ['.', './testing', './package.json']);
  check(common, '@krypton/plugin-krypton-common', ['.', './package.json']);
  check(react, '@krypton/plugin-krypton-react', undefined);
  check(frontend, '@krypton/plugin-krypton', [
    '.',
    './alpha',
    './package.json',
  ]);
  check(backend, '@krypton/plugin-krypton-backend', undefined);
  check(
    scaffolderModule,
    '@krypton/plugin-scaffolder-backend-module-krypton',
    undefined,
  );
  checkConfigSchema(frontend, '@krypton/plugin-krypton');
  checkConfigSchema(backend, '@krypton/plugin-krypton-backend');

  // What each package must depend on, and at which range; undefined: not at all.
  const coreRange = `^${core.pkg.version}`;
  const commonRange = `^${common.pkg.version}`;
  const both = {
    '@krypton/core': coreRange,
    '@krypton/plugin-krypton-common': commonRange,
  };
  // The value views and the scaffolder action need no Backstage permission or catalog link.
  const coreOnly = { ...both, '@krypton/plugin-krypton-common': undefined };
  for (const [t, expected] of [
    [react, coreOnly],
    [
      frontend,
      { ...both, '@krypton/plugin-krypton-react': `^${react.pkg.version}` },
    ],
    [backend, both],
    [scaffolderModule, coreOnly],
  ]) {
    for (const [name, want] of Object.entries(expected)) {
      const range =
        t.pkg.dependencies?.[name] ?? t.pkg.peerDependencies?.[name];
      if (range !== want) {
        errors.push(
          `${t.pkg.name}: depends on ${name} as ${range}, expected ${
            want ?? 'no dependency'
          }`,
        );
      }
    }
  }
  const coreDeps = ['dependencies', 'peerDependencies', 'optionalDependencies']
    .flatMap(field => Object.keys(core.pkg[field] ?? {}))
    .filter(name => /^@(backstage|krypton)\//.test(name));
  if (coreDeps.length) {
    errors.push(
      `@krypton/core: depends on ${coreDeps.join(
        ', ',
      )}; it must stay host-neutral`,
    );
  }
  if (core.pkg.sideEffects !== false) {
    errors.push(
      `@krypton/core: sideEffects is ${JSON.stringify(
        core.pkg.sideEffects,
      )}, expected false: without it a bundler keeps every module that its root entry imports, the engines among them`,
    );
  }
  // app.packages: all imports the default export of ./alpha from each dependency whose role is
  // frontend-plugin; prepack marks that export's type.
  if (frontend.pkg.backstage?.role !== 'frontend-plugin') {
    errors.push(
      '@krypton/plugin-krypton: its role is not frontend-plugin, so app.packages: all would skip it',
    );
  }
  if (
    frontend.pkg.exports?.['./alpha']?.backstage !== '@backstage/FrontendPlugin'
  ) {
    errors.push(
      '@krypton/plugin-krypton: ./alpha is not marked as a @backstage/FrontendPlugin',
    );
  }
  for (const t of [backend, scaffolderModule]) {
    if (t.pkg.backstage?.features?.['.'] !== '@backstage/BackendFeature') {
      errors.push(
        `${t.pkg.name}: its root entry is not marked as a @backstage/BackendFeature`,
      );
    }
  }
  if (scaffolderModule.pkg.backstage?.role !== 'backend-plugin-module') {
    errors.push(
      '@krypton/plugin-scaffolder-backend-module-krypton: its role is not backend-plugin-module',
    );
  }
  const migrations = readdirSync(
    join(repoRoot, 'plugins/krypton-backend/migrations'),
  ).sort();
  const packed = backend.files
    .filter(f => f.startsWith('migrations/'))
    .map(f => f.slice(11))
    .sort();
  if (JSON.stringify(migrations) !== JSON.stringify(packed)) {
    errors.push(
      `@krypton/plugin-krypton-backend: migrations are ${JSON.stringify(
        packed,
      )}, the repository has ${JSON.stringify(migrations)}`,
    );
  }

  // The engine strings: in the ES modules that core's root entry reaches (what a bundler reads),
  // and there only in kubernetes/ modules, which the bundle check knows by their path.
  const rootFiles = reachable(core.root, 'dist/index.esm.js');
  for (const s of engineStrings) {
    const holders = rootFiles.filter(f =>
      readFileSync(join(core.root, f), 'utf8').includes(s),
    );
    if (!holders.length)
      errors.push(
        `core's root entry does not reach "${s}": the bundle check could not fail`,
      );
    const outside = holders.filter(f => !/(^|\/)kubernetes\//.test(f));
    if (outside.length)
      errors.push(
        `"${s}" is in core modules outside kubernetes/ (${outside.join(
          ', ',
        )}): the bundle check would not count them as engine modules`,
      );
    console.error(
      `[install-test] "${s}": in ${holders.join(
        ', ',
      )} of core's dist, among the ${
        rootFiles.length
      } files its root entry reaches`,
    );
  }

  for (const [t, tgz] of [
    [core, coreTgz],
    [common, commonTgz],
    [react, reactTgz],
    [frontend, frontendTgz],
    [backend, backendTgz],
    [scaffolderModule, moduleTgz],
  ]) {
    const kib = Math.round(statSync(tgz).size / 1024);
    console.error(
      `[install-test] ${t.pkg.name}@${t.pkg.version}: ${
        t.files.length
      } files, ${kib} KiB; main ${t.pkg.main}, types ${t.pkg.types}${
        t.pkg.exports ? `, exports ${Object.keys(t.pkg.exports).join(' ')}` : ''
      }${t.pkg.configSchema ? `, ${t.pkg.configSchema}` : ''}${
        t.pkg.sideEffects === false ? ', sideEffects false' : ''
      }`,
    );
  }
  console.error(`[install-test] backend migrations: ${packed.join(', ')}`);
} finally {
  for (const t of [core, common, react, frontend, backend, scaffolderModule])
    rmSync(t.dir, { recursive: true, force: true });
}

if (errors.length) {
  for (const e of errors)
    console.error(`[install-test] TARBALL CHECK FAILED: ${e}`);
  process.exit(1);
}
console.error('[install-test] the six tarballs passed their checks');
