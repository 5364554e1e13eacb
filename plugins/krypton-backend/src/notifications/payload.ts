import { NotificationSendOptions } from '@backstage/plugin-notifications-node';
import { LinkedSecretFacts } from '@krypton/plugin-krypton-common';
import {
  DeleteResult,
  OwnedEdit,
  RestartStatus,
  describeOwner,
} from '@krypton/core';
import { NotificationEvent } from '../config';
import { SecretAudience } from './audience';

/** What happened to the Secret: the operation and the facts of its outcome, never a value. */
export type SecretChangeEvent =
  | { event: 'update'; version: number | null; resourceVersion: string }
  | {
      event: 'restore';
      restoredVersion: number;
      version: number | null;
      resourceVersion: string;
    }
  | ({ event: 'delete' } & DeleteResult)
  | {
      event: 'restart';
      status: RestartStatus;
      requested: number;
      failed: number;
    };

/** One operation's outcome on one live Secret, and who made it. */
export type SecretChange = SecretChangeEvent & {
  secret: LinkedSecretFacts;
  /** The live Secret's uid, which names its signals channel. */
  uid: string;
  /** The user's normalized entity ref. */
  actor: string;
  /**
   * Whom the Secret admits by name: the only people a notification may reach, and the only
   * recipients of a signal about a Secret with rules.
   */
  audience: SecretAudience;
  /** An allowed edit of a Secret that another tool owns: whose it is and the user's reason. */
  owned?: OwnedEdit;
};

export type NotificationPayload = NotificationSendOptions['payload'];

/** The portal's page of the platform, where the frontend plugin mounts its routes. */
const PORTAL_PATH = '/krypton';

/**
 * The portal address for the change: the Secret's detail view (on the tab that shows what
 * changed), or for a Secret that is gone, its namespace's list. The cluster is always named, so
 * the link stays right if the default cluster changes.
 */
export function portalLink(change: SecretChange): string {
  const { cluster, namespace, name } = change.secret;
  if (change.event === 'delete' && change.status === 'deleted') {
    return `${PORTAL_PATH}?${new URLSearchParams({ cluster, namespace })}`;
  }
  const query = new URLSearchParams({ cluster });
  // Each tab of the detail view is an address of its own.
  let tab = '';
  if (change.event === 'restore') tab = '/history';
  if (change.event === 'restart') tab = '/consumers';
  return `${PORTAL_PATH}/secret/${namespace}/${name}${tab}?${query}`;
}

/**
 * One notification per Secret and event: the notifications backend replaces an earlier one of
 * the same scope (and origin) instead of adding another, so a Secret rotated ten times leaves one
 * unread update, showing the latest.
 */
export function notificationScope(
  secret: LinkedSecretFacts,
  event: NotificationEvent,
): string {
  return `krypton:${secret.cluster}/${secret.namespace}/${secret.name}:${event}`;
}

const versionText = (version: number | null, resourceVersion: string) =>
  version === null
    ? `resourceVersion ${resourceVersion}`
    : `version ${version} (resourceVersion ${resourceVersion})`;

const RESTART_TITLES: Record<RestartStatus, (secret: string) => string> = {
  requested: secret => `Consumers of ${secret} restarted`,
  no_targets: secret => `${secret} had no consumers to restart`,
  partial: secret => `Consumers of ${secret} partly restarted`,
  failed: secret => `Consumers of ${secret} not restarted`,
};

/** The title and the description's sentence after the actor, about the Secret `subject`. */
function describe(
  change: SecretChange,
  secret: string,
  subject: string,
): { title: string; detail: string } {
  switch (change.event) {
    case 'update':
      return {
        title: `${secret} updated`,
        detail: `updated ${subject}. It is now ${versionText(
          change.version,
          change.resourceVersion,
        )}.`,
      };
    case 'restore':
      return {
        title: `${secret} restored to version ${change.restoredVersion}`,
        detail: `restored version ${
          change.restoredVersion
        } of ${subject}. It is now ${versionText(
          change.version,
          change.resourceVersion,
        )}.`,
      };
    case 'delete':
      return change.status === 'deleted'
        ? {
            title: `${secret} deleted`,
            detail: `deleted ${subject}. Its history was ${change.history}.`,
          }
        : {
            title: `${secret} is being deleted`,
            detail: `deleted ${subject}; Kubernetes removes it once its finalizers are done. Its history was ${change.history}.`,
          };
    default:
      return {
        title: RESTART_TITLES[change.status](secret),
        detail: `restarted the workloads that consume ${subject}: status ${change.status}, ${change.requested} requested, ${change.failed} failed.`,
      };
  }
}

/** Why an edit that the Secret's owner may undo was made anyway, in the user's words. */
const ownedText = (owned: OwnedEdit | undefined) =>
  owned
    ? ` The Secret is owned by ${describeOwner(
        owned.owner,
      )}, which may undo this; the reason given: "${owned.reason}".`
    : '';

/**
 * The notification of a change. It names the Secret, the cluster, the event, the outcome's
 * version or counts and the actor; it never carries a value or a key name.
 */
export function notificationFor(change: SecretChange): NotificationPayload {
  const { cluster, namespace, name } = change.secret;
  const secret = `Secret ${namespace}/${name}`;
  const { title, detail } = describe(
    change,
    secret,
    `${secret} on cluster ${cluster}`,
  );
  const high =
    change.owned !== undefined ||
    change.event === 'delete' ||
    (change.event === 'restart' &&
      (change.status === 'partial' || change.status === 'failed'));
  return {
    title,
    description: `${change.actor} ${detail}${ownedText(change.owned)}`,
    link: portalLink(change),
    severity: high ? 'high' : 'normal',
    topic: 'krypton',
    scope: notificationScope(change.secret, change.event),
  };
}
