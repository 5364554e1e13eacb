import {
  KUBE_MAX_RESPONSE_BYTES,
  KUBE_REQUEST_DEADLINE_MS,
  KubeApiError,
  KubeRestRequest,
  KubeRestSend,
  KRYPTON_FIELD_MANAGER,
} from '@krypton/core';
import { ClusterRequest, KubeQuery } from './clusterRequest';

export interface HeadlampSendOptions {
  /** Headlamp's name of the cluster. */
  cluster: string;
  /** Headlamp's `ApiProxy.clusterRequest`, or a stand-in in tests. */
  request: ClusterRequest;
  /**
   * Overall deadline of one request, from sending it to the end of its answer;
   * KUBE_REQUEST_DEADLINE_MS, the server's default, when absent.
   */
  deadlineMs?: number;
}

/** The part of a fetch Response that is read. */
interface Answer {
  status: number;
  body: ReadableStream<Uint8Array> | null;
}

function isAnswer(value: unknown): value is Answer {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { status?: unknown }).status === 'number' &&
    'body' in value
  );
}

/**
 * Writes name Krypton as their field manager. The server's transport does it with its
 * User-Agent, which a browser may not set; without it, managedFields and Krypton's "last change"
 * would name the browser.
 */
const WRITES: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

/**
 * What a rejected clusterRequest means, as the server's transport would have said it. Headlamp
 * keeps only the status of a failed answer, so the one reason the engines branch on is rebuilt
 * from the request: Kubernetes answers a create whose name is taken with 409 AlreadyExists, and
 * any other write with 409 Conflict (a UID or resourceVersion precondition that no longer holds).
 */
export function kubeErrorOfRejection(
  err: unknown,
  method: KubeRestRequest['method'],
): KubeApiError {
  if (err instanceof KubeApiError) return err;
  const status =
    typeof err === 'object' && err !== null
      ? (err as { status?: unknown }).status
      : undefined;
  // Thrown before any answer (no fetch, or a failure inside Headlamp): nothing is known.
  if (typeof status !== 'number' || !Number.isInteger(status))
    return new KubeApiError(0, 'Network');
  switch (status) {
    // Headlamp's own abort at the deadline; Kubernetes reports its timeouts as 504.
    case 408:
      return new KubeApiError(0, 'Timeout');
    // clusterRequest's failed fetch, and Headlamp's server (a Go reverse proxy) when the API
    // server did not answer: a write may or may not have landed, as after a reset connection.
    case 502:
      return new KubeApiError(0, 'Network');
    case 409:
      return new KubeApiError(
        409,
        method === 'POST' ? 'AlreadyExists' : 'Conflict',
      );
    default:
      return new KubeApiError(status);
  }
}

/**
 * Reads an answer within the byte budget and the time left: past either it is abandoned, as the
 * server's transport abandons it, so a huge list page fails instead of filling the tab's memory.
 */
async function readAnswer(
  answer: Answer,
  maxBytes: number,
  deadline: number,
): Promise<{ body: unknown; bytes: number }> {
  if (!answer.body) return { body: undefined, bytes: 0 };
  const reader = answer.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let timedOut = false;
  const abandon = () => reader.cancel().catch(() => undefined);
  const timer = setTimeout(() => {
    timedOut = true;
    abandon();
  }, Math.max(0, deadline - Date.now()));
  try {
    for (;;) {
      let step: ReadableStreamReadResult<Uint8Array>;
      try {
        step = await reader.read();
      } catch {
        throw new KubeApiError(0, timedOut ? 'Timeout' : 'Network');
      }
      if (timedOut) throw new KubeApiError(0, 'Timeout');
      if (step.done) break;
      bytes += step.value.byteLength;
      if (bytes > maxBytes) {
        abandon();
        throw new KubeApiError(0, 'ResponseTooLarge');
      }
      chunks.push(step.value);
    }
  } finally {
    clearTimeout(timer);
  }
  const all = new Uint8Array(bytes);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  const text = new TextDecoder().decode(all);
  let body: unknown;
  if (text.length > 0) {
    try {
      body = JSON.parse(text);
    } catch {
      // An unusable body is RestKubeGateway's to judge, as on the server.
      body = undefined;
    }
  }
  return { body, bytes };
}

/**
 * Sends the requests of the core's RestKubeGateway through Headlamp's API proxy. Headlamp's server
 * adds the user's credentials (its cookie or token), so every request acts as the signed-in user,
 * as the server's `impersonation` mode does; the budgets are the server's.
 */
export function headlampSend(options: HeadlampSendOptions): KubeRestSend {
  const deadlineMs = options.deadlineMs ?? KUBE_REQUEST_DEADLINE_MS;
  return async req => {
    const deadline = Date.now() + deadlineMs;
    const headers: Record<string, string> = {
      Accept: req.accept ?? 'application/json',
    };
    let body: string | undefined;
    if (req.body !== undefined) {
      body = JSON.stringify(req.body);
      headers['Content-Type'] = req.contentType ?? 'application/json';
    }
    const query: KubeQuery = {};
    for (const [key, value] of Object.entries(req.query ?? {})) {
      if (value !== undefined) query[key] = value;
    }
    if (WRITES.has(req.method)) query.fieldManager = KRYPTON_FIELD_MANAGER;
    let answer: unknown;
    try {
      answer = await options.request(
        req.path,
        {
          cluster: options.cluster,
          method: req.method,
          isJSON: false,
          autoLogoutOnAuthError: false,
          timeout: deadlineMs,
          headers,
          body,
        },
        Object.keys(query).length > 0 ? query : undefined,
      );
    } catch (err) {
      throw kubeErrorOfRejection(err, req.method);
    }
    if (!isAnswer(answer)) throw new KubeApiError(0, 'MalformedResponse');
    const read = await readAnswer(
      answer,
      req.maxResponseBytes ?? KUBE_MAX_RESPONSE_BYTES,
      deadline,
    );
    return { status: answer.status, ...read };
  };
}
