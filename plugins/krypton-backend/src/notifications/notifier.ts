import { AuthService, LoggerService } from '@backstage/backend-plugin-api';
import { CatalogService } from '@backstage/plugin-catalog-node';
import { NotificationService } from '@backstage/plugin-notifications-node';
import { NotificationSettings } from '../config';
import { admittedOwners, admittedRefs } from './audience';
import { cachedOwnerLookup } from './owners';
import { SecretChange, notificationFor } from './payload';

/**
 * Tells the owners of the entities that link a Secret what happened to it, when the Secret
 * itself admits them (see admittedOwners): a catalog link is no access right.
 */
export interface SecretNotifier {
  /**
   * Starts notifying about a change that has happened, and returns at once: delivery never
   * delays, fails or changes the operation's answer. Failures are logged by error name only.
   */
  notify(change: SecretChange): void;
}

export interface SecretNotifierOptions {
  settings: NotificationSettings;
  annotationPrefix: string;
  /** The first configured cluster, which link entries without a cluster name. */
  defaultCluster: string;
  notifications: NotificationService;
  catalog: CatalogService;
  auth: AuthService;
  logger: LoggerService;
}

/** Notifies no one: notifications are disabled, so nothing is sent and the catalog is not asked. */
const silent: SecretNotifier = { notify: () => undefined };

export function createSecretNotifier(
  options: SecretNotifierOptions,
): SecretNotifier {
  const { settings, notifications, logger } = options;
  if (!settings.enabled) return silent;
  const ownersOf = cachedOwnerLookup(options);

  async function deliver(change: SecretChange): Promise<void> {
    // Nobody is admitted by name (no rules, no admins): no owner could hear, so the catalog is
    // not asked.
    if (admittedRefs(change.audience).length === 0) return;
    const owners = admittedOwners(
      await ownersOf(change.secret),
      change.audience,
    );
    if (owners.length === 0) return;
    await notifications.send({
      recipients: {
        type: 'entity',
        entityRef: owners,
        // The actor knows what they did; the rest of their team may not.
        excludeEntityRef: change.actor,
      },
      payload: notificationFor(change),
    });
  }

  return {
    notify(change) {
      if (!settings.events.has(change.event)) return;
      deliver(change).catch(err => {
        // The name only: a catalog or notifications error may quote a request or an answer.
        const { namespace, name } = change.secret;
        logger.warn(
          `Could not notify the owners of ${namespace}/${name} about its ${
            change.event
          }: ${err instanceof Error ? err.name : 'unknown error'}`,
        );
      });
    },
  };
}

/** Hands every change to each of the notifiers (the owners' notifications, the open pages' signals). */
export function combineNotifiers(
  ...notifiers: SecretNotifier[]
): SecretNotifier {
  return { notify: change => notifiers.forEach(n => n.notify(change)) };
}
