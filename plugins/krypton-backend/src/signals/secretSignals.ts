import { LoggerService } from '@backstage/backend-plugin-api';
import { SignalsService } from '@backstage/plugin-signals-node';
import {
  SecretChangedSignal,
  secretSignalChannel,
} from '@krypton/plugin-krypton-common';
import { SecretChange, SecretNotifier } from '../notifications';

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
      signals
        .publish<SecretChangedSignal>({
          // Everyone subscribed to the channel: the channel's name is the secret (see
          // secretSignalChannel), since the signals backend lets anyone subscribe to any channel.
          recipients: { type: 'broadcast' },
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
