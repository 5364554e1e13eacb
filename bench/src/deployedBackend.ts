import {
  ControlPlaneState,
  kubeConfigFor,
  testClusterState,
} from '@krypton/kube-testenv';
import { ChildProcess, execFile, spawn } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

// The bench only runs from source in the repository.
// eslint-disable-next-line no-restricted-syntax
const repoRoot = resolve(__dirname, '../..');
const workDir = join(repoRoot, '.cache/bench/deployed');
const execFileAsync = promisify(execFile);

/** jest's environment without what would change how the app or the backend is built and run. */
function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  if (!extra.NODE_ENV) delete env.NODE_ENV;
  for (const key of Object.keys(env)) {
    if (key.startsWith('JEST_') || key.startsWith('KRYPTON_')) delete env[key];
  }
  return env;
}

/**
 * Builds the example backend as a deployment does (`backstage-cli package build` of
 * packages/backend: its bundle holds the backend and the built Krypton packages, with the app's
 * production build) and unpacks it under .cache/bench/deployed. The unpacked packages resolve
 * Krypton's packages to their built copies through a node_modules of their own, and everything
 * else from the repository's node_modules, as `yarn workspaces focus --production` would install.
 */
export async function buildDeployedBackend(): Promise<string> {
  await execFileAsync('yarn', ['workspace', 'backend', 'build'], {
    cwd: repoRoot,
    env: cleanEnv(),
    maxBuffer: 64 * 1024 * 1024,
  });
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(join(workDir, 'node_modules/@krypton'), { recursive: true });
  await execFileAsync('tar', [
    '-xzf',
    join(repoRoot, 'packages/backend/dist/bundle.tar.gz'),
    '-C',
    workDir,
  ]);
  for (const [link, target] of [
    [
      'node_modules/@krypton/plugin-krypton-backend',
      '../../plugins/krypton-backend',
    ],
    [
      'node_modules/@krypton/plugin-krypton-common',
      '../../plugins/krypton-common',
    ],
    ['node_modules/@krypton/core', '../../packages/core'],
    ['node_modules/app', '../packages/app'],
  ]) {
    symlinkSync(target, join(workDir, link));
  }
  return workDir;
}

async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const server = createServer();
    server.once('error', rej);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? res(address.port)
          : rej(new Error('no port')),
      );
    });
  });
}

/** process.memoryUsage() of the backend, in bytes. */
export interface BackendMemory {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}

/** What the backend held since the previous `peak()`. */
export interface BackendMemoryPeak {
  /** The highest of each figure sampled every 20 ms, garbage included. */
  sampled: BackendMemory;
  /** The highest of each figure right after the periodic full collections (all 0 without). */
  collected: BackendMemory;
  /** How many periodic full collections ran, and their time in milliseconds. */
  collections: number;
  collectionMs: number;
  /** The memory when `peak()` answered. */
  now: BackendMemory;
}

/**
 * The memory of the backend seen from inside its process (see memoryProbe.js): the resident set
 * also holds V8's and the allocator's free pages, which they need not give back.
 */
export interface BackendMemoryProbe {
  /** Full collections now; the memory that survives them, what the backend keeps. */
  collect(): Promise<BackendMemory>;
  /** Full collections every `ms` from now on, each followed by a sample; 0 stops them. */
  collectEvery(ms: number): Promise<void>;
  /** The peaks since the previous call; sampling starts again. */
  peak(): Promise<BackendMemoryPeak>;
}

export interface DeployedBackend {
  url: string;
  /** A Backstage token of the example's guest, `user:default/guest` of `group:default/team-a`. */
  guestToken: string;
  /** CPU time (user + system) the backend process has used so far, in milliseconds. */
  cpuMs(): number;
  /** The backend process's resident set now (VmRSS of /proc/<pid>/status), in bytes. */
  rssBytes(): number;
  /** Present when started with `memoryProbe`. */
  memoryProbe?: BackendMemoryProbe;
  stop(): Promise<void>;
}

/** Clock ticks per second of /proc/<pid>/stat on Linux. */
const CLOCK_TICKS = 100;

function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may hold blanks; the fields after its closing parenthesis do not.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1000) / CLOCK_TICKS;
}

function rssBytesOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  return Number(kib) * 1024;
}

/**
 * The bench's side of memoryProbe.js: each command is renamed into <dir>/cmd (so the probe never
 * reads half of one), and its answer is the line of <dir>/out with the same sequence number.
 */
