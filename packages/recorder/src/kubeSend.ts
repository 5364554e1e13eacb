import { KubeConfig } from '@kubernetes/client-node';
import {
  KUBE_MAX_RESPONSE_BYTES,
  KUBE_REQUEST_DEADLINE_MS,
  KubeApiError,
  KubeRestRequest,
  KubeRestResponse,
  KubeRestSend,
} from '@krypton/core';
import https from 'node:https';
import { addKubeTime } from './kubeClock';

/**
 * The recorder's transport: one identity's credentials from a kubeconfig (in a cluster, the
 * ServiceAccount's token file, which client-node re-reads as the kubelet rotates it), on
 * keep-alive connections, within the core's deadline and byte budgets.
 */
export function kubeSend(
  kc: KubeConfig,
  options: { deadlineMs?: number } = {},
): KubeRestSend {
  const server = kc.getCurrentCluster()?.server;
  if (!server) throw new Error('The kubeconfig names no cluster server.');
  const agent = new https.Agent({ keepAlive: true, maxSockets: 16 });
  const deadlineMs = options.deadlineMs ?? KUBE_REQUEST_DEADLINE_MS;

  return async (request: KubeRestRequest): Promise<KubeRestResponse> => {
    const url = new URL(server + request.path);
    for (const [k, v] of Object.entries(request.query ?? {})) {
      if (v !== undefined) url.searchParams.set(k, v);
    }
    const tls: https.RequestOptions = {};
    await kc.applyToHTTPSOptions(tls);
    // Sent with its length: Node neither frames a DELETE's body as chunks nor sizes it, and the
    // API server would read the DeleteOptions (the preconditions) as the connection's next
    // request instead.
    const payload =
      request.body === undefined
        ? undefined
        : Buffer.from(JSON.stringify(request.body), 'utf8');
    const maxBytes = request.maxResponseBytes ?? KUBE_MAX_RESPONSE_BYTES;
    const started = process.hrtime.bigint();
    const answer = new Promise<KubeRestResponse>((resolve, reject) => {
      const req = https.request(url, {
        ...tls,
        agent,
        method: request.method,
        headers: {
          ...tls.headers,
          Accept: request.accept ?? 'application/json',
          'User-Agent': 'krypton-recorder',
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
    return answer.finally(() =>
      addKubeTime(Number(process.hrtime.bigint() - started) / 1e6),
    );
  };
}
