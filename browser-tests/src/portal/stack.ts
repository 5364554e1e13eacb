import { ChildProcess, execFile, spawn } from 'node:child_process';
import {
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { ControlPlane, binDir, startControlPlane } from '@krypton/kube-testenv';
import { freePort } from './ports';

// The suite only ever runs from source in the repository.
// eslint-disable-next-line no-restricted-syntax
export const repoRoot = resolve(__dirname, '../../..');

/** What the test files get from the global setup, through STACK_ENV. */
export interface PortalStackInfo {
  appUrl: string;
  backendUrl: string;
  adminKubeconfig: string;
  kubectl: string;
  /** The control plane's address, CA and state directory, for a file that runs the recorder. */
  controlPlane: { server: string; caFile: string; dir: string };
  /** The API server's name for the admin of adminKubeconfig. */
  adminUser: string;
  /** Screenshots and the portal's log go here (ignored by git). */
  artifactsDir: string;
  /**
   * Where the first signed-in browser context of this stack keeps the guest's browser state for
   * the later ones; absent, every context signs in through the sign-in page.
   */
  signInStateFile?: string;
}

export const STACK_ENV = 'KRYPTON_BROWSER_STACK';

export interface PortalStack {
  info: PortalStackInfo;
  stop(): Promise<void>;
}

const execFileAsync = promisify(execFile);

async function waitFor(
  what: string,
  probe: () => Promise<boolean>,
  portal: ChildProcess,
  logFile: string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (portal.exitCode !== null || portal.signalCode !== null) {
      throw new Error(`the portal exited before ${what}; see ${logFile}`);
    }
    if (await probe().catch(() => false)) return;
    await new Promise(r => setTimeout(r, 250));
  }
  throw new Error(`${what} did not happen in ${timeoutMs} ms; see ${logFile}`);
}

/**
 * The environment of `./krypton start`, not jest's: NODE_ENV=test would select a browserslist
 * environment that the app does not define.
 */
function portalEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, BROWSER: 'none' };
  delete env.NODE_ENV;
  for (const key of Object.keys(env)) {
    if (key.startsWith('JEST_')) delete env[key];
  }
  return env;
}

/** Ends the portal's whole process group: yarn, backstage-cli, the dev server and the backend. */
async function stopGroup(portal: ChildProcess): Promise<void> {
  const pid = portal.pid;
  if (!pid) return;
  const alive = () => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!alive()) return;
  process.kill(-pid, 'SIGTERM');
  for (let i = 0; i < 50 && alive(); i++) {
    await new Promise(r => setTimeout(r, 200));
  }
  if (alive()) process.kill(-pid, 'SIGKILL');
}

/**
 * Starts what `./krypton start` starts, on ports of its own: a local control plane seeded with the
 * demo namespace, and the example portal (dev server and backend) signed in through the guest
 * provider. The portal runs in a process group of its own so that stop() ends all of it.
 */
export async function startPortalStack(): Promise<PortalStack> {
  const artifactsDir = join(repoRoot, 'browser-tests/artifacts');
  mkdirSync(artifactsDir, { recursive: true });
  const workDir = join(repoRoot, '.cache/browser-tests');
  mkdirSync(workDir, { recursive: true });
  // A sign-in belongs to the portal that issued it: each stack starts without one.
  const signInStateFile = join(workDir, 'guest-sign-in.json');
  rmSync(signInStateFile, { force: true });

  let controlPlane: ControlPlane | undefined;
  let portal: ChildProcess | undefined;
  const onExit = () => {
    // A crashed test run must not leave the portal behind; the control plane stops by itself
    // when this process's end of its stdin closes.
    if (portal?.pid) {
      try {
        process.kill(-portal.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };
  process.once('exit', onExit);
  const stop = async () => {
    process.off('exit', onExit);
    if (portal) await stopGroup(portal);
    if (controlPlane) await controlPlane.stop();
  };

  try {
    controlPlane = await startControlPlane();
    const state = controlPlane.state;
    const kubectl = join(binDir(), 'kubectl');
    const adminKubeconfig = state.identities.admin.kubeconfig;
    // The portal reads nothing of the demo namespace while it starts: seed it meanwhile.
    const seeded = execFileAsync(kubectl, [
      '--kubeconfig',
      adminKubeconfig,
      'apply',
      '-f',
      join(repoRoot, 'examples/demo-cluster.yaml'),
    ]).then(() =>
      // The workloads' pods, as a kubelet would run them (none runs here).
      execFileAsync(process.execPath, [
        join(repoRoot, 'examples/demo-pods.mjs'),
        kubectl,
        adminKubeconfig,
      ]),
    );
    // Awaited below; until then, a failure is kept for that await rather than left unhandled.
    seeded.catch(() => undefined);

    const [appPort, backendPort] = [await freePort(), await freePort()];
    const appUrl = `http://localhost:${appPort}`;
    const backendUrl = `http://localhost:${backendPort}`;
    const kryptonKubeconfig = JSON.parse(
      readFileSync(state.identities.krypton.kubeconfig, 'utf8'),
    ) as { users: { user: { token: string } }[] };
    const configFile = join(workDir, 'app-config.browser.json');
    const config = {
      app: { baseUrl: appUrl },
      backend: {
        baseUrl: backendUrl,
        listen: { port: backendPort },
        cors: { origin: appUrl },
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
                serviceAccountToken: kryptonKubeconfig.users[0].user.token,
                caFile: state.caFile,
              },
            ],
          },
        ],
      },
    };
    writeFileSync(configFile, JSON.stringify(config, null, 2), {
      mode: 0o600,
    });

    const logFile = join(artifactsDir, 'portal.log');
    const log = openSync(logFile, 'w');
    portal = spawn(
      'yarn',
      [
        'backstage-cli',
        'repo',
        'start',
        '--config',
        join(repoRoot, 'app-config.yaml'),
        '--config',
        configFile,
      ],
      {
        cwd: repoRoot,
        detached: true,
        stdio: ['ignore', log, log],
        env: portalEnv(),
      },
    );
    const started = portal;
    await waitFor(
      'the backend answering',
      async () =>
        (
          await fetch(`${backendUrl}/.backstage/health/v1/readiness`)
        ).ok,
      started,
      logFile,
      240_000,
    );
    // The dev server answers once its first compilation is done.
    await waitFor(
      'the dev server serving the app',
      async () => {
        const res = await fetch(appUrl);
        return res.ok && (await res.text()).includes('<div id="root">');
      },
      started,
      logFile,
      300_000,
    );
    await seeded;
    return {
      info: {
        appUrl,
        backendUrl,
        adminKubeconfig,
        kubectl,
        controlPlane: {
          server: state.server,
          caFile: state.caFile,
          dir: state.dir,
        },
        adminUser: state.identities.admin.user,
        artifactsDir,
        signInStateFile,
      },
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}
