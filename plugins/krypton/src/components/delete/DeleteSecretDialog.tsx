import { useApi } from '@backstage/core-plugin-api';
import { DeleteResult, SecretSummary } from '@krypton/core';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Checkbox from '@material-ui/core/Checkbox';
import Dialog from '@material-ui/core/Dialog';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogContentText from '@material-ui/core/DialogContentText';
import DialogTitle from '@material-ui/core/DialogTitle';
import FormControlLabel from '@material-ui/core/FormControlLabel';
import FormHelperText from '@material-ui/core/FormHelperText';
import TextField from '@material-ui/core/TextField';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import AlertTitle from '@material-ui/lab/AlertTitle';
import { FormEvent, useId, useRef, useState } from 'react';
import { SecretLocation, kryptonApiRef } from '../../api/KryptonApi';
import { failureOf } from '../../api/failure';
import { useKryptonT } from '../../translation';
import { ActionDecision } from '../access/decide';
import {
  ChangeReasonInput,
  requestOf,
  useChangeReason,
  useChangeRequested,
} from '../changes';
import { formatVersion } from '../list/secretRows';
import {
  OwnedEditReasonField,
  OwnershipBanner,
  useOwnedEditReason,
} from '../owner';

/** What the user confirms: pinned when the dialog opens, so a later refetch cannot change it. */
export interface DeleteTarget {
  location: SecretLocation;
  summary: SecretSummary;
}

export interface DeleteSecretDialogProps {
  target: DeleteTarget;
  /** The Secret as the page knows it now; a newer revision than the target's blocks Delete. */
  current: SecretSummary;
  decision: ActionDecision;
  reloadLive: () => Promise<void>;
  onClose: () => void;
  onDeleted: (result: DeleteResult) => void;
  onPending: (result: DeleteResult) => void;
  /** After a failed or unconfirmed DELETE: cleanup may have removed history before it. */
  onFailed?: () => void;
}

/**
 * A failed DELETE. Every kind blocks another attempt until Reload latest succeeds. `message` is
 * the server's fixed message, when an answer arrived; `stale` tells a stale revision from the
 * other conflicts.
 */
interface DeleteFailure {
  kind: 'conflict' | 'refused' | 'uncertain';
  stale?: boolean;
  message?: string;
}

/** The spec forbids guessing success, so a body that is not a DeleteResult is no confirmation. */
function isDeleteResult(value: unknown): value is DeleteResult {
  if (typeof value !== 'object' || value === null) return false;
  const { status, history } = value as Record<string, unknown>;
  return (
    (status === 'deleted' || status === 'pending') &&
    (history === 'cleaned' || history === 'kept')
  );
}

function deleteFailure(e: unknown): DeleteFailure {
  const failure = failureOf(e);
  switch (failure.kind) {
    case 'network':
      return { kind: 'uncertain' };
    case 'staleRevision':
    case 'conflict':
      return {
        kind: 'conflict',
        stale: failure.kind === 'staleRevision',
        message: failure.message,
      };
    // A server error (500) or a gateway's (502, 504) can come after Kubernetes accepted the live
    // delete. A 503 is Krypton's fixed "Kubernetes is unavailable", read as a refusal.
    case 'server':
      return { kind: 'uncertain', message: failure.message };
    default:
      return { kind: 'refused', message: failure.message };
  }
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Box minWidth={120}>
      <Typography variant="overline" component="dt" color="textSecondary">
        {label}
      </Typography>
      <Typography
        variant="body1"
        component="dd"
        style={{ margin: 0, wordBreak: 'break-all' }}
      >
        {value}
      </Typography>
    </Box>
  );
}

