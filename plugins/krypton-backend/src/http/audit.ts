import {
  AuditorService,
  AuditorServiceEventSeverityLevel,
} from '@backstage/backend-plugin-api';
import { Request } from 'express';
import { toKryptonError } from './errorHandler';

/** An audit event of Krypton's, with the severity it is recorded at. */
export interface AuditEvent {
  eventId: string;
  severityLevel: AuditorServiceEventSeverityLevel;
}

export const AUDIT_EVENTS = {
  read: { eventId: 'secret-read', severityLevel: 'medium' },
  create: { eventId: 'secret-create', severityLevel: 'high' },
  update: { eventId: 'secret-update', severityLevel: 'high' },
  adopt: { eventId: 'secret-adopt', severityLevel: 'high' },
  versionRead: { eventId: 'secret-version-read', severityLevel: 'medium' },
  restore: { eventId: 'secret-restore', severityLevel: 'high' },
  delete: { eventId: 'secret-delete', severityLevel: 'high' },
} as const satisfies Record<string, AuditEvent>;

/** Wraps route work in audit events: initiated, then succeeded or failed with a fixed message. */
export function createAudited(auditor: AuditorService) {
  /** Runs a mutation or value read inside an audit event whose meta never holds values. */
  return async function audited<T>(
    req: Request,
    event: AuditEvent,
    meta: Record<string, string>,
    run: () => Promise<{
      result: T;
      meta?: Record<string, string | number | boolean>;
    }>,
  ): Promise<T> {
    const recorded = await auditor.createEvent({
      eventId: event.eventId,
      severityLevel: event.severityLevel,
      request: req,
      meta,
    });
    try {
      const out = await run();
      await recorded.success({ meta: { ...meta, ...out.meta } });
      return out.result;
    } catch (err) {
      await recorded.fail({ error: toKryptonError(err), meta });
      throw err;
    }
  };
}
