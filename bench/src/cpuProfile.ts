import { readFileSync } from 'node:fs';
import { formatColumns } from './measure';

/** A V8 CPU profile as `node --cpu-prof` writes it (timestamps in µs of the monotonic clock). */
interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }>;
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A stretch of the bench, in µs of the monotonic clock that V8's profiles also use. */
export interface ProfileWindow {
  name: string;
  fromUs: number;
  toUs: number;
}

/** Now, in µs of the monotonic clock (process.hrtime and V8's profiler read the same one). */
export const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/** The package a script belongs to, from its URL. */
export function packageOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node';
  const krypton = /\/plugins\/(krypton[^/]*)\//.exec(url);
  if (krypton && !url.includes('/node_modules/'))
    return `@krypton/${krypton[1]}`;
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const [scope, name] = url.slice(modules + 14).split('/');
    return scope.startsWith('@') ? `${scope}/${name}` : scope;
  }
  if (url.includes('/packages/backend/')) return 'example backend';
  return url;
}

/** Whose code a package is: Backstage's, Krypton's, or neither (Node, libraries, V8). */
function ownerOf(pkg: string): 'Backstage' | 'Krypton' | undefined {
  if (pkg.startsWith('@backstage/') || pkg === 'example backend')
    return 'Backstage';
  if (pkg.startsWith('@krypton/')) return 'Krypton';
  return undefined;
}

/**
 * The CPU time of one profile inside a window, by function and by package (self time), and by
 * owner: each sample goes to the nearest Backstage or Krypton frame on its stack, so that a
 * library (jose, winston, zod, express) counts for whoever called it. Samples whose stack holds
 * neither (the HTTP parser, timers, the garbage collector) are named by their leaf.
 */
export function summarizeCpuProfile(
  file: string,
  window: ProfileWindow,
  options: { top?: number; perUnit?: { count: number; unit: string } } = {},
): { cpuMs: number; text: string } {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map(n => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes)
    for (const c of n.children ?? []) parent.set(c, n.id);
  const pkgOf = (id: number) => {
    const frame = byId.get(id)!.callFrame;
    return packageOf(frame.url, frame.functionName);
  };
  const owners = new Map<number, string>();
  const ownerOfNode = (id: number): string => {
    const known = owners.get(id);
    if (known) return known;
    let owner: string | undefined;
    for (
      let at: number | undefined = id;
      at !== undefined;
      at = parent.get(at)
    ) {
      owner = ownerOf(pkgOf(at));
      if (owner) break;
    }
    const leaf = pkgOf(id);
    const named = owner ?? (leaf.startsWith('(') ? leaf : `no owner: ${leaf}`);
    owners.set(id, named);
    return named;
  };

  const self = new Map<number, number>();
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    // A sample stands for the time until the next one.
    const next = profile.timeDeltas[i + 1] ?? 0;
    if (t < window.fromUs || t >= window.toUs) continue;
    const id = profile.samples[i];
    if (byId.get(id)!.callFrame.functionName === '(idle)') continue;
    self.set(id, (self.get(id) ?? 0) + next);
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const add = (m: Map<string, number>, k: string, us: number) =>
    m.set(k, (m.get(k) ?? 0) + us);
  const functions = new Map<string, number>();
  const packages = new Map<string, number>();
  const byOwner = new Map<string, number>();
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const pkg = pkgOf(id);
    add(
      functions,
      `${functionName || '(anonymous)'} ${pkg}${
        url ? `:${lineNumber + 1}` : ''
      }`,
      us,
    );
    add(packages, pkg, us);
    add(byOwner, ownerOfNode(id), us);
  }
  const top = options.top ?? 15;
  const per = options.perUnit;
  const rows = (m: Map<string, number>, n: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, us]) => [
        k,
        (us / 1000).toFixed(0),
        ((100 * us) / total).toFixed(1),
        ...(per ? [(us / 1000 / per.count).toFixed(2)] : []),
      ]);
  const header = (first: string) => [
    first,
    'CPU ms',
    '%',
    ...(per ? [`ms/${per.unit}`] : []),
  ];
  const text = [
    formatColumns(
      `CPU profile ${file}, ${window.name}: ${(total / 1000).toFixed(
        0,
      )} ms sampled${
        per
          ? ` (${(total / 1000 / per.count).toFixed(2)} ms per ${per.unit})`
          : ''
      }. By owner (the nearest Backstage or Krypton frame on the stack):`,
      header('owner'),
      rows(byOwner, 20),
    ),
    formatColumns(
      'By package (self time):',
      header('package'),
      rows(packages, top),
    ),
    formatColumns(
      'By function (self time):',
      header('function'),
      rows(functions, top),
    ),
  ].join('\n\n');
  return { cpuMs: total / 1000, text };
}
