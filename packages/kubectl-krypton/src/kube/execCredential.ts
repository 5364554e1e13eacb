import { spawn } from 'node:child_process';
import { CliError } from '../cli/errors';
import { ExecConfig, KubeTarget } from './kubeconfig';

/** What an exec plugin handed back: a bearer token, or a client certificate and key. */
export interface ExecCredential {
  token?: string;
  clientCert?: Buffer;
  clientKey?: Buffer;
  /** When it stops being valid; absent means for the life of this process. */
  expiresAt?: number;
}

/** A plugin's answer larger than this is not a credential. */
const MAX_EXEC_OUTPUT_BYTES = 1024 * 1024;

/** A plugin that waits for no one gets this long; an interactive login gets as long as it takes. */
const EXEC_DEADLINE_MS = 60_000;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function execInfo(
  exec: ExecConfig,
  target: KubeTarget,
  interactive: boolean,
): string {
  const spec: Record<string, unknown> = { interactive };
  if (exec.provideClusterInfo) {
    spec.cluster = {
      server: target.server,
      'tls-server-name': target.tlsServerName,
      'insecure-skip-tls-verify': target.insecureSkipTlsVerify,
      'certificate-authority-data': target.ca?.toString('base64'),
    };
  }
  return JSON.stringify({
    apiVersion: exec.apiVersion,
    kind: 'ExecCredential',
    spec,
  });
}

/**
 * Runs the kubeconfig's exec plugin as kubectl does (client-go's exec authenticator): the
 * plugin's stdout is an ExecCredential, its stderr goes to the user, and its stdin is the
 * terminal's only when it may ask. Its output never reaches a message: it holds the credential.
 */
export async function runExecPlugin(
  target: KubeTarget,
  stdinIsTerminal: boolean,
  env: NodeJS.ProcessEnv,
): Promise<ExecCredential> {
  const exec = target.exec!;
  const interactive =
    exec.interactiveMode === 'Always' ||
    (exec.interactiveMode === 'IfAvailable' && stdinIsTerminal);
  if (exec.interactiveMode === 'Always' && !stdinIsTerminal)
    throw new CliError(
      'credentials',
      `The credential plugin ${exec.command} needs a terminal to ask on (interactiveMode Always).`,
    );
  const childEnv: NodeJS.ProcessEnv = { ...env };
  for (const { name, value } of exec.env) childEnv[name] = value;
  childEnv.KUBERNETES_EXEC_INFO = execInfo(exec, target, interactive);

  const output = await new Promise<Buffer>((resolve, reject) => {
    const child = spawn(exec.command, exec.args, {
      env: childEnv,
      stdio: [interactive ? 'inherit' : 'ignore', 'pipe', 'inherit'],
    });
    const chunks: Buffer[] = [];
    let bytes = 0;
    const timer = interactive
      ? undefined
      : setTimeout(() => {
          child.kill();
          reject(
            new CliError(
              'credentials',
              `The credential plugin ${exec.command} did not answer within 60 s.`,
            ),
          );
        }, EXEC_DEADLINE_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > MAX_EXEC_OUTPUT_BYTES) child.kill();
      else chunks.push(chunk);
    });
    child.on('error', err => {
      clearTimeout(timer);
      const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
      reject(
        new CliError(
          'credentials',
          missing
            ? `The credential plugin ${exec.command} is not installed.${
                exec.installHint
                  ? ` ${exec.installHint.replace(/\s+/g, ' ').trim()}`
                  : ''
              }`
            : `The credential plugin ${exec.command} could not be started.`,
        ),
      );
    });
    child.on('close', code => {
      clearTimeout(timer);
      if (code === 0 && bytes <= MAX_EXEC_OUTPUT_BYTES)
        resolve(Buffer.concat(chunks));
      else
        reject(
          new CliError(
            'credentials',
            `The credential plugin ${exec.command} failed (exit ${code}); run it yourself to see why.`,
          ),
        );
    });
  });

  let parsed: unknown;
  try {
    parsed = JSON.parse(output.toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const status =
    isRecord(parsed) &&
    parsed.kind === 'ExecCredential' &&
    isRecord(parsed.status)
      ? parsed.status
      : undefined;
  const str = (value: unknown) =>
    typeof value === 'string' && value !== '' ? value : undefined;
  const token = str(status?.token);
  const cert = str(status?.clientCertificateData);
  const key = str(status?.clientKeyData);
  if (!status || (!token && !(cert && key)))
    throw new CliError(
      'credentials',
      `The credential plugin ${exec.command} printed no ExecCredential with a token or a client certificate and key.`,
    );
  const expiry = str(status.expirationTimestamp);
  const expiresAt = expiry ? Date.parse(expiry) : NaN;
  return {
    token,
    clientCert: cert ? Buffer.from(cert, 'utf8') : undefined,
    clientKey: key ? Buffer.from(key, 'utf8') : undefined,
    expiresAt: Number.isNaN(expiresAt) ? undefined : expiresAt,
  };
}
