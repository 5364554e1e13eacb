import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  chownSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where Debian's postgresql package puts its server binaries; the newest major wins. */
export const POSTGRES_BIN_ENV = 'KRYPTON_POSTGRES_BIN';

/** A PostgreSQL server of the test run's own, on loopback. */
export interface Postgres {
  host: string;
  port: number;
  user: string;
  /** A knex connection object for `backend.database.connection`. */
  connection: { host: string; port: number; user: string; password: string };
  stop(): Promise<void>;
}

export function postgresBinDir(): string | undefined {
  const configured = process.env[POSTGRES_BIN_ENV];
  if (configured) return configured;
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const majors = readdirSync(base)
    .filter(v => /^\d+$/.test(v) && existsSync(join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return majors.length ? join(base, majors[0], 'bin') : undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/** Whether the server takes connections; a listening socket alone may still be starting up. */
function ready(bin: string, port: number): boolean {
  try {
    execFileSync(
      join(bin, 'pg_isready'),
      ['-q', '-h', '127.0.0.1', '-p', String(port)],
      { stdio: 'ignore' },
    );
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts a throwaway PostgreSQL: initdb into a temporary directory, then the server on a free
 * loopback port with password authentication for one superuser, and durability off (a test's
 * data is worth nothing after it). PostgreSQL refuses to run as root, so as root the server runs
 * as the `postgres` user that Debian's package creates. The data directory is removed on stop.
 */
export async function startPostgres(): Promise<Postgres> {
  const bin = postgresBinDir();
  if (!bin) {
    throw new Error(
      `PostgreSQL's server binaries were not found in /usr/lib/postgresql/<major>/bin (install Debian's postgresql package, or set ${POSTGRES_BIN_ENV})`,
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'krypton-pg-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const runAs = (command: string, args: string[]) =>
    asRoot
      ? { command: 'runuser', args: ['-u', 'postgres', '--', command, ...args] }
      : { command, args };
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    chownSync(dir, uid, gid);
  }
  const user = 'krypton';
  const password = 'krypton-test';
  const pwfile = join(dir, 'pw');
  execFileSync('sh', [
    '-c',
    `umask 077; printf %s "$1" > "$2"`,
    'sh',
    password,
    pwfile,
  ]);
  if (asRoot) execFileSync('chown', ['postgres', pwfile]);
  const init = runAs(join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    user,
    '--pwfile',
    pwfile,
    '--auth',
    'scram-sha-256',
    '--no-sync',
    '-E',
    'UTF8',
  ]);
  execFileSync(init.command, init.args, { stdio: 'pipe' });
  const port = await freePort();
  const server = runAs(join(bin, 'postgres'), [
    '-D',
    data,
    '-h',
    '127.0.0.1',
    '-p',
    String(port),
    '-k',
    dir,
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    '-c',
    'full_page_writes=off',
    '-c',
    'max_connections=200',
  ]);
  const child: ChildProcess = spawn(server.command, server.args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let log = '';
  child.stderr?.on('data', chunk => {
    log = (log + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>(resolve =>
    child.once('exit', () => resolve()),
  );
  const deadline = Date.now() + 30_000;
  while (!ready(bin, port)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`PostgreSQL did not start: ${log}`);
    }
    await new Promise(r => setTimeout(r, 100));
  }
  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      // SIGINT is PostgreSQL's fast shutdown; its whole process group goes with it.
      try {
        process.kill(-child.pid, 'SIGINT');
      } catch {
        // already gone
      }
      await Promise.race([exited, new Promise(r => setTimeout(r, 10_000))]);
      if (child.exitCode === null) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  return {
    host: '127.0.0.1',
    port,
    user,
    connection: { host: '127.0.0.1', port, user, password },
    stop,
  };
}
