#!/usr/bin/env node
// Pins every @backstage/* package in the workspace to one Backstage release.
//
// The versions.backstage.io manifests cannot be reached from our machines, but each release
// publishes @backstage/create-app with the versions of that release compiled into it. Packages
// that create-app does not name are pinned to the highest lower bound that any pinned package
// requests, which is the version that was in the monorepo when the release was cut.
//
// Usage: node scripts/pin-backstage-release.mjs <create-app version>, then `yarn install`,
// repeated until it reports no change.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const createAppVersion = process.argv[2];
if (!createAppVersion) {
  console.error('usage: pin-backstage-release.mjs <create-app version>');
  process.exit(2);
}
const root = new URL('..', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'create-app-'));
execFileSync('npm', ['pack', '--silent', `@backstage/create-app@${createAppVersion}`], { cwd: dir });
execFileSync('tar', ['xzf', readdirSync(dir).find(f => f.endsWith('.tgz'))], { cwd: dir });

const release = {};
for (const [group, prefix] of [['packages', ''], ['plugins', 'plugin-']]) {
  const base = join(dir, 'package', 'dist', group);
  for (const name of readdirSync(base)) {
    const src = readFileSync(join(base, name, 'package.json.cjs.js'), 'utf8');
    release[`@backstage/${prefix}${name}`] = /var version = "([^"]+)"/.exec(src)[1];
  }
}

const lock = readFileSync(join(root, 'yarn.lock'), 'utf8');
const cmp = (a, b) => {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
};
// Lockfile entries of @backstage packages: resolved version and @backstage dependency floors.
const entries = [];
for (const block of lock.split(/\n(?=")/)) {
  const name = /^"(@backstage\/[a-z0-9-]+)@/.exec(block)?.[1];
  const version = /\n  version: (\S+)/.exec(block)?.[1];
  if (!name || !version) continue;
  const deps = [...block.matchAll(/\n    "(@backstage\/[a-z0-9-]+)": "npm:[\^~]?(\d+\.\d+\.\d+)"/g)];
  entries.push({ name, version, deps: deps.map(m => [m[1], m[2]]) });
}
// Only packages that are themselves at their release version vouch for a dependency's version.
const pins = { ...release };
for (let changed = true; changed; ) {
  changed = false;
  for (const e of entries) {
    if (pins[e.name] !== e.version) continue;
    for (const [dep, floor] of e.deps) {
      if (release[dep]) continue;
      if (!pins[dep] || cmp(floor, pins[dep]) > 0) {
        pins[dep] = floor;
        changed = true;
      }
    }
  }
}

const pkgPath = join(root, 'package.json');
const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
const before = JSON.stringify(pkg.resolutions);
const resolutions = Object.fromEntries(
  Object.entries(pkg.resolutions ?? {}).filter(([k]) => !k.startsWith('@backstage/')),
);
const used = new Set([...lock.matchAll(/^"(@backstage\/[a-z0-9-]+)@/gm)].map(m => m[1]));
for (const name of [...used].sort()) {
  const version = pins[name];
  if (version) resolutions[name] = version;
}
pkg.resolutions = resolutions;
writeFileSync(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
console.log(before === JSON.stringify(resolutions) ? 'no change' : 'resolutions updated; run yarn install again');
