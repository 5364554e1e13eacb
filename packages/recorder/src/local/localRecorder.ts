import { KubeRestResponse, KubeRestSend } from '@krypton/core';
import { KubeConfig, loadAllYaml } from '@kubernetes/client-node';
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { kubeSend } from '../kubeSend';

// This launcher runs from the repository only (tests, `./krypton start`), never from an image, so
// the repository's layout is known; the bundled launcher (cli.ts) passes its own paths.
// eslint-disable-next-line no-restricted-syntax
const RECORDER_ROOT = resolve(__dirname, '..', '..');
const DEPLOY = resolve(RECORDER_ROOT, '..', '..', 'deploy', 'recorder');
const WEBHOOKS =
  '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations';
/** The Secret that register() changes, in dry runs only, until the recorder is called. */
const PROBE = 'krypton-recorder-probe';
const secretsPath = (namespace: string) =>
  `/api/v1/namespaces/${namespace}/secrets`;
const probePath = (namespace: string) => `${secretsPath(namespace)}/${PROBE}`;
const SERVICE_ACCOUNT = {
  namespace: 'krypton-system',
  name: 'krypton-recorder',
};

/** The control plane that a local recorder records for (a kube-testenv state). */
export interface LocalControlPlane {
  server: string;
  caFile: string;
  /** The state directory; its pki/apiserver.{crt,key} serve 127.0.0.1, with the cluster's CA. */
  dir: string;
  adminKubeconfig: string;
}

/** How the API server is told to call the recorder. */
export interface WebhookRegistration {
  /** The configuration's name: several can coexist on one API server. */
  name: string;
  /** Where the API server calls; the recorder's own URL unless a test points it elsewhere. */
  url?: string;
  /** Records only in this namespace: test files share one API server. */
  namespace?: string;
  failurePolicy?: 'Fail' | 'Ignore';
}

/** One log line of the recorder (its stdout is JSON lines, never values). */
export type RecorderLogLine = Record<string, unknown>;

export interface LocalRecorder {
  url: string;
  /** The recorder's process, for a bench that reads its CPU time and memory. */
  pid: number;
  /** Every line the recorder logged so far. */
  log: RecorderLogLine[];
  /**
   * Writes the webhook configuration of deploy/recorder/webhook.yaml for this recorder and, when
   * the API server calls this recorder, waits until it does.
   */
  register(registration: WebhookRegistration): Promise<void>;
  unregister(name: string): Promise<void>;
  /** Removes what register wrote and stops the process. */
  stop(): Promise<void>;
}

/** One object of a manifest file, as YAML gives it. */
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  [field: string]: unknown;
}

/** The part of webhook.yaml that a local registration rewrites. */
interface WebhookConfigurationManifest extends Manifest {
  webhooks: Array<{
    clientConfig: { service: { path: string } };
    namespaceSelector?: { matchLabels?: Record<string, string> };
    failurePolicy?: string;
    [field: string]: unknown;
  }>;
}

/**
 * The manifests of deploy/recorder as objects. The deploy files are the source: what the local
 * recorder runs with is what an installation applies.
 */
export function recorderManifest(
  file: string,
  deployDir: string = DEPLOY,
): Manifest[] {
  return loadAllYaml(readFileSync(join(deployDir, file), 'utf8')) as Manifest[];
}

/**
 * deploy/recorder/webhook.yaml, with the API server calling `url` (verified with the local
 * control plane's CA) instead of the in-cluster Service, optionally scoped to one namespace.
 */
export function webhookConfiguration(
  registration: WebhookRegistration & { url: string; caBundle: string },
  deployDir: string = DEPLOY,
): Manifest {
  const [config] = recorderManifest(
    'webhook.yaml',
    deployDir,
  ) as WebhookConfigurationManifest[];
  return {
    ...config,
    metadata: { name: registration.name, labels: config.metadata.labels },
    webhooks: config.webhooks.map(webhook => {
      const path = webhook.clientConfig.service.path;
      const scoped = registration.namespace
        ? {
            namespaceSelector: {
              ...webhook.namespaceSelector,
              matchLabels: {
                ...webhook.namespaceSelector?.matchLabels,
                'kubernetes.io/metadata.name': registration.namespace,
              },
            },
          }
        : {};
      return {
        ...webhook,
        ...scoped,
        clientConfig: {
          url: `${registration.url}${path}`,
          caBundle: registration.caBundle,
        },
        failurePolicy: registration.failurePolicy ?? webhook.failurePolicy,
      };
    }),
  };
}

