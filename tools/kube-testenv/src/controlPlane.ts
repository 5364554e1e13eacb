import { spawn, ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** One principal of the test cluster, as the launcher reports it. */
export interface TestIdentity {
  key: string;
  user: string;
  groups: string[] | null;
  kubeconfig: string;
}

/** What the launcher prints once the API server is ready. */
export interface ControlPlaneState {
  server: string;
  caFile: string;
  dir: string;
  etcdUrl: string;
  pid: number;
  identities: Record<string, TestIdentity>;
  encryptionConfig?: string;
  startedInMs: number;
}

export interface ControlPlane {
  state: ControlPlaneState;
  /**
   * Restarts kube-apiserver on the same etcd and port, so that it reads its files again (an
   * encryption config whose keys were rotated); resolves once it is ready.
   */
  restartApiServer(): Promise<void>;
  stop(): Promise<void>;
}

// This package only ever runs from source in the repository, never from a bundled build.
// eslint-disable-next-line no-restricted-syntax
const repoRoot = resolve(__dirname, '../../..');

/** Where tools/kube-testenv/build.sh puts the binaries. */
export function binDir(): string {
  return (
    process.env.KUBE_TESTENV_BIN ?? join(repoRoot, '.cache/kube-testenv/bin')
  );
}

export interface StartOptions {
  /** EncryptionConfiguration file for encryption-at-rest tests. */
  encryptionConfig?: string;
  /** How long to wait for readiness. */
  timeoutMs?: number;
}

/**
 * Starts etcd and kube-apiserver through the kube-testenv launcher. The launcher's stdin is a pipe
 * that only this process holds, so if this process dies the launcher sees EOF and shuts down.
 */
export async function startControlPlane(
  options: StartOptions = {},
): Promise<ControlPlane> {
  const dir = mkdtempSync(join(tmpdir(), 'kube-testenv-'));
  // The manifests that installations deploy, so that the tests run against the same rights.
  const args = [
    '--dir',
    dir,
    '--deploy',
    join(repoRoot, 'deploy'),
    '--stop-on-stdin-eof',
    '--ephemeral',
  ];
  if (options.encryptionConfig) {
    args.push('--encryption-config', options.encryptionConfig);
  }
  const child = spawn(join(binDir(), 'kube-testenv'), args, {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', chunk => {
    stderr = (stderr + String(chunk)).slice(-4000);
  });
  const exited = new Promise<void>(res => child.once('exit', () => res()));

  const lines = createInterface({ input: child.stdout! });
  const state = await new Promise<ControlPlaneState>((res, rej) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      rej(new Error(`kube-testenv did not become ready in time: ${stderr}`));
    }, options.timeoutMs ?? 120_000);
    lines.on('line', line => {
      const prefix = 'KUBE_TESTENV_READY ';
      if (line.startsWith(prefix)) {
        clearTimeout(timer);
        res(JSON.parse(line.slice(prefix.length)) as ControlPlaneState);
      }
    });
    child.once('error', err => {
      clearTimeout(timer);
      rej(
        new Error(
          `cannot run ${join(binDir(), 'kube-testenv')} (${
            err.message
          }); build it with tools/kube-testenv/build.sh`,
        ),
      );
    });
    child.once('exit', code => {
      clearTimeout(timer);
      rej(new Error(`kube-testenv exited with ${code}: ${stderr}`));
    });
  });

  const restartApiServer = () =>
    new Promise<void>((res, rej) => {
      let settled = false;
      const onLine = (line: string) => {
        if (line !== 'KUBE_TESTENV_RESTARTED') return;
        settled = true;
        lines.off('line', onLine);
        res();
      };
      lines.on('line', onLine);
      child.once('exit', code => {
        if (settled) return;
        lines.off('line', onLine);
        rej(
          new Error(
            `kube-testenv exited with ${code} while restarting: ${stderr}`,
          ),
        );
      });
      child.kill('SIGHUP');
    });

  return {
    state,
    restartApiServer,
    stop: () => stopLauncher(child, exited, dir),
  };
}

async function stopLauncher(
  child: ChildProcess,
  exited: Promise<void>,
  dir: string,
): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    child.stdin!.end();
    const forced = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(forced);
  }
  rmSync(dir, { recursive: true, force: true });
}
