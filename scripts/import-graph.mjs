#!/usr/bin/env node
// The import graph of Krypton's sources (tests and test helpers left out): its cycles, and its
// back edges (imports that a depth-first walk meets while the imported module is still open,
// so each one closes a cycle). Type-only imports count: they tie modules together for a reader
// as much as value imports do.
//   node scripts/import-graph.mjs [repository root]
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(
  process.argv[2] ?? join(dirname(new URL(import.meta.url).pathname), '..'),
);
const SOURCE_ROOTS = ['packages', 'plugins', 'tools'];
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]/g;
const TEST = /\.(test|vitest|browser)\.tsx?$|__testUtils__|setupTests\.ts$/;

function walk(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap(name => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(path).isDirectory()) return walk(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') && !TEST.test(path)
      ? [path]
      : [];
  });
}

// Workspace packages by name, with their entry points, so that @krypton/* imports resolve.
const entries = new Map();
for (const top of SOURCE_ROOTS) {
  if (!existsSync(join(root, top))) continue;
  for (const name of readdirSync(join(root, top))) {
    const pkgPath = join(root, top, name, 'package.json');
    if (!existsSync(pkgPath)) continue;
    const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
    const exportsMap = pkg.exports ?? { '.': pkg.main ?? 'src/index.ts' };
    for (const [sub, target] of Object.entries(exportsMap)) {
      if (typeof target !== 'string' || !/\.tsx?$/.test(target)) continue;
      entries.set(
        sub === '.' ? pkg.name : `${pkg.name}${sub.slice(1)}`,
        join(root, top, name, target),
      );
    }
  }
}

function resolveImport(from, spec) {
  if (entries.has(spec)) return entries.get(spec);
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(from), spec);
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    join(base, 'index.ts'),
    join(base, 'index.tsx'),
  ])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return undefined;
}

const files = SOURCE_ROOTS.flatMap(top => walk(join(root, top))).filter(f =>
  f.includes('/src/'),
);
const known = new Set(files);
const edges = new Map(files.map(f => [f, []]));
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(IMPORT)) {
    const target = resolveImport(file, m[1]);
    if (target && known.has(target) && target !== file)
      edges.get(file).push(target);
  }
}

// Back edges of an iterative depth-first walk, in a fixed order so that runs compare.
const state = new Map();
const backEdges = [];
for (const start of [...files].sort()) {
  if (state.has(start)) continue;
  const stack = [[start, 0]];
  state.set(start, 'open');
  while (stack.length) {
    const top = stack[stack.length - 1];
    const next = edges.get(top[0])[top[1]++];
    if (next === undefined) {
      state.set(top[0], 'done');
      stack.pop();
    } else if (!state.has(next)) {
      state.set(next, 'open');
      stack.push([next, 0]);
    } else if (state.get(next) === 'open') backEdges.push([top[0], next]);
  }
}

// Cycles as strongly connected components (Tarjan), iteratively.
let index = 0;
const idx = new Map(),
  low = new Map(),
  onStack = new Set(),
  sccStack = [],
  cycles = [];
for (const v of [...files].sort()) {
  if (idx.has(v)) continue;
  const work = [[v, 0]];
  idx.set(v, index);
  low.set(v, index++);
  sccStack.push(v);
  onStack.add(v);
  while (work.length) {
    const frame = work[work.length - 1];
    const [node] = frame;
    const next = edges.get(node)[frame[1]++];
    if (next !== undefined) {
      if (!idx.has(next)) {
        idx.set(next, index);
        low.set(next, index++);
        sccStack.push(next);
        onStack.add(next);
        work.push([next, 0]);
      } else if (onStack.has(next))
        low.set(node, Math.min(low.get(node), idx.get(next)));
      continue;
    }
    work.pop();
    if (work.length)
      low.set(
        work[work.length - 1][0],
        Math.min(low.get(work[work.length - 1][0]), low.get(node)),
      );
    if (low.get(node) === idx.get(node)) {
      const scc = [];
      let w;
      do {
        w = sccStack.pop();
        onStack.delete(w);
        scc.push(w);
      } while (w !== node);
      if (scc.length > 1) cycles.push(scc.sort());
    }
  }
}

const rel = f => relative(root, f);
console.log(
  `${files.length} source files, ${[...edges.values()].reduce(
    (n, e) => n + e.length,
    0,
  )} imports between them`,
);
console.log(`cycles: ${cycles.length}`);
for (const c of cycles) console.log(`  ${c.map(rel).join(' <-> ')}`);
console.log(`back edges: ${backEdges.length}`);
for (const [a, b] of backEdges) console.log(`  ${rel(a)} -> ${rel(b)}`);
process.exitCode = cycles.length ? 1 : 0;
