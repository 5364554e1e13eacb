import { useApi } from '@backstage/core-plugin-api';
import {
  SecretSummary,
  SecretWriteAnswer,
  VersionDto,
  VersionSummary,
  DiffSide,
  keyDiff,
  LiveComparison,
  versionKeysSide,
  versionSide,
} from '@krypton/core';
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
import { failureOf } from '../../api/failure';
import { useKryptonT } from '../../translation';
import {
  OwnedEditReasonField,
  OwnershipBanner,
  useOwnedEditReason,
} from '../owner';
import {
  ChangeReasonInput,
  requestOf,
  useChangeReason,
  useChangeRequested,
} from '../changes';
import { KeyDiffTable } from './KeyDiffTable';
import { serverMessage } from './useVersionHistory';
import { useVersionValues } from './useVersionValues';

/**
 * A failed restore. `needsReload`: the answer says the reviewed state is gone (a 409 conflict, a
 * version no longer retained, an unknown outcome), so restoring again without reloading would
 * be a blind retry. `message` is the server's fixed message; none when no answer arrived.
 */
interface RestoreFailure {
  kind: 'unconfirmed' | 'stale' | 'refused' | 'notFound' | 'failed';
  message?: string;
  needsReload: boolean;
}

function restoreFailure(e: unknown): RestoreFailure {
  const failure = failureOf(e);
  switch (failure.kind) {
    case 'network':
      return { kind: 'unconfirmed', needsReload: true };
    case 'staleRevision':
      return { kind: 'stale', message: failure.message, needsReload: true };
    case 'conflict':
      return { kind: 'refused', message: failure.message, needsReload: true };
    case 'notFound':
      return { kind: 'notFound', message: failure.message, needsReload: true };
    default:
      return { kind: 'failed', message: failure.message, needsReload: false };
  }
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
  const t = useKryptonT();
  const { target, pinned, current } = props;
  const version = String(target.version);
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
        toReason = t('history.restore.versionDenied', { version });
      } else if (values.error) {
        toReason = t('history.restore.versionUnreadable', {
          version,
          message: serverMessage(values.error) ?? t('history.unreachable'),
        });
      }
    }
    if (!from || !to) return undefined;
    const liveReason = pinned.live.reason;
    return {
      diff: keyDiff(from, to),
      reason: from.values
        ? toReason
        : liveReason && t(`history.live.${liveReason}`),
    };
  }, [
    pinned.live,
    target,
    version,
    values.version,
    values.error,
    props.canReadValues,
    t,
  ]);
  const comparing = props.canReadValues && values.loading;

  const revisionChanged =
    current !== undefined &&
    (current.uid !== pinned.summary.uid ||
      current.resourceVersion !== pinned.summary.resourceVersion);

  let restoreBlockedBy: string | undefined;
  if (props.block) restoreBlockedBy = props.block;
  else if (failure?.needsReload)
    restoreBlockedBy = t('history.restore.blocked.needsReload');
  else if (revisionChanged)
    restoreBlockedBy = t('history.restore.blocked.revisionChanged');
  else if (props.historyStatus === 'failed')
    restoreBlockedBy = t('history.restore.blocked.historyFailed');
  else if (props.historyStatus === 'loading')
    restoreBlockedBy = t('history.restore.blocked.historyLoading');
  else if (comparing) restoreBlockedBy = t('history.restore.blocked.comparing');

  // The owner of the revision under review decides: the restore is pinned to it.
  const owned = useOwnedEditReason(pinned.summary.owner);
  const reasonId = useId();
  const change = useChangeReason(pinned.summary.approval);
  const changeReasonId = useId();
  const onRequested = useChangeRequested();

  const restore = async () => {
    owned.touch();
    if (
      inFlight.current ||
      restoreBlockedBy !== undefined ||
      owned.blocked !== undefined
    )
      return;
    inFlight.current = true;
    setBusy('restore');
    setFailure(undefined);
    try {
      const secret = await api.restoreVersion(props.location, {
        version: target.version,
        resourceVersion: pinned.summary.resourceVersion,
        ...owned.request,
        ...change.request,
      });
      props.onRestored(secret);
    } catch (e) {
      const requested = requestOf(e);
      if (requested && onRequested) {
        // Nothing was restored: the dialog closes as on Cancel, and the page tells of the request.
        props.onCancel();
        onRequested(requested);
        return;
      }
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
  let restoreLabel: string = change.approval
    ? t('changes.request')
    : t('history.restore.restore');
  if (busy === 'restore')
    restoreLabel = change.approval
      ? t('changes.requesting')
      : t('history.restore.restoring');
  return (
    <Dialog
      open
      onClose={busy ? undefined : props.onCancel}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      maxWidth="md"
      fullWidth
    >
      <DialogTitle id={titleId}>
        {t('history.restore.title', { version })}
      </DialogTitle>
      <DialogContent>
        <Box id={bodyId}>
          <DialogContentText>
            {t('history.restore.body', {
              name: pinned.summary.name,
              version,
              by: target.snapshotBy,
              at: target.snapshotAt,
            })}
          </DialogContentText>
          {archivedAs !== null && (
            <DialogContentText>
              {t('history.restore.archived', { version: String(archivedAs) })}
            </DialogContentText>
          )}
          <DialogContentText>
            {t('history.restore.expected', {
              revision: pinned.summary.resourceVersion,
            })}
          </DialogContentText>
        </Box>
        {Boolean(
          pinned.summary.owner || pinned.summary.dataAppliedBy?.length,
        ) && (
          <Box display="flex" flexDirection="column" style={{ gap: 16 }} mb={2}>
            <OwnershipBanner secret={pinned.summary} compact />
            <OwnedEditReasonField
              id={reasonId}
              state={owned}
              disabled={busy !== undefined}
            />
          </Box>
        )}
        {change.approval && (
          <Box mb={2}>
            <ChangeReasonInput
              id={changeReasonId}
              state={change}
              disabled={busy !== undefined}
            />
          </Box>
        )}
        {failure && (
          <Box mb={2}>
            <Alert severity="error">
              <AlertTitle>
                {t(`history.restore.failures.${failure.kind}`)}
              </AlertTitle>
              {failure.message ?? t('history.restore.unconfirmed')}
              {failure.needsReload && ` ${t('history.restore.needsReload')}`}
            </Alert>
          </Box>
        )}
        {reloadError && (
          <Box mb={2}>
            <Alert severity="error">
              <AlertTitle>{t('history.restore.reloadFailedTitle')}</AlertTitle>
              {t('history.restore.reloadFailed', { message: reloadError })}
            </Alert>
          </Box>
        )}
        {restoreBlockedBy && !comparing && (
          <Box mb={2}>
            <Alert severity="info">{restoreBlockedBy}</Alert>
          </Box>
        )}
        <Typography variant="h6" component="h3" gutterBottom>
          {t('history.restore.whatChanges', { version })}
        </Typography>
        {comparing && (
          <Typography variant="body2" role="status">
            {t('history.restore.comparing')}
          </Typography>
        )}
        {!comparing && comparison && (
          <KeyDiffTable
            diff={comparison.diff}
            title={t('history.restore.tableTitle', { version })}
            fromLabel={t('history.sides.live')}
            toLabel={t('history.sides.version', { version })}
            keysOnlyReason={comparison.reason}
          />
        )}
        {!comparing && !comparison && (
          <Typography variant="body2">
            {t('history.restore.noComparison', { version })}
          </Typography>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onCancel} disabled={busy !== undefined}>
          {t('history.restore.cancel')}
        </Button>
        <Button
          variant="outlined"
          onClick={reloadLatest}
          disabled={busy !== undefined}
        >
          {busy === 'reload'
            ? t('history.restore.reloading')
            : t('history.restore.reloadLatest')}
        </Button>
        <Button
          variant="contained"
          color="primary"
          onClick={restore}
          disabled={
            busy !== undefined ||
            restoreBlockedBy !== undefined ||
            owned.blocked !== undefined
          }
        >
          {restoreLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