function FailureAlert({
  failure,
  keepHistory,
}: {
  failure: DeleteFailure;
  keepHistory: boolean;
}) {
  const t = useKryptonT();
  let title: string = t('delete.failure.titles.refused');
  if (failure.kind === 'uncertain')
    title = t('delete.failure.titles.uncertain');
  else if (failure.kind === 'conflict') {
    title = failure.stale
      ? t('delete.failure.titles.stale')
      : t('delete.failure.titles.conflict');
  }
  const unconfirmed = t('delete.failure.unconfirmed');
  let message = failure.message ?? unconfirmed;
  if (failure.kind === 'uncertain' && failure.message !== undefined) {
    message = `${failure.message} ${unconfirmed}`;
  }
  return (
    <Alert severity="error">
      <AlertTitle>{title}</AlertTitle>
      {message}{' '}
      {failure.kind === 'conflict' && t('delete.failure.conflictAdvice')}
      {failure.kind === 'refused' && t('delete.failure.refusedAdvice')}
      {!keepHistory && ` ${t('delete.failure.cleanupKept')}`}
    </Alert>
  );
}

/**
 * The confirmation of a delete: it names the Secret and the revision the user saw, and sends that
 * revision so the server refuses to delete a state the user has not reviewed. A failed DELETE is
 * never retried from here: earlier history cleanup is not rolled back and a transport failure can
 * hide a delete that happened, so the user reloads and confirms again.
 */
