import { useApi } from '@backstage/core-plugin-api';
import {
  SecretChangedSignal,
  secretSignalChannel,
} from '@krypton/plugin-krypton-common';
import { SecretSummary } from '@krypton/core';
import { useSignal } from '@backstage/plugin-signals-react';
import Alert from '@material-ui/lab/Alert';
import { useEffect, useRef } from 'react';
import { SecretLocation, kryptonApiRef } from '../../api/KryptonApi';
import { failureOf } from '../../api/failure';
import { useKryptonT } from '../../translation';

/** How often a page asks whether its Secret changed, where the signals plugin is not installed. */
export const POLL_INTERVAL_MS = 30_000;

/**
 * How long a signal waits before it is compared with the page. The signal of the page's own save
 * or restore can overtake that write's answer; once the answer has landed, the page already shows
 * the signalled revision and the signal is no news.
 */
export const SIGNAL_SETTLE_MS = 1_000;

/** A change to the live Secret that this page did not make. */
export interface ChangeElsewhere {
  deleted: boolean;
  /** Krypton's version after the change; null when deleted or unreadable. */
  version: number | null;
}

/**
 * Calls `onChange` when the live Secret moves past the revision the page shows: at once through
 * Krypton's signal where the signals plugin is installed, otherwise by asking the summary route
 * every {@link POLL_INTERVAL_MS}.
 */
function useChangesElsewhere(
  location: SecretLocation,
  summary: SecretSummary,
  onChange: (change: ChangeElsewhere) => void,
): void {
  const api = useApi(kryptonApiRef);
  const { lastSignal, isSignalsAvailable } = useSignal<SecretChangedSignal>(
    secretSignalChannel(summary.uid),
  );
  const shown = useRef(summary);
  shown.current = summary;
  const notify = useRef(onChange);
  notify.current = onChange;

  useEffect(() => {
    if (!lastSignal) return undefined;
    // A newer signal within the wait replaces this one: only the latest revision matters.
    const timer = setTimeout(() => {
      if (lastSignal.resourceVersion === shown.current.resourceVersion) return;
      notify.current({
        deleted: lastSignal.event === 'delete',
        version: lastSignal.version,
      });
    }, SIGNAL_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [lastSignal]);

  const { cluster, namespace, name } = location;
  useEffect(() => {
    if (isSignalsAvailable) return undefined;
    let stopped = false;
    const poll = async () => {
      try {
        const live = await api.getSecretSummary({ cluster, namespace, name });
        if (stopped) return;
        const was = shown.current;
        if (live.uid !== was.uid) {
          // The Secret this page opened is gone; another now has its name.
          notify.current({ deleted: true, version: null });
        } else if (live.resourceVersion !== was.resourceVersion) {
          notify.current({ deleted: false, version: live.version });
        }
      } catch (e) {
        if (!stopped && failureOf(e).kind === 'notFound') {
          notify.current({ deleted: true, version: null });
        }
        // Any other failure is left to the next poll: the page says nothing it does not know.
      }
    };
    const timer = setInterval(poll, POLL_INTERVAL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [isSignalsAvailable, api, cluster, namespace, name]);
}

/**
 * Watches the live Secret for changes made elsewhere (another user, another tab, an action) and
 * tells of the latest. An open edit is never updated underneath the user: the form keeps their
 * draft on the revision they opened, says that a newer one exists, and a save would be refused as
 * a conflict.
 */
export function ChangesElsewhere(props: {
  location: SecretLocation;
  summary: SecretSummary;
  /** The latest change seen, as the page keeps it; undefined shows nothing. */
  change?: ChangeElsewhere;
  editing: boolean;
  onChange: (change: ChangeElsewhere) => void;
  onDismiss: () => void;
}) {
  const { change, editing, onDismiss } = props;
  const t = useKryptonT();
  useChangesElsewhere(props.location, props.summary, props.onChange);
  if (!change) return null;
  if (change.deleted) {
    return (
      <Alert severity="warning" onClose={onDismiss}>
        {t('detail.elsewhere.deleted')}
        {editing && ` ${t('detail.elsewhere.deletedEditing')}`}
      </Alert>
    );
  }
  return (
    <Alert severity="info" onClose={onDismiss}>
      {t('detail.elsewhere.changed')}
      {change.version !== null &&
        ` ${t('detail.elsewhere.version', {
          version: String(change.version),
        })}`}
      {editing && ` ${t('detail.elsewhere.changedEditing')}`}
    </Alert>
  );
}
