import {
  AuditorService,
  AuditorServiceEventSeverityLevel,
  BackstageCredentials,
  BackstageUserPrincipal,
} from '@backstage/backend-plugin-api';
import { JsonObject } from '@backstage/types';
import { OwnedEdit, describeOwner } from '@krypton/core';
import { Request } from 'express';
import { timed } from '../diagnostics/serverTiming';
import { toKryptonError } from '../errors';

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
  recreate: { eventId: 'secret-recreate', severityLevel: 'high' },
  delete: { eventId: 'secret-delete', severityLevel: 'high' },
  restart: { eventId: 'secret-restart', severityLevel: 'high' },
  ownerSync: { eventId: 'secret-owner-sync', severityLevel: 'high' },
  storageRewrite: { eventId: 'storage-rewrite', severityLevel: 'high' },
  changeRequest: { eventId: 'secret-change-request', severityLevel: 'high' },
  changeApprove: { eventId: 'change-request-approve', severityLevel: 'high' },
  changeReject: { eventId: 'change-request-reject', severityLevel: 'medium' },
  changeWithdraw: {
    eventId: 'change-request-withdraw',
    severityLevel: 'medium',
  },
  changeBypass: { eventId: 'change-request-bypass', severityLevel: 'high' },
  changeDiff: { eventId: 'change-request-diff', severityLevel: 'medium' },
  changeExpire: { eventId: 'change-request-expire', severityLevel: 'low' },
  changeInterrupted: {
    eventId: 'change-request-interrupted',
    severityLevel: 'high',
  },
  storageRewriteCancel: {
    eventId: 'storage-rewrite-cancel',
    severityLevel: 'high',
  },
} as const satisfies Record<string, AuditEvent>;

/** Who an audit event is about: the HTTP request, or for a call without one, the user. */
export interface AuditOrigin {
  request?: Request;
  credentials: BackstageCredentials<BackstageUserPrincipal>;
}

/** Wraps a service's work in audit events: initiated, then succeeded or failed with a fixed message. */
export function createAudited(auditor: AuditorService) {
  /**
   * Runs a mutation or value read inside an audit event whose meta never holds values. A run that
   * completes can still be recorded as failed (`outcome`), as a partial restart is.
   */
  return async function audited<T>(
    origin: AuditOrigin,
    event: AuditEvent,
    eventMeta: Record<string, string>,
    run: () => Promise<{
      result: T;
      meta?: JsonObject;
      outcome?: Error;
    }>,
  ): Promise<T> {
    // The auditor reads the actor from the request; a call without one (an action) names the
    // user in the meta instead, so that no event is without its actor.
    const meta = origin.request
      ? eventMeta
      : { ...eventMeta, actor: origin.credentials.principal.userEntityRef };
    const recorded = await timed('audit', () =>
      auditor.createEvent({
        eventId: event.eventId,
        severityLevel: event.severityLevel,
        request: origin.request,
        meta,
      }),
    );
    let out;
    try {
      out = await run();
    } catch (err) {
      await timed('audit', () =>
        recorded.fail({ error: toKryptonError(err), meta }),
      );
      throw err;
    }
    const done = { ...meta, ...out.meta };
    await timed('audit', () =>
      out.outcome
        ? recorded.fail({ error: out.outcome, meta: done })
        : recorded.success({ meta: done }),
    );
    return out.result;
  };
}

/**
 * What an audit event records of an admitted edit of a Secret that another tool owns: the owner
 * that may undo it and the user's reason. Empty for any other edit, whose request's reason, if it
 * sent one, is ignored and not recorded.
 */
export function ownedEditMeta(
  owned: OwnedEdit | undefined,
): Record<string, string> {
  return owned
    ? {
        ownedEditReason: owned.reason,
        ownedBy: describeOwner(owned.owner),
        ownerTool: owned.owner.tool,
      }
    : {};
}
