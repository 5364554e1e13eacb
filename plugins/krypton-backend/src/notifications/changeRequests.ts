import { LoggerService } from '@backstage/backend-plugin-api';
import { NotificationService } from '@backstage/plugin-notifications-node';
import { SignalsService } from '@backstage/plugin-signals-node';
import {
  CHANGE_REQUEST_SIGNAL_CHANNEL,
  ChangeRequestSignal,
} from '@krypton/plugin-krypton-common';
import { ChangeRequest, ChangeRequestState } from '@krypton/core';
import { NotificationSettings } from '../config';
import { NotificationPayload } from './payload';

/**
 * Tells a change request's requester and approvers that it was made or moved, and their open
 * pages (signals). Returns at once: delivery never delays, fails or changes the answer.
 */
export interface ChangeRequestNotifier {
  requestChanged(request: ChangeRequest, by: string): void;
}

const OPERATION_TEXT = {
  update: 'update',
  restore: 'restore a version of',
  delete: 'delete',
} as const;

const STATE_TITLES: Record<
  Exclude<ChangeRequestState, 'pending'>,
  (secret: string) => string
> = {
  approved: secret => `Change to ${secret} approved, being applied`,
  applied: secret => `Change to ${secret} approved and applied`,
  bypassed: secret => `Change to ${secret} applied without approval`,
  rejected: secret => `Change to ${secret} rejected`,
  withdrawn: secret => `Change to ${secret} withdrawn`,
  expired: secret => `Change to ${secret} expired`,
  stale: secret => `Change to ${secret} not applied`,
};

/** The portal's review of the request: its Secret's Changes tab, opened on it. */
export function changeRequestLink(request: ChangeRequest): string {
  const query = new URLSearchParams({
    cluster: request.cluster,
    request: request.id,
  });
  return `/krypton/secret/${request.namespace}/${request.name}/changes?${query}`;
}

/**
 * The notification of a request made or moved. It names the Secret, the operation, the state and
 * who acted, and the requester's reason or the decision's note; never a value or a key name.
 */
export function changeRequestNotification(
  request: ChangeRequest,
  by: string,
): NotificationPayload {
  const secret = `Secret ${request.namespace}/${request.name}`;
  const what = `${
    OPERATION_TEXT[request.change.operation]
  } ${secret} on cluster ${request.cluster}`;
  let title: string;
  let description: string;
  if (request.state === 'pending' && request.decisions.length === 0) {
    title = `Approval requested: ${secret}`;
    description = `${request.requestedBy} asks to ${what}${
      request.reason ? `: "${request.reason}"` : '.'
    } ${request.policy.requiredApprovals} approval(s) needed.`;
  } else if (request.state === 'pending') {
    title = `Change to ${secret} approved by ${by}`;
    description = `${by} approved the request of ${request.requestedBy} to ${what}. It waits for more approvals.`;
  } else {
    title = STATE_TITLES[request.state](secret);
    let note = '';
    if (request.ended?.note) note = ` ${request.ended.note}`;
    else if (request.bypass)
      note = ` The reason given: "${request.bypass.reason}".`;
    description = `The request of ${request.requestedBy} to ${what} is ${request.state} (by ${by}).${note}`;
  }
  return {
    title,
    description,
    link: changeRequestLink(request),
    severity:
      request.state === 'bypassed' || request.change.operation === 'delete'
        ? 'high'
        : 'normal',
    topic: 'krypton',
    // One notification per request, updated as it moves.
    scope: `krypton:change-request:${request.id}`,
  };
}

/** Who hears about a request: its requester and approvers, less the person who just acted. */
function audienceOf(request: ChangeRequest): string[] {
  return [...new Set([request.requestedBy, ...request.policy.approvers])];
}

export function createChangeRequestNotifier(options: {
  settings: NotificationSettings;
  notifications: NotificationService;
  signals: SignalsService;
  logger: LoggerService;
}): ChangeRequestNotifier {
  const { settings, notifications, signals, logger } = options;
  const warn = (what: string, request: ChangeRequest) => (err: unknown) =>
    logger.warn(
      `Could not ${what} change request ${request.id}: ${
        err instanceof Error ? err.name : 'unknown error'
      }`,
    );
  return {
    requestChanged(request, by) {
      const message: ChangeRequestSignal = {
        cluster: request.cluster,
        namespace: request.namespace,
        name: request.name,
        id: request.id,
        state: request.state,
      };
      signals
        .publish<ChangeRequestSignal>({
          recipients: { type: 'user', entityRef: audienceOf(request) },
          channel: CHANGE_REQUEST_SIGNAL_CHANNEL,
          message,
        })
        .catch(warn('signal', request));
      if (!settings.enabled || !settings.events.has('change-request')) return;
      notifications
        .send({
          recipients: {
            type: 'entity',
            entityRef: audienceOf(request),
            // The person who acted knows; Krypton's own transitions (expiry) exclude nobody.
            ...(by.startsWith('user:') ? { excludeEntityRef: by } : {}),
          },
          payload: changeRequestNotification(request, by),
        })
        .catch(warn('notify about', request));
    },
  };
}
