import { LoggerService } from '@backstage/backend-plugin-api';
import { SignalsService } from '@backstage/plugin-signals-node';
import {
  SecretChangedSignal,
  secretSignalChannel,
} from '@krypton/plugin-krypton-common';
import { hasAccessRules } from '@krypton/core';
import { SecretChange, SecretNotifier, admittedRefs } from '../notifications';

/** The signal of a change to the Secret itself; a restart changes workloads, so it has none. */
export function signalOf(
  change: SecretChange,
): SecretChangedSignal | undefined {
  const { cluster, namespace, name } = change.secret;
  switch (change.event) {
    case 'update':
    case 'restore':
      return {
        cluster,
        namespace,
        name,
        event: change.event,
        resourceVersion: change.resourceVersion,
        version: change.version,
      };
    case 'delete':
      return {
        cluster,
        namespace,
        name,
        event: 'delete',
        resourceVersion: null,
        version: null,
      };
    default:
      return undefined;
  }
}

/** The signals backend's recipients, as Krypton addresses them. */
type SignalRecipients =
  | { type: 'broadcast' }
  | { type: 'user'; entityRef: string[] };

/**
 * To whom the signals backend delivers a change: the users whom the Secret admits by name, or,
 * for a Secret without rules, every connection subscribed to its channel.
 *
 * The signals backend (0.3.x) accepts a WebSocket without any token, as `user:default/guest`,
 * and lets every connection subscribe to any channel. A broadcast therefore reaches whoever
 * knows the Secret's uid, signed in or not, and keeps reaching someone who read the uid once and
 * has lost access since. A Secret with rules is readable only by the refs its rules name and by
 * the admins (evaluateAccess refuses everyone else), so exactly those refs are the recipients:
 * the signals backend matches them against each connection's ownership refs, which include the
 * user's groups. A Secret without rules is readable by whomever Kubernetes RBAC lets read it;
 * Krypton cannot list them, and targeting any list would leave their open pages stale. Its
 * signal stays a broadcast, and its uid remains a capability: it tells when the Secret changed,
 * its cluster, namespace, name, event, and new resourceVersion and version, never a value, a key
 * name or who changed it.
 */
function signalRecipients(change: SecretChange): SignalRecipients {
  if (!hasAccessRules(change.audience.rules)) return { type: 'broadcast' };
  // The refs are lowercase, as Krypton compares them; the signals backend compares exactly, so
  // a user whose token spells their own ref with capitals is reached only through a group.
  return { type: 'user', entityRef: admittedRefs(change.audience) };
}

/**
 * Tells the pages that have a Secret open that it changed, through the signals service, so an
 * open edit form learns of it at once. The signals backend may be absent (the default signals
 * service then has no one to deliver to); publishing never delays, fails or changes the
 * operation's answer.
 */
export function createSecretSignaller(options: {
  signals: SignalsService;
  logger: LoggerService;
}): SecretNotifier {
  const { signals, logger } = options;
  return {
    notify(change) {
      const message = signalOf(change);
      // Without a uid there is no channel that only the Secret's readers know.
      if (!message || !change.uid) return;
      const recipients = signalRecipients(change);
      // Rules whose every entry is malformed admit no one but the admins, who may be none.
      if (recipients.type === 'user' && recipients.entityRef.length === 0) {
        return;
      }
      signals
        .publish<SecretChangedSignal>({
          recipients,
          channel: secretSignalChannel(change.uid),
          message,
        })
        .catch(err => {
          logger.warn(
            `Could not signal the change of ${message.namespace}/${
              message.name
            }: ${err instanceof Error ? err.name : 'unknown error'}`,
          );
        });
    },
  };
}