function memoryProbeIn(dir: string): BackendMemoryProbe {
  let seq = 0;
  const ask = async (command: string): Promise<unknown> => {
    const mine = String(++seq);
    writeFileSync(join(dir, 'cmd.next'), `${mine} ${command}`);
    renameSync(join(dir, 'cmd.next'), join(dir, 'cmd'));
    const until = Date.now() + 60_000;
    while (Date.now() < until) {
      await new Promise(r => setTimeout(r, 50));
      let out: string;
      try {
        out = readFileSync(join(dir, 'out'), 'utf8');
      } catch {
        continue;
      }
      // The last element is the line being written, if any.
      for (const line of out.split('\n').slice(0, -1)) {
        const answer = JSON.parse(line) as { seq: string; result: unknown };
        if (answer.seq !== mine) continue;
        const error = (answer.result as { error?: string }).error;
        if (error) throw new Error(`memory probe: ${error}`);
        return answer.result;
      }
    }
    throw new Error(`the memory probe did not answer "${command}" in 60 s`);
  };
  return {
    collect: async () => (await ask('gc')) as BackendMemory,
    collectEvery: async ms => {
      await ask(`collectEvery ${ms}`);
    },
    peak: async () => {
      const result = (await ask('peak')) as {
        sampled: BackendMemory;
        collected: { memory: BackendMemory; collections: number; ms: number };
        now: BackendMemory;
      };
      return {
        sampled: result.sampled,
        collected: result.collected.memory,
        collections: result.collected.collections,
        collectionMs: result.collected.ms,
        now: result.now,
      };
    },
  };
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise(r => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts the unpacked example backend with `NODE_ENV=production` and the example's app-config
 * (impersonation mode, the permission backend with the example policy, notifications, the auditor
 * on the root logger, SQLite in memory), on the test run's control plane with Krypton's token.
 * `krypton` is merged into the example's `krypton` block; Server-Timing is on, so that each answer
 * says where its time went. `memoryProbe` preloads memoryProbe.js (with `--expose-gc`), which
 * only samples process.memoryUsage() until the bench asks it for more.
 */
export async function startDeployedBackend(
  dir: string,
  name: string,
  krypton: Record<string, unknown> = {},
  /** Another control plane than the test run's (one with encryption at rest, for example). */
  controlPlane?: ControlPlaneState,
  options: { memoryProbe?: boolean } = {},
): Promise<DeployedBackend> {
  const state = controlPlane ?? testClusterState();
  const port = await freePort();
  const url = `http://localhost:${port}`;
  // The launcher writes its kubeconfigs as JSON, one user with its token each.
  const token = controlPlane
    ? (
        JSON.parse(
          readFileSync(controlPlane.identities.krypton.kubeconfig, 'utf8'),
        ) as { users: Array<{ user: { token: string } }> }
      ).users[0].user.token
    : kubeConfigFor('krypton').getCurrentUser()!.token!;
  const configFile = join(dir, `app-config.${name}.json`);
  writeFileSync(
    configFile,
    JSON.stringify({
      backend: { baseUrl: url, listen: { port } },
      auth: {
        providers: {
          guest: {
            userEntityRef: 'user:default/guest',
            // The example signs in as its guest; a production build refuses that unless told.
            dangerouslyAllowOutsideDevelopment: true,
          },
        },
      },
      catalog: {
        locations: [
          { type: 'file', target: join(repoRoot, 'examples/entities.yaml') },
        ],
      },
      kubernetes: {
        clusterLocatorMethods: [
          {
            type: 'config',
            clusters: [
              {
                name: 'local',
                url: state.server,
                authProvider: 'serviceAccount',
                serviceAccountToken: token,
                caFile: state.caFile,
              },
            ],
          },
        ],
      },
      krypton: { ...krypton, diagnostics: { serverTiming: true } },
    }),
    { mode: 0o600 },
  );
  const log = openSync(join(dir, `backend.${name}.log`), 'w');
  // KRYPTON_BENCH_CPU_PROFILE=<dir> writes a V8 CPU profile of each backend there when it stops.
  const profileDir = process.env.KRYPTON_BENCH_CPU_PROFILE;
  const probeDir = options.memoryProbe
    ? mkdtempSync(join(tmpdir(), 'krypton-memory-probe-'))
    : undefined;
  const child = spawn(
    process.execPath,
    [
      ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
      ...(probeDir
        ? [
            '--expose-gc',
            '--require',
            join(repoRoot, 'bench/src/memoryProbe.js'),
          ]
        : []),
      '.',
      '--config',
      join(repoRoot, 'app-config.yaml'),
      '--config',
      configFile,
    ],
    {
      cwd: join(dir, 'packages/backend'),
      env: cleanEnv({
        NODE_ENV: 'production',
        ...(probeDir ? { BENCH_MEMORY_PROBE_DIR: probeDir } : {}),
      }),
      stdio: ['ignore', log, log],
    },
  );
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) {
      if (probeDir) rmSync(probeDir, { recursive: true, force: true });
      throw new Error(
        `the deployed backend exited; see ${join(dir, `backend.${name}.log`)}`,
      );
    }
    const ready = await fetch(`${url}/.backstage/health/v1/readiness`)
      .then(r => r.ok)
      .catch(() => false);
    if (ready) break;
    if (Date.now() > deadline) {
      await stopProcess(child);
      if (probeDir) rmSync(probeDir, { recursive: true, force: true });
      throw new Error('the deployed backend did not become ready in 180 s');
    }
    await new Promise(r => setTimeout(r, 500));
  }
  const refresh = await fetch(`${url}/api/auth/guest/refresh?env=development`, {
    headers: { 'X-Requested-With': 'XMLHttpRequest' },
  });
  const identity = (await refresh.json()) as {
    backstageIdentity: { token: string };
  };
  return {
    url,
    guestToken: identity.backstageIdentity.token,
    cpuMs: () => cpuMsOf(child.pid!),
    rssBytes: () => rssBytesOf(child.pid!),
    ...(probeDir ? { memoryProbe: memoryProbeIn(probeDir) } : {}),
    stop: async () => {
      await stopProcess(child);
      if (probeDir) rmSync(probeDir, { recursive: true, force: true });
    },
  };
}

/** The phases of one answer's Server-Timing header, in milliseconds, with their call counts. */
export function serverTimingOf(
  header: string | string[] | undefined,
): Map<string, { ms: number; calls: number }> {
  const out = new Map<string, { ms: number; calls: number }>();
  if (typeof header !== 'string') return out;
  for (const entry of header.split(',')) {
    const [name, ...params] = entry.trim().split(';');
    const dur = params.find(p => p.startsWith('dur='));
    const desc = params.find(p => p.startsWith('desc='));
    out.set(name, {
      ms: Number(dur?.slice(4) ?? 0),
      calls: desc ? Number(desc.slice(6, -1)) : 1,
    });
  }
  return out;
}
