import {
  KUBE_MAX_RESPONSE_BYTES,
  KUBE_REQUEST_DEADLINE_MS,
  KubeApiError,
  KubeRestRequest,
  KubeRestResponse,
  KubeRestSend,
} from '@krypton/core';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { CliError } from '../cli/errors';
import { ExecCredential, runExecPlugin } from './execCredential';
import { KubeTarget } from './kubeconfig';

/** The terminal's transport, and what it saw, for error messages and the bench. */
export interface CliTransport {
  send: KubeRestSend;
  /** Requests sent, retries included. */
  readonly requests: number;
  /** The API server answered 401 to a request (credentials expired or refused). */
  readonly refusedCredentials: boolean;
  /**
   * Why credentials could not be had (a plugin missing or failing, a token file unreadable): the
   * engines see only a failed request, so the command's message comes from here.
   */
  readonly credentialFailure: CliError | undefined;
  close(): void;
}

export interface TransportOptions {
  deadlineMs?: number;
  userAgent: string;
  stdinIsTerminal: boolean;
  env: NodeJS.ProcessEnv;
}

interface Credentials {
  token?: string;
  cert?: Buffer;
  key?: Buffer;
  expiresAt?: number;
}

/**
 * Sends the core's requests to the kubeconfig's API server with the user's own credentials, on
 * one keep-alive agent, within the core's deadline and byte budgets. An exec plugin runs once per
 * process, again only when its credential expires or the API server refuses it.
 */
export function cliTransport(
  target: KubeTarget,
  options: TransportOptions,
): CliTransport {
  const deadlineMs = options.deadlineMs ?? KUBE_REQUEST_DEADLINE_MS;
  let requests = 0;
  let refusedCredentials = false;
  let credentialFailure: CliError | undefined;
  let credentials: Promise<Credentials> | undefined;
  let agent: https.Agent | undefined;
  let agentFor: Credentials | undefined;

  const fromExec = (c: ExecCredential): Credentials => ({
    token: c.token,
    cert: c.clientCert,
    key: c.clientKey,
    expiresAt: c.expiresAt,
  });

  function readCredentials(): Promise<Credentials> {
    return acquire().catch(err => {
      if (err instanceof CliError) credentialFailure ??= err;
      throw err;
    });
  }

  async function acquire(): Promise<Credentials> {
    if (target.exec && !target.token && !target.tokenFile && !target.clientCert)
      return fromExec(
        await runExecPlugin(target, options.stdinIsTerminal, options.env),
      );
    let token = target.token;
    if (!token && target.tokenFile) {
      try {
        token = readFileSync(target.tokenFile, 'utf8').trim();
      } catch {
        throw new CliError(
          'config',
          `Cannot read the token file ${target.tokenFile}.`,
        );
      }
    }
    return { token, cert: target.clientCert, key: target.clientKey };
  }

  async function current(): Promise<Credentials> {
    credentials ??= readCredentials();
    const c = await credentials;
    // A minute early, so that a credential does not expire between the check and the answer.
    if (c.expiresAt !== undefined && c.expiresAt - 60_000 < Date.now()) {
      credentials = readCredentials();
      return credentials;
    }
    return c;
  }

  function agentWith(c: Credentials): https.Agent {
    if (agent && agentFor === c) return agent;
    agent?.destroy();
    agentFor = c;
    agent = new https.Agent({
      keepAlive: true,
      maxSockets: 8,
      ca: target.ca,
      cert: c.cert,
      key: c.key,
      rejectUnauthorized: !target.insecureSkipTlsVerify,
      servername: target.tlsServerName,
    });
    return agent;
  }

  async function once(
    request: KubeRestRequest,
    c: Credentials,
  ): Promise<KubeRestResponse> {
    const url = new URL(target.server + request.path);
    for (const [k, v] of Object.entries(request.query ?? {})) {
      if (v !== undefined) url.searchParams.set(k, v);
    }
    // Sent with its length: Node neither frames a DELETE's body as chunks nor sizes it.
    const payload =
      request.body === undefined
        ? undefined
        : Buffer.from(JSON.stringify(request.body), 'utf8');
    const maxBytes = request.maxResponseBytes ?? KUBE_MAX_RESPONSE_BYTES;
    requests++;
    return new Promise<KubeRestResponse>((resolve, reject) => {
      const req = https.request(url, {
        agent: agentWith(c),
        method: request.method,
        headers: {
          Accept: request.accept ?? 'application/json',
          'User-Agent': options.userAgent,
          ...(c.token ? { Authorization: `Bearer ${c.token}` } : {}),
          ...(payload === undefined
            ? {}
            : {
                'Content-Type': request.contentType ?? 'application/json',
                'Content-Length': String(payload.length),
              }),
        },
      });
      let settled = false;
      const timer = setTimeout(() => fail('Timeout'), deadlineMs);
      function fail(reason: 'Network' | 'Timeout' | 'ResponseTooLarge') {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.destroy();
        reject(new KubeApiError(0, reason));
      }
      req.on('error', () => fail('Network'));
      req.on('response', res => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes > maxBytes) fail('ResponseTooLarge');
          else chunks.push(chunk);
        });
        res.on('error', () => fail('Network'));
        res.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, body, bytes });
        });
      });
      req.end(payload);
    });
  }

  return {
    async send(request) {
      const c = await current();
      const answer = await once(request, c);
      if (answer.status !== 401) return answer;
      // A plugin's credential can be revoked before its stated expiry: ask it once more.
      if (target.exec && credentials) {
        credentials = readCredentials();
        const retried = await once(request, await credentials);
        if (retried.status !== 401) return retried;
      }
      refusedCredentials = true;
      return answer;
    },
    get requests() {
      return requests;
    },
    get refusedCredentials() {
      return refusedCredentials;
    },
    get credentialFailure() {
      return credentialFailure;
    },
    close() {
      agent?.destroy();
    },
  };
}