export function DeleteSecretDialog(props: DeleteSecretDialogProps) {
  const api = useApi(kryptonApiRef);
  const t = useKryptonT();
  const { target, current, decision } = props;
  const { summary } = target;
  const titleId = useId();
  const bodyId = useId();
  const keepId = useId();
  const confirmId = useId();
  const reasonId = useId();
  const [keepHistory, setKeepHistory] = useState(false);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState<'deleting' | 'reloading'>();
  const [failure, setFailure] = useState<DeleteFailure>();
  const [reloadError, setReloadError] = useState<string>();
  // State updates land after a render; a fast second click must not send a second DELETE.
  const inFlight = useRef(false);

  const superseded =
    current.uid !== summary.uid ||
    current.resourceVersion !== summary.resourceVersion;
  // Kubernetes names hold no whitespace, so trimming only forgives a sloppy paste.
  const confirmed = typed.trim() === summary.name;
  // The owner of the revision under review decides: the delete is pinned to it.
  const owned = useOwnedEditReason(summary.owner);
  const ownedReasonId = useId();
  const change = useChangeReason(summary.approval);
  const changeReasonId = useId();
  const onRequested = useChangeRequested();

  let blocked: string | undefined;
  if (!decision.allowed)
    blocked = decision.reason ?? t('delete.blocked.denied');
  else if (summary.deletionTimestamp)
    blocked = t('delete.blocked.alreadyDeleting');
  else if (failure) blocked = t('delete.blocked.failed');
  else if (superseded) blocked = t('delete.blocked.superseded');
  else if (!confirmed)
    blocked = t('delete.blocked.unconfirmed', { name: summary.name });
  else if (owned.blocked) blocked = owned.blocked;

  const close = () => {
    if (!inFlight.current) props.onClose();
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    owned.touch();
    if (blocked !== undefined || inFlight.current) return;
    inFlight.current = true;
    setBusy('deleting');
    setFailure(undefined);
    setReloadError(undefined);
    let result: unknown;
    try {
      result = await api.deleteSecret(target.location, {
        resourceVersion: summary.resourceVersion,
        // Sent either way, so the request and the audit log state the choice explicitly.
        keepHistory,
        ...owned.request,
        ...change.request,
      });
    } catch (err) {
      const requested = requestOf(err);
      if (requested && onRequested) {
        // Nothing was deleted: the dialog closes as on Cancel, and the page tells of the request.
        props.onClose();
        onRequested(requested);
        return;
      }
      setFailure(deleteFailure(err));
      props.onFailed?.();
      return;
    } finally {
      inFlight.current = false;
      setBusy(undefined);
    }
    if (!isDeleteResult(result)) {
      setFailure({ kind: 'uncertain' });
      props.onFailed?.();
    } else if (result.status === 'deleted') {
      props.onDeleted(result);
    } else {
      props.onPending(result);
    }
  };

  const reload = async () => {
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy('reloading');
    setReloadError(undefined);
    try {
      await props.reloadLive();
    } catch (err) {
      // The failure (and any DELETE error) stays on screen; nothing is sent again.
      const reloadFailure = failureOf(err);
      setReloadError(
        reloadFailure.kind === 'network'
          ? t('delete.dialog.unreachable')
          : reloadFailure.message,
      );
      return;
    } finally {
      inFlight.current = false;
      setBusy(undefined);
    }
    props.onClose();
  };

  const where = `${summary.namespace}/${summary.name}`;
  let deleteLabel: string = change.approval
    ? t('changes.request')
    : t('delete.dialog.delete');
  if (busy === 'deleting')
    deleteLabel = change.approval
      ? t('changes.requesting')
      : t('delete.dialog.deleting');
  return (
    <Dialog
      open
      onClose={close}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      fullWidth
      maxWidth="sm"
    >
      <form
        onSubmit={submit}
        noValidate
        aria-label={t('delete.dialog.formLabel', { name: summary.name })}
      >
        <DialogTitle id={titleId}>
          {t('delete.dialog.title', { name: summary.name })}
        </DialogTitle>
        <DialogContent>
          <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
            <DialogContentText id={bodyId} style={{ margin: 0 }}>
              {t('delete.dialog.body', {
                where,
                cluster: summary.cluster,
                revision: summary.resourceVersion,
              })}
            </DialogContentText>
            <Box
              component="dl"
              display="flex"
              flexWrap="wrap"
              style={{ gap: 24, margin: 0 }}
              aria-label={t('delete.dialog.factsLabel')}
            >
              <Fact label={t('delete.dialog.facts.secret')} value={where} />
              <Fact
                label={t('delete.dialog.facts.cluster')}
                value={summary.cluster}
              />
              <Fact
                label={t('delete.dialog.facts.expectedRevision')}
                value={summary.resourceVersion}
              />
              <Fact
                label={t('delete.dialog.facts.version')}
                value={formatVersion(t, summary.version)}
              />
            </Box>
            <OwnershipBanner secret={summary} compact />
            <Box>
              <FormControlLabel
                control={
                  <Checkbox
                    checked={keepHistory}
                    onChange={e => setKeepHistory(e.target.checked)}
                    disabled={busy !== undefined}
                    inputProps={{ 'aria-describedby': keepId }}
                  />
                }
                label={t('delete.dialog.keepHistory')}
              />
              <FormHelperText id={keepId} style={{ marginTop: 0 }}>
                {keepHistory
                  ? t('delete.dialog.keepHistoryHelp')
                  : t('delete.dialog.cleanHistoryHelp')}
              </FormHelperText>
            </Box>
            <TextField
              id={confirmId}
              label={t('delete.dialog.confirmLabel', { name: summary.name })}
              value={typed}
              onChange={e => setTyped(e.target.value)}
              disabled={busy !== undefined}
              variant="outlined"
              autoComplete="off"
              inputProps={{ spellCheck: false, autoCapitalize: 'off' }}
              fullWidth
            />
            <OwnedEditReasonField
              id={ownedReasonId}
              state={owned}
              disabled={busy !== undefined}
            />
            <ChangeReasonInput
              id={changeReasonId}
              state={change}
              disabled={busy !== undefined}
            />
            {superseded && !failure && (
              <Alert severity="info">
                {t('delete.dialog.superseded', {
                  revision: current.resourceVersion,
                })}
              </Alert>
            )}
            {failure && (
              <FailureAlert failure={failure} keepHistory={keepHistory} />
            )}
            {reloadError && (
              <Alert severity="error">
                <AlertTitle>{t('delete.dialog.reloadFailedTitle')}</AlertTitle>
                {t('delete.dialog.reloadFailed', { message: reloadError })}
              </Alert>
            )}
          </Box>
        </DialogContent>
        <DialogActions>
          {blocked && (
            <Typography variant="body2" color="textSecondary" id={reasonId}>
              {blocked}
            </Typography>
          )}
          <Button onClick={close} disabled={busy !== undefined}>
            {t('delete.dialog.cancel')}
          </Button>
          <Button
            variant="outlined"
            onClick={reload}
            disabled={busy !== undefined}
          >
            {busy === 'reloading'
              ? t('delete.dialog.reloading')
              : t('delete.dialog.reloadLatest')}
          </Button>
          <Button
            type="submit"
            variant="contained"
            color="secondary"
            disabled={blocked !== undefined || busy !== undefined}
            aria-describedby={blocked ? reasonId : undefined}
          >
            {deleteLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