/** The bundle of the recorder's entry point: what the image runs (scripts/bundle.js). */
export function bundleRecorder(outfile: string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { bundle } = require(join(RECORDER_ROOT, 'scripts', 'bundle.js')) as {
    bundle(out: string): string;
  };
  return bundle(outfile);
}

/**
 * Runs the recorder as an installation does, on a local control plane: its ServiceAccount and
 * rights from deploy/recorder, a token of that ServiceAccount, the bundled entry point started
 * with plain Node, serving TLS on loopback with a certificate that the API server trusts.
 */
export async function startLocalRecorder(
  plane: LocalControlPlane,
  options: {
    /** A bundle built already; by default one is built into a temporary directory. */
    bundle?: string;
    /** deploy/recorder, when this module runs from a bundle rather than from its source. */
    deployDir?: string;
    historyLimit?: number;
    /** Receives each log line as it arrives, besides `log`. */
    onLog?: (line: RecorderLogLine) => void;
  } = {},
): Promise<LocalRecorder> {
  const kc = new KubeConfig();
  kc.loadFromFile(plane.adminKubeconfig);
  const admin = kubeSend(kc);
  const work = mkdtempSync(join(tmpdir(), 'krypton-recorder-'));
  const registered = new Set<string>();
  let child: ChildProcess | undefined;
  try {
    for (const object of recorderManifest(
      'service-account.yaml',
      options.deployDir,
    ))
      await applyObject(admin, object);
    const token = await serviceAccountToken(admin);
    const kubeconfig = join(work, 'kubeconfig.json');
    writeFileSync(
      kubeconfig,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          {
            name: 'local',
            cluster: {
              server: plane.server,
              'certificate-authority': plane.caFile,
            },
          },
        ],
        users: [{ name: 'krypton-recorder', user: { token } }],
        contexts: [
          {
            name: 'local',
            context: { cluster: 'local', user: 'krypton-recorder' },
          },
        ],
        'current-context': 'local',
      }),
      { mode: 0o600 },
    );
    const bundle = options.bundle ?? bundleRecorder(join(work, 'recorder.cjs'));
    const log: RecorderLogLine[] = [];
    child = spawn(process.execPath, [bundle], {
      env: {
        PATH: process.env.PATH,
        KUBECONFIG: kubeconfig,
        KRYPTON_RECORDER_TLS_CERT: join(plane.dir, 'pki', 'apiserver.crt'),
        KRYPTON_RECORDER_TLS_KEY: join(plane.dir, 'pki', 'apiserver.key'),
        KRYPTON_RECORDER_HOST: '127.0.0.1',
        KRYPTON_RECORDER_PORT: '0',
        ...(options.historyLimit === undefined
          ? {}
          : { KRYPTON_HISTORY_LIMIT: String(options.historyLimit) }),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const url = await new Promise<string>((resolveUrl, reject) => {
      const lines = createInterface({ input: child!.stdout! });
      lines.on('line', text => {
        let line: RecorderLogLine;
        try {
          line = JSON.parse(text);
        } catch {
          return;
        }
        log.push(line);
        options.onLog?.(line);
        if (line.event === 'listening') resolveUrl(String(line.url));
        if (line.event === 'failed')
          reject(new Error(`the recorder did not start: ${line.message}`));
      });
      child!.once('exit', code =>
        reject(
          new Error(`the recorder exited with ${code} before it listened`),
        ),
      );
    });
    const caBundle = readFileSync(plane.caFile).toString('base64');
    const probes = new Set<string>();
    /**
     * The API server applies a new webhook configuration a moment after it is written: dry-run
     * changes of a managed probe Secret until the recorder is called for one. A dry run writes
     * nothing (the webhook's sideEffects are NoneOnDryRun), so the probe gains no history.
     */
    const untilCalled = async (namespace: string) => {
      if (!probes.has(namespace)) {
        const res = await admin({
          method: 'POST',
          path: secretsPath(namespace),
          resource: 'secrets',
          body: {
            metadata: {
              name: PROBE,
              labels: { 'krypton.io/managed-by': 'krypton' },
            },
            type: 'Opaque',
          },
        });
        if (res.status !== 409) expect(res, 201, `create ${PROBE}`);
        probes.add(namespace);
      }
      const called = () =>
        log.some(l => l.namespace === namespace && l.name === PROBE);
      for (let i = 0; i < 200 && !called(); i++) {
        await admin({
          method: 'PATCH',
          path: probePath(namespace),
          query: { dryRun: 'All' },
          contentType: 'application/merge-patch+json',
          resource: 'secrets',
          body: { data: { probe: Buffer.from(String(i)).toString('base64') } },
        });
        if (!called()) await new Promise(r => setTimeout(r, 50));
      }
      if (!called())
        throw new Error(`the webhook did not take effect in ${namespace}`);
    };
    const recorder: LocalRecorder = {
      url,
      pid: child.pid!,
      log,
      async register(registration) {
        await recorder.unregister(registration.name);
        registered.add(registration.name);
        expect(
          await admin({
            method: 'POST',
            path: WEBHOOKS,
            resource: 'mutatingwebhookconfigurations',
            body: webhookConfiguration(
              { ...registration, url: registration.url ?? url, caBundle },
              options.deployDir,
            ),
          }),
          201,
          `register webhook ${registration.name}`,
        );
        if (registration.url === undefined)
          await untilCalled(
            registration.namespace ?? SERVICE_ACCOUNT.namespace,
          );
      },
      async unregister(name) {
        registered.delete(name);
        const res = await admin({
          method: 'DELETE',
          path: `${WEBHOOKS}/${name}`,
          resource: 'mutatingwebhookconfigurations',
        });
        if (res.status !== 404) expect(res, 200, `remove webhook ${name}`);
      },
      async stop() {
        try {
          for (const name of [...registered]) await recorder.unregister(name);
          // Once no webhook calls the recorder, deleting a probe records nothing.
          for (const namespace of probes)
            await admin({
              method: 'DELETE',
              path: probePath(namespace),
              resource: 'secrets',
            });
        } finally {
          await stopChild(child);
          rmSync(work, { recursive: true, force: true });
        }
      },
    };
    return recorder;
  } catch (err) {
    await stopChild(child);
    rmSync(work, { recursive: true, force: true });
    throw err;
  }
}

function expect(res: KubeRestResponse, status: number, what: string) {
  if (res.status !== status)
    throw new Error(`could not ${what}: the API server answered ${res.status}`);
  return res.body;
}

async function applyObject(admin: KubeRestSend, object: Manifest) {
  const apiVersion = object.apiVersion;
  const base = apiVersion.includes('/')
    ? `/apis/${apiVersion}`
    : `/api/${apiVersion}`;
  const plural: Record<string, string> = {
    ServiceAccount: 'serviceaccounts',
    ClusterRole: 'clusterroles',
    ClusterRoleBinding: 'clusterrolebindings',
  };
  const resource = plural[object.kind];
  if (!resource) throw new Error(`cannot apply a ${object.kind}`);
  const ns = object.metadata.namespace;
  const path = ns
    ? `${base}/namespaces/${ns}/${resource}`
    : `${base}/${resource}`;
  const res = await admin({ method: 'POST', path, body: object, resource });
  if (res.status === 409) {
    expect(
      await admin({
        method: 'PUT',
        path: `${path}/${object.metadata.name}`,
        body: object,
        resource,
      }),
      200,
      `update ${object.kind} ${object.metadata.name}`,
    );
  } else {
    expect(res, 201, `create ${object.kind} ${object.metadata.name}`);
  }
}

async function serviceAccountToken(admin: KubeRestSend): Promise<string> {
  const body = expect(
    await admin({
      method: 'POST',
      path: `/api/v1/namespaces/${SERVICE_ACCOUNT.namespace}/serviceaccounts/${SERVICE_ACCOUNT.name}/token`,
      resource: 'serviceaccounts/token',
      body: {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: { expirationSeconds: 24 * 3600 },
      },
    }),
    201,
    'request a token of the recorder ServiceAccount',
  ) as { status: { token: string } };
  return body.status.token;
}

async function stopChild(child: ChildProcess | undefined) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>(done => child.once('exit', () => done()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
