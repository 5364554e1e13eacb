import { useApi } from '@backstage/core-plugin-api';
import {
  SecretSummary,
  SecretWriteAnswer,
  VersionDto,
  VersionSummary,
  messages,
  DiffSide,
  keyDiff,
} from '@krypton/plugin-krypton-common';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Dialog from '@material-ui/core/Dialog';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogContentText from '@material-ui/core/DialogContentText';
import DialogTitle from '@material-ui/core/DialogTitle';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import AlertTitle from '@material-ui/lab/AlertTitle';
import { useId, useMemo, useRef, useState } from 'react';
import { SecretLocation, kryptonApiRef } from '../../api/KryptonApi';
import { KeyDiffTable } from './KeyDiffTable';
import { LiveComparison, versionKeysSide, versionSide } from './sides';
import { messageOf, statusOf } from './useVersionHistory';
import { useVersionValues } from './useVersionValues';

const RESTORE_UNCONFIRMED =
  'The restore did not complete, and it may or may not have been applied. Reload latest to check before trying again.';

/**
 * A failed restore. `needsReload`: the answer says the reviewed state is gone (a 409 conflict, a
 * version no longer retained, an unknown outcome), so restoring again without reloading would
 * be a blind retry.
 */
interface RestoreFailure {
  title: string;
  message: string;
  needsReload: boolean;
}

function restoreFailure(e: unknown): RestoreFailure {
  const status = statusOf(e);
  if (status === undefined) {
    return {
      title: 'The restore may not have been applied',
      message: RESTORE_UNCONFIRMED,
      needsReload: true,
    };
  }
  const message = messageOf(e, RESTORE_UNCONFIRMED);
  if (status === 409) {
    return {
      title:
        message === messages.staleRevision
          ? 'This Secret changed since you loaded it'
          : 'The restore was refused',
      message,
      needsReload: true,
    };
  }
  if (status === 404) {
    return { title: 'Nothing to restore', message, needsReload: true };
  }
  return { title: 'The restore failed', message, needsReload: false };
}

/** The live Secret as the dialog opened on it: the restore is pinned to this revision. */
export interface PinnedLive {
  summary: SecretSummary;
  live: LiveComparison;
}

export interface RestoreDialogProps {
  location: SecretLocation;
  target: VersionSummary;
  pinned: PinnedLive;
  /** The live summary now. Another revision than the pinned one means the review is out of date. */
  current?: SecretSummary;
  /** Why restore is not possible now, from the current props. */
  block?: string;
  /** The history list's state: a failed refresh leaves no current restore choice. */
  historyStatus: 'loading' | 'loaded' | 'failed';
  /** Whether the user may read version values; otherwise the diff compares keys only. */
  canReadValues: boolean;
  loadVersion: (version: number) => Promise<VersionDto>;
  onCancel: () => void;
  /**
   * Refetches the live Secret and the history; the parent closes the dialog when both succeed.
   * Rejects with a message for the user when either fails.
   */
  onReloadLatest: () => Promise<void>;
  onRestored: (secret: SecretWriteAnswer) => void;
}

/**
 * Confirms restoring one version: what will change, where the current state goes, and which
 * revision the restore expects. A refused restore is never retried on its own: after a conflict
 * only Reload latest (which closes the dialog so the new state can be reviewed) moves on.
 */
