import {
  ADMISSION_REVIEW_VERSION,
  RecorderVerdict,
  SecretRecorder,
  parseAdmissionReview,
} from '@krypton/core';
import http from 'node:http';
import https from 'node:https';
import { AddressInfo } from 'node:net';
import { timingKube } from './kubeClock';
import { RecorderLog } from './log';

/** The path that the webhook configuration calls. */
export const RECORD_PATH = '/record';

/** The path of the Pod's readiness and liveness probes: the server is up and serving TLS. */
export const HEALTH_PATH = '/healthz';

/**
 * The largest review accepted. A Secret is at most about 1 MiB stored; a review carries it twice
 * (object and oldObject) as JSON, plus the request's metadata.
 */
export const MAX_REVIEW_BYTES = 6 * 1024 * 1024;

/** How long one review may take: well within the webhook's timeoutSeconds (5). */
export const REVIEW_DEADLINE_MS = 3_000;

const LATE = {
  allowed: false,
  status: 503,
  message:
    'The recorder could not save the history in time, so the Secret was not changed. Try again.',
  outcome: 'denied',
} as const;

export interface RecorderServerOptions {
  recorder: SecretRecorder;
  tls: { cert: string | Buffer; key: string | Buffer };
  port?: number;
  host?: string;
  log: RecorderLog;
}

export interface RecorderServer {
  url: string;
  /** Serves new connections with a renewed certificate (cert-manager rotates it in place). */
  setCertificate(tls: { cert: string | Buffer; key: string | Buffer }): void;
  close(): Promise<void>;
}

function answer(
  res: http.ServerResponse,
  status: number,
  body: Record<string, unknown>,
) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  res.end(text);
}

function review(uid: string, verdict: RecorderVerdict) {
  const response: Record<string, unknown> = { uid, allowed: verdict.allowed };
  if (!verdict.allowed) {
    response.status = { code: verdict.status, message: verdict.message };
  } else if (verdict.patch.length > 0) {
    response.patchType = 'JSONPatch';
    response.patch = Buffer.from(JSON.stringify(verdict.patch)).toString(
      'base64',
    );
  }
  return {
    apiVersion: ADMISSION_REVIEW_VERSION,
    kind: 'AdmissionReview',
    response,
  };
}

/** Reads a whole body within the byte limit; undefined when it is larger. */
function readBody(req: http.IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > MAX_REVIEW_BYTES) over = true;
      if (!over) chunks.push(chunk);
    });
    req.on('end', () => resolve(over ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * The recorder's HTTPS endpoint. It only translates: an AdmissionReview in, the core's verdict
 * out. Anything that is not a usable review is a 4xx with `{ error }`, and every review is
 * answered within its deadline.
 */
export async function startRecorderServer(
  options: RecorderServerOptions,
): Promise<RecorderServer> {
  const { recorder, log } = options;
  const server = https.createServer(
    {
      cert: options.tls.cert,
      key: options.tls.key,
      minVersion: 'TLSv1.2',
      // A client that never finishes its request holds no socket for long.
      requestTimeout: REVIEW_DEADLINE_MS,
      headersTimeout: REVIEW_DEADLINE_MS,
    },
    async (req, res) => {
      const started = process.hrtime.bigint();
      try {
        const path = req.url?.split('?')[0];
        if (path === HEALTH_PATH && req.method === 'GET') {
          answer(res, 200, { status: 'ok' });
          return;
        }
        if (path !== RECORD_PATH) {
          answer(res, 404, { error: 'Not found.' });
          return;
        }
        if (req.method !== 'POST') {
          res.setHeader('Allow', 'POST');
          answer(res, 405, { error: 'Only POST is served.' });
          return;
        }
        const type = (req.headers['content-type'] ?? '').split(';')[0].trim();
        if (type !== 'application/json') {
          answer(res, 415, { error: 'The review must be application/json.' });
          return;
        }
        const raw = await readBody(req);
        if (!raw) {
          answer(res, 413, { error: 'The review is too large.' });
          return;
        }
        let body: unknown;
        try {
          body = JSON.parse(raw.toString('utf8'));
        } catch {
          answer(res, 400, { error: 'The body is not JSON.' });
          return;
        }
        const parsed = parseAdmissionReview(body);
        if (parsed.kind === 'malformed') {
          log({ event: 'review', outcome: 'malformed' });
          answer(res, 400, { error: parsed.message });
          return;
        }
        if (parsed.kind === 'other') {
          answer(
            res,
            200,
            review(parsed.uid, {
              allowed: true,
              patch: [],
              outcome: 'not-recorded',
            }),
          );
          return;
        }
        const { admission } = parsed;
        // The core answers every Kubernetes failure with a verdict; anything else it throws is a
        // fault of the recorder, which must not admit an unrecorded change.
        const { value: verdict, kubeMs } = await timingKube(() =>
          withDeadline(
            recorder.decide(admission).catch((): RecorderVerdict => LATE),
          ),
        );
        log({
          event: 'review',
          operation: admission.operation,
          namespace: admission.namespace,
          name: admission.name,
          outcome: verdict.outcome,
          ...(verdict.allowed ? {} : { status: verdict.status }),
          ms: Number(process.hrtime.bigint() - started) / 1e6,
          // Of which waiting for Kubernetes: the rest is the recorder's own work.
          kubeMs,
        });
        answer(res, 200, review(admission.uid, verdict));
      } catch {
        // Only the server's own faults reach here (a socket that closed mid-body): the review is
        // unanswerable and the webhook's failure policy decides.
        if (!res.headersSent)
          answer(res, 400, { error: 'The review could not be read.' });
      }
    },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () =>
      resolve(),
    );
  });
  const { port, address } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `https://${host}:${port}`,
    setCertificate: tls =>
      server.setSecureContext({
        cert: tls.cert,
        key: tls.key,
        minVersion: 'TLSv1.2',
      }),
    close: () =>
      new Promise<void>(resolve => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The verdict, or a 503 denial when the cluster does not answer in time. */
async function withDeadline(
  decision: Promise<RecorderVerdict>,
): Promise<RecorderVerdict> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<RecorderVerdict>(resolve => {
    timer = setTimeout(() => resolve(LATE), REVIEW_DEADLINE_MS);
  });
  try {
    return await Promise.race([decision, late]);
  } finally {
    clearTimeout(timer);
  }
}
