import { LoggerService } from '@backstage/backend-plugin-api';
import {
  KubeApiError,
  KubeRestRequest,
  KubeRestResponse,
  RestKubeGateway,
  sanitizeReason,
} from '@krypton/core';
import { Impersonation, KubeTransport, KubeTransportError } from './transport';

const LOCAL_REASON = {
  network: 'Network',
  timeout: 'Timeout',
  too_large: 'ResponseTooLarge',
} as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * KubeGateway over the Kubernetes REST API, for one identity: with an impersonation, every
 * request acts as that user and groups; without, as the transport's own identity (Krypton's).
 * Requests and answers are the core's RestKubeGateway; this adds the transport and the logging.
 * Failures that point at the deployment rather than the request (Krypton's credentials refused,
 * outages, timeouts) are logged with their status and fixed reason, never with a body.
 */
export class HttpKubeGateway extends RestKubeGateway {
  constructor(
    transport: KubeTransport,
    logger: LoggerService,
    impersonate?: Impersonation,
  ) {
    super(async (req: KubeRestRequest): Promise<KubeRestResponse> => {
      let res: KubeRestResponse;
      try {
        res = await transport.request({ ...req, impersonate });
      } catch (err) {
        if (!(err instanceof KubeTransportError)) throw err;
        const reason = LOCAL_REASON[err.reason];
        if (err.reason !== 'too_large') report(logger, req, 0, reason);
        throw new KubeApiError(0, reason);
      }
      // No call expects these statuses, so each of them fails the call.
      if (res.status === 401 || res.status >= 500) {
        const reason = sanitizeReason(
          isObject(res.body) ? res.body.reason : undefined,
        );
        report(logger, req, res.status, reason);
      }
      return res;
    });
  }
}

function report(
  logger: LoggerService,
  req: KubeRestRequest,
  status: number,
  reason: string | undefined,
) {
  const what =
    status === 401
      ? "Krypton's Kubernetes credentials were refused"
      : 'Kubernetes is unavailable';
  logger.error(
    `${what}: ${req.method} ${req.resource} answered ${status || 'nothing'} (${
      reason ?? 'no reason'
    })`,
    {
      code: status === 401 ? 'credentials_refused' : 'unavailable',
      status,
      reason: reason ?? '',
    },
  );
}
