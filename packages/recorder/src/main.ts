import { KubeConfig } from '@kubernetes/client-node';
import {
  DEFAULT_ANNOTATION_PREFIX,
  RestKubeGateway,
  SecretRecorder,
  parseHistoryLimit,
} from '@krypton/core';
import { readFileSync, unwatchFile, watchFile } from 'node:fs';
import { stdoutLog } from './log';
import { kubeSend } from './kubeSend';
import { startRecorderServer } from './server';

/** What the recorder reads from its environment. */
export interface RecorderEnvironment {
  KRYPTON_RECORDER_TLS_CERT?: string;
  KRYPTON_RECORDER_TLS_KEY?: string;
  KRYPTON_RECORDER_PORT?: string;
  KRYPTON_RECORDER_HOST?: string;
  KRYPTON_ANNOTATION_PREFIX?: string;
  KRYPTON_HISTORY_LIMIT?: string;
  KUBECONFIG?: string;
}

/** Each Kubernetes request of a review gets at most this long. */
const KUBE_DEADLINE_MS = 2_000;

/** How often the certificate files are checked for a renewal. */
const CERT_POLL_MS = 30_000;

function required(env: RecorderEnvironment, name: keyof RecorderEnvironment) {
  const value = env[name];
  if (!value) throw new Error(`${name} must be set`);
  return value;
}

/**
 * Starts the recorder from its environment: TLS from files (served only over TLS), its identity
 * from KUBECONFIG or the Pod's ServiceAccount, and the same prefix and history limit as
 * Krypton's backend, which the recorder's snapshots must match.
 */
export async function main(env: RecorderEnvironment = process.env) {
  const kc = new KubeConfig();
  if (env.KUBECONFIG) kc.loadFromFile(env.KUBECONFIG);
  else kc.loadFromCluster();
  const port = Number(env.KRYPTON_RECORDER_PORT ?? '8443');
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error('KRYPTON_RECORDER_PORT must be a port number');
  // An invalid limit denies every recorded write with the spec's 503, as the backend does, rather
  // than leaving the webhook unreachable.
  const historyLimit = parseHistoryLimit(env.KRYPTON_HISTORY_LIMIT);
  if (!historyLimit.ok)
    stdoutLog({ event: 'configuration', error: historyLimit.error });
  const recorder = new SecretRecorder({
    gateway: new RestKubeGateway(
      kubeSend(kc, { deadlineMs: KUBE_DEADLINE_MS }),
    ),
    annotationPrefix:
      env.KRYPTON_ANNOTATION_PREFIX ?? DEFAULT_ANNOTATION_PREFIX,
    historyLimit,
  });
  const certFile = required(env, 'KRYPTON_RECORDER_TLS_CERT');
  const keyFile = required(env, 'KRYPTON_RECORDER_TLS_KEY');
  const readTls = () => ({
    cert: readFileSync(certFile),
    key: readFileSync(keyFile),
  });
  const server = await startRecorderServer({
    recorder,
    tls: readTls(),
    port,
    host: env.KRYPTON_RECORDER_HOST ?? '0.0.0.0',
    log: stdoutLog,
  });
  // A mounted certificate Secret is renewed in place (cert-manager, or an operator's rotation),
  // and the kubelet swaps the files under the mount: serve the new pair without a restart.
  const reload = () => {
    try {
      server.setCertificate(readTls());
      stdoutLog({ event: 'certificate-reloaded' });
    } catch (err) {
      // Half-written files, or a pair that does not match: keep serving the previous one.
      stdoutLog({
        event: 'certificate-reload-failed',
        message: String((err as Error).message),
      });
    }
  };
  for (const file of [certFile, keyFile])
    watchFile(file, { interval: CERT_POLL_MS }, reload).unref();
  stdoutLog({ event: 'listening', url: server.url });
  const stop = () => {
    for (const file of [certFile, keyFile]) unwatchFile(file);
    server.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  return server;
}

if (require.main === module) {
  main().catch(err => {
    stdoutLog({ event: 'failed', message: String((err as Error).message) });
    process.exit(1);
  });
}
