import { AuditorService } from '@backstage/backend-plugin-api';
import { Request } from 'express';
import { toKryptonError } from './errorHandler';

/** Wraps route work in audit events: initiated, then succeeded or failed with a fixed message. */
export function createAudited(auditor: AuditorService) {
  /** Runs a mutation or value read inside an audit event whose meta never holds values. */
  return async function audited<T>(
    req: Request,
    eventId: string,
    meta: Record<string, string>,
    run: () => Promise<{
      result: T;
      meta?: Record<string, string | number | boolean>;
    }>,
  ): Promise<T> {
    const event = await auditor.createEvent({
      eventId,
      request: req,
      severityLevel: eventId === 'secret-read' ? 'medium' : 'high',
      meta,
    });
    try {
      const out = await run();
      await event.success({ meta: { ...meta, ...out.meta } });
      return out.result;
    } catch (err) {
      await event.fail({ error: toKryptonError(err), meta });
      throw err;
    }
  };
}
