import type { ChangeRequestState } from '@krypton/core';

/**
 * The signals channel on which Krypton announces changes to one live Secret.
 *
 * The signals backend delivers a broadcast to every connection that subscribed to the channel,
 * and it lets any connection subscribe to any channel. So the channel is named by the Secret's
 * uid, which only those who may read the Secret's metadata learn (the summary and list routes
 * answer it), rather than by its name, which anyone could guess. A Secret deleted and created
 * again under the same name gets a new uid, so a page of the old one is never told about the new.
 *
 * @public
 */
export function secretSignalChannel(uid: string): string {
  return `krypton:secret:${uid}`;
}

/**
 * What Krypton signals after it updated, restored or deleted a Secret: where it is, what
 * happened, and its new revision. Never a value, a key or who did it.
 *
 * @public
 */
export type SecretChangedSignal = {
  cluster: string;
  namespace: string;
  name: string;
  event: 'update' | 'restore' | 'delete';
  /** The Secret's resourceVersion after the change; null once it is deleted. */
  resourceVersion: string | null;
  /** Krypton's version counter after the change; null when deleted, or unreadable. */
  version: number | null;
};

/**
 * The signals channel on which Krypton announces that a change request was made or moved. Each
 * signal goes to the request's requester and approvers only (by their user and group refs), so
 * one channel serves every request.
 *
 * @public
 */
export const CHANGE_REQUEST_SIGNAL_CHANNEL = 'krypton:change-requests';

/**
 * What Krypton signals when a change request is made or changes state: which request, on which
 * Secret, and its state now. Never a value.
 *
 * @public
 */
export type ChangeRequestSignal = {
  cluster: string;
  namespace: string;
  name: string;
  id: string;
  state: ChangeRequestState;
};
