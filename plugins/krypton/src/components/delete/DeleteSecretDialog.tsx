import { useApi } from '@backstage/core-plugin-api';
import { ResponseError } from '@backstage/errors';
import {
  DeleteResult,
  SecretSummary,
  messages,
} from '@krypton/plugin-krypton-common';
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
import { ActionDecision } from '../access/decide';
import { formatVersion } from '../list/secretRows';

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

/** A failed DELETE. Every kind blocks another attempt until Reload latest succeeds. */
interface DeleteFailure {
  kind: 'conflict' | 'refused' | 'uncertain';
  message: string;
}

const UNCONFIRMED =
  'The delete did not complete, and it may or may not have been applied. Reload latest to check before trying again.';
const RELOAD_FAILED = 'Krypton could not be reached.';

const describe = (e: unknown, fallback: string) =>
  e instanceof ResponseError ? e.message : fallback;

/** The spec forbids guessing success, so a body that is not a DeleteResult is no confirmation. */
function isDeleteResult(value: unknown): value is DeleteResult {
  if (typeof value !== 'object' || value === null) return false;
  const { status, history } = value as Record<string, unknown>;
  return (
    (status === 'deleted' || status === 'pending') &&
    (history === 'cleaned' || history === 'kept')
  );
}

function failureOf(e: unknown): DeleteFailure {
  if (!(e instanceof ResponseError)) {
    return { kind: 'uncertain', message: UNCONFIRMED };
  }
  if (e.statusCode === 409) return { kind: 'conflict', message: e.message };
  // A 500 or a gateway's 502/504 can come after Kubernetes accepted the live delete.
  if (e.statusCode === 500 || e.statusCode === 502 || e.statusCode === 504) {
    return { kind: 'uncertain', message: `${e.message} ${UNCONFIRMED}` };
  }
  return { kind: 'refused', message: e.message };
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
  let title = 'The Secret was not deleted';
  if (failure.kind === 'uncertain')
    title = 'The outcome of the delete is unknown';
  else if (failure.kind === 'conflict') {
    title =
      failure.message === messages.staleRevision
        ? 'This Secret changed since you loaded it'
        : 'The delete was refused';
  }
  return (
    <Alert severity="error">
      <AlertTitle>{title}</AlertTitle>
      {failure.message}{' '}
      {failure.kind === 'conflict' &&
        'Reload latest to review the current Secret, then decide again.'}
      {failure.kind === 'refused' &&
        'Reload latest to review the current Secret before trying again.'}
      {!keepHistory &&
        ' History snapshots removed before the failure are not restored.'}
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

  let blocked: string | undefined;
  if (!decision.allowed)
    blocked = decision.reason ?? 'You may not delete this Secret.';
  else if (summary.deletionTimestamp)
    blocked = 'Kubernetes is already deleting this Secret.';
  else if (failure) blocked = 'Reload latest before trying again.';
  else if (superseded)
    blocked = 'A newer revision was loaded: Reload latest to review it.';
  else if (!confirmed) blocked = `Type ${summary.name} to enable Delete.`;

  const close = () => {
    if (!inFlight.current) props.onClose();
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
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
      });
    } catch (err) {
      setFailure(failureOf(err));
      props.onFailed?.();
      return;
    } finally {
      inFlight.current = false;
      setBusy(undefined);
    }
    if (!isDeleteResult(result)) {
      setFailure({ kind: 'uncertain', message: UNCONFIRMED });
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
      setReloadError(describe(err, RELOAD_FAILED));
      return;
    } finally {
      inFlight.current = false;
      setBusy(undefined);
    }
    props.onClose();
  };

  const where = `${summary.namespace}/${summary.name}`;
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
        aria-label={`Delete Secret ${summary.name}`}
      >
        <DialogTitle id={titleId}>Delete Secret {summary.name}?</DialogTitle>
        <DialogContent>
          <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
            <DialogContentText id={bodyId} style={{ margin: 0 }}>
              This deletes {where} on cluster {summary.cluster} from Kubernetes.
              Krypton deletes it only while it is still at revision{' '}
              {summary.resourceVersion}, the state you loaded; if anyone has
              changed it since, the delete is refused.
            </DialogContentText>
            <Box
              component="dl"
              display="flex"
              flexWrap="wrap"
              style={{ gap: 24, margin: 0 }}
              aria-label="Secret to delete"
            >
              <Fact label="Secret" value={where} />
              <Fact label="Cluster" value={summary.cluster} />
              <Fact label="Expected revision" value={summary.resourceVersion} />
              <Fact label="Version" value={formatVersion(summary.version)} />
            </Box>
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
                label="Keep history"
              />
              <FormHelperText id={keepId} style={{ marginTop: 0 }}>
                {keepHistory
                  ? "The Secret's history snapshots stay in the namespace as ordinary Secrets that still hold its earlier values, for an operator's forensics or reviewed recovery with kubectl. Krypton no longer lists or restores them, not even through a new Secret of the same name, which starts a separate history."
                  : 'Krypton first deletes the history snapshots it finds for this Secret, then the Secret. They cannot be restored afterwards, and cleanup that happened is not undone if the delete then fails. Legacy copies from older Krypton versions are left for an operator.'}
              </FormHelperText>
            </Box>
            <TextField
              id={confirmId}
              label={`Type ${summary.name} to confirm`}
              value={typed}
              onChange={e => setTyped(e.target.value)}
              disabled={busy !== undefined}
              variant="outlined"
              autoComplete="off"
              inputProps={{ spellCheck: false, autoCapitalize: 'off' }}
              fullWidth
            />
            {superseded && !failure && (
              <Alert severity="info">
                A newer revision ({current.resourceVersion}) has been loaded
                since you opened this confirmation. Reload latest to review it
                before deleting.
              </Alert>
            )}
            {failure && (
              <FailureAlert failure={failure} keepHistory={keepHistory} />
            )}
            {reloadError && (
              <Alert severity="error">
                <AlertTitle>Could not reload the Secret</AlertTitle>
                {reloadError} Reload latest never sends the delete.
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
            Cancel
          </Button>
          <Button
            variant="outlined"
            onClick={reload}
            disabled={busy !== undefined}
          >
            {busy === 'reloading' ? 'Reloading…' : 'Reload latest'}
          </Button>
          <Button
            type="submit"
            variant="contained"
            color="secondary"
            disabled={blocked !== undefined || busy !== undefined}
            aria-describedby={blocked ? reasonId : undefined}
          >
            {busy === 'deleting' ? 'Deleting…' : 'Delete'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