export function RestoreDialog(props: RestoreDialogProps) {
  const api = useApi(kryptonApiRef);
  const { target, pinned, current } = props;
  const titleId = useId();
  const bodyId = useId();
  const [busy, setBusy] = useState<'restore' | 'reload'>();
  const [failure, setFailure] = useState<RestoreFailure>();
  const [reloadError, setReloadError] = useState<string>();
  // The ref, not state, guards a second click that arrives before the re-render.
  const inFlight = useRef(false);

  const values = useVersionValues(
    props.loadVersion,
    target.version,
    props.canReadValues,
  );

  const comparison = useMemo(() => {
    const from = pinned.live.side;
    let to: DiffSide | undefined;
    let toReason: string | undefined;
    if (values.version) {
      to = versionSide(values.version);
    } else {
      to = versionKeysSide(target);
      if (!props.canReadValues) {
        toReason = `you may not reveal the values of version ${target.version}.`;
      } else if (values.error) {
        toReason = `the values of version ${
          target.version
        } could not be read (${messageOf(
          values.error,
          'Krypton could not be reached.',
        )}).`;
      }
    }
    if (!from || !to) return undefined;
    return {
      diff: keyDiff(from, to),
      reason: from.values ? toReason : pinned.live.reason,
    };
  }, [pinned.live, target, values.version, values.error, props.canReadValues]);
  const comparing = props.canReadValues && values.loading;

  const revisionChanged =
    current !== undefined &&
    (current.uid !== pinned.summary.uid ||
      current.resourceVersion !== pinned.summary.resourceVersion);

  let restoreBlockedBy: string | undefined;
  if (props.block) restoreBlockedBy = props.block;
  else if (failure?.needsReload)
    restoreBlockedBy =
      'Reload latest, review the current state, then restore again.';
  else if (revisionChanged)
    restoreBlockedBy =
      'The live Secret changed since this dialog opened. Reload latest to review it.';
  else if (props.historyStatus === 'failed')
    restoreBlockedBy =
      'The history could not be reloaded, so this version is not known to be current. Reload latest.';
  else if (props.historyStatus === 'loading')
    restoreBlockedBy = 'Reloading the history…';
  else if (comparing) restoreBlockedBy = 'Loading what will change…';

  const restore = async () => {
    if (inFlight.current || restoreBlockedBy !== undefined) return;
    inFlight.current = true;
    setBusy('restore');
    setFailure(undefined);
    try {
      const secret = await api.restoreVersion(props.location, {
        version: target.version,
        resourceVersion: pinned.summary.resourceVersion,
      });
      props.onRestored(secret);
    } catch (e) {
      setFailure(restoreFailure(e));
    } finally {
      inFlight.current = false;
      setBusy(undefined);
    }
  };

  const reloadLatest = async () => {
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy('reload');
    setReloadError(undefined);
    try {
      await props.onReloadLatest();
    } catch (e) {
      setReloadError(e instanceof Error ? e.message : String(e));
    } finally {
      inFlight.current = false;
      setBusy(undefined);
    }
  };

  const archivedAs = pinned.summary.version;
  return (
    <Dialog
      open
      onClose={busy ? undefined : props.onCancel}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      maxWidth="md"
      fullWidth
    >
      <DialogTitle id={titleId}>Restore version {target.version}?</DialogTitle>
      <DialogContent>
        <Box id={bodyId}>
          <DialogContentText>
            Restoring replaces the data of {pinned.summary.name} with the data
            of version {target.version} (snapshot by {target.snapshotBy} at{' '}
            {target.snapshotAt}). Only the data changes: the live type, owners,
            finalizers, immutability, description and access rules stay as they
            are.
          </DialogContentText>
          {archivedAs !== null && (
            <DialogContentText>
              The current live state is archived first as version {archivedAs},
              so you can roll back to it while it is retained.
            </DialogContentText>
          )}
          <DialogContentText>
            Expected revision: {pinned.summary.resourceVersion}. If the live
            Secret has changed since, Krypton refuses the restore instead of
            overwriting that change.
          </DialogContentText>
        </Box>
        {failure && (
          <Box mb={2}>
            <Alert severity="error">
              <AlertTitle>{failure.title}</AlertTitle>
              {failure.message}
              {failure.needsReload &&
                ' Reload latest fetches the current Secret and history for review; nothing is restored until you confirm again.'}
            </Alert>
          </Box>
        )}
        {reloadError && (
          <Box mb={2}>
            <Alert severity="error">
              <AlertTitle>Could not reload the latest state</AlertTitle>
              {reloadError} Nothing was restored. You can try Reload latest
              again.
            </Alert>
          </Box>
        )}
        {restoreBlockedBy && !comparing && (
          <Box mb={2}>
            <Alert severity="info">{restoreBlockedBy}</Alert>
          </Box>
        )}
        <Typography variant="h6" component="h3" gutterBottom>
          What will change (live → version {target.version})
        </Typography>
        {comparing && (
          <Typography variant="body2" role="status">
            Loading what will change…
          </Typography>
        )}
        {!comparing && comparison && (
          <KeyDiffTable
            diff={comparison.diff}
            title={`Changes from live to version ${target.version}`}
            fromLabel="live"
            toLabel={`version ${target.version}`}
            keysOnlyReason={comparison.reason}
          />
        )}
        {!comparing && !comparison && (
          <Typography variant="body2">
            The keys of version {target.version} were not recorded, and its
            values cannot be read here, so what will change cannot be shown.
          </Typography>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onCancel} disabled={busy !== undefined}>
          Cancel
        </Button>
        <Button
          variant="outlined"
          onClick={reloadLatest}
          disabled={busy !== undefined}
        >
          {busy === 'reload' ? 'Reloading…' : 'Reload latest'}
        </Button>
        <Button
          variant="contained"
          color="primary"
          onClick={restore}
          disabled={busy !== undefined || restoreBlockedBy !== undefined}
        >
          {busy === 'restore' ? 'Restoring…' : 'Restore'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
