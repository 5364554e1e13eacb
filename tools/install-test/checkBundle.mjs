// Checks the fresh app's production bundle (packages/app/dist) for @krypton/core's engines:
//   node checkBundle.mjs <app dir> <engine string>...
// The frontend imports core's root entry, which exports the engines too; only tree-shaking (core
// says "sideEffects": false) keeps them out of the bundle, and this check is what proves it did.
// The check could fail: each engine string must be in the installed core's dist. It must then be
// in no file of the bundle (scripts and their source maps), no bundled module may come from core's
// kubernetes/ files (the source maps' `sources`), while some must come from core, so that the
// structural check saw something; and Krypton's frontend must be in the bundle, which shows that
// app.packages: all discovered it.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const [app, ...engineStrings] = process.argv.slice(2);
const dist = join(app, 'packages/app/dist');
const core = join(app, 'node_modules/@krypton/core/dist');
// plugins/krypton/src/components/history/HistoryTab.tsx, only reachable through the Krypton page.
const FRONTEND_STRING = 'No versions yet: Krypton keeps a version';
const errors = [];

function files(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter(e => e.isFile())
    .map(e => join(e.parentPath ?? e.path, e.name));
}
const holding = (list, s) =>
  list.filter(f => readFileSync(f, 'utf8').includes(s));

const coreFiles = files(core);
const bundle = files(dist).filter(f => /\.(js|map|html)$/.test(f));

for (const s of engineStrings) {
  const inCore = holding(coreFiles, s);
  if (!inCore.length) {
    errors.push(
      `"${s}" is not in the installed core's dist, so this check could not fail`,
    );
  }
  const inBundle = holding(bundle, s);
  if (inBundle.length) {
    errors.push(
      `"${s}" (core's engines) is in the bundle: ${inBundle
        .map(f => relative(dist, f))
        .join(', ')}`,
    );
  }
  console.error(
    `[install-test] "${s}": ${inCore.length} files of the installed core's dist, ${inBundle.length} of the bundle's ${bundle.length}`,
  );
}

const frontendHolders = holding(bundle, FRONTEND_STRING);
if (!frontendHolders.length) {
  errors.push(
    `Krypton's frontend ("${FRONTEND_STRING}") is not in the bundle: the app did not pick up @krypton/plugin-krypton`,
  );
}

// Every module that the bundle took from core, by the source maps' sources.
const coreModules = new Set();
for (const map of bundle.filter(f => f.endsWith('.map'))) {
  const { sources = [] } = JSON.parse(readFileSync(map, 'utf8'));
  for (const s of sources) {
    const m = /@krypton\/core\/(.*)$/.exec(s);
    if (m) coreModules.add(m[1]);
  }
}
const engineModules = [...coreModules].filter(m =>
  /(^|\/)kubernetes\//.test(m),
);
if (engineModules.length) {
  errors.push(
    `the bundle holds modules of core's engines: ${engineModules.join(', ')}`,
  );
}
if (!coreModules.size) {
  errors.push(
    'the source maps name no module of core: the structural check saw nothing',
  );
}
console.error(
  `[install-test] the bundle holds Krypton's frontend (${frontendHolders
    .map(f => relative(dist, f))
    .join(', ')}) and ${coreModules.size} modules of core, ${
    engineModules.length
  } of them from its engines: ${[...coreModules].sort().join(', ')}`,
);

if (errors.length) {
  for (const e of errors)
    console.error(`[install-test] BUNDLE CHECK FAILED: ${e}`);
  process.exit(1);
}
