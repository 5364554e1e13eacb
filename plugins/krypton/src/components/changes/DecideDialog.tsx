import { useApi } from '@backstage/core-plugin-api';
import { ChangeRequest } from '@krypton/core';
import Button from '@material-ui/core/Button';
import Dialog from '@material-ui/core/Dialog';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogContentText from '@material-ui/core/DialogContentText';
import DialogTitle from '@material-ui/core/DialogTitle';
import TextField from '@material-ui/core/TextField';
import Alert from '@material-ui/lab/Alert';
import { useId, useRef, useState } from 'react';
import {
  ChangeRequestDecision,
  SecretLocation,
  kryptonApiRef,
} from '../../api/KryptonApi';
import { failureOf } from '../../api/failure';
import { useKryptonT } from '../../translation';
import { CHANGE_REASON_MAX } from './useChangeReason';

export type DecisionAction = ChangeRequestDecision['action'];

/** Whether the action's text is required: a rejection's comment, a bypass's reason. */
const textRequired = (action: DecisionAction) =>
  action === 'reject' || action === 'bypass';

function decisionOf(
  action: DecisionAction,
  text: string,
): ChangeRequestDecision {
  const trimmed = text.trim();
  switch (action) {
    case 'bypass':
      return { action, reason: trimmed };
    case 'reject':
      return { action, comment: trimmed };
    default:
      return trimmed ? { action, comment: trimmed } : { action };
  }
}

/**
 * Confirms one decision on a change request, with its comment (a bypass: its reason). The
 * backend judges it again, at that moment; its refusal is shown as it sent it.
 */
export function DecideDialog(props: {
  location: SecretLocation;
  request: ChangeRequest;
  action: DecisionAction;
  onClose: () => void;
  onDecided: (after: ChangeRequest) => void;
}) {
  const { request, action } = props;
  const api = useApi(kryptonApiRef);
  const t = useKryptonT();
  const titleId = useId();
  const fieldId = useId();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const inFlight = useRef(false);
  const required = textRequired(action);
  const missing = required && text.trim() === '';

  const send = async () => {
    if (inFlight.current || missing) return;
    inFlight.current = true;
    setBusy(true);
    setError(undefined);
    try {
      props.onDecided(
        await api.decideChangeRequest(
          props.location,
          request.id,
          decisionOf(action, text),
        ),
      );
    } catch (e) {
      const failure = failureOf(e);
      setError(
        failure.kind === 'network'
          ? t('changes.decide.unreachable')
          : failure.message,
      );
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  const body =
    action === 'approve'
      ? t('changes.decide.approveBody', {
          count: request.policy.requiredApprovals,
        })
      : t(`changes.decide.${action}Body`);
  let help: string = t('changes.decide.commentOptional');
  if (action === 'reject') help = t('changes.decide.commentRequired');
  if (action === 'bypass') help = t('changes.decide.reasonRequired');
  return (
    <Dialog
      open
      onClose={busy ? undefined : props.onClose}
      aria-labelledby={titleId}
      maxWidth="sm"
      fullWidth
    >
      <DialogTitle id={titleId}>
        {t(`changes.decide.${action}Title`, { id: request.id })}
      </DialogTitle>
      <DialogContent>
        <DialogContentText>{body}</DialogContentText>
        <TextField
          id={fieldId}
          label={
            action === 'bypass'
              ? t('changes.decide.reason')
              : t('changes.decide.comment')
          }
          required={required}
          value={text}
          onChange={e => setText(e.target.value)}
          helperText={help}
          inputProps={{ maxLength: CHANGE_REASON_MAX }}
          disabled={busy}
          variant="outlined"
          multiline
          minRows={2}
          fullWidth
        />
        {error && (
          <Alert severity="error" style={{ marginTop: 16 }}>
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose} disabled={busy}>
          {t('changes.decide.cancel')}
        </Button>
        <Button
          variant="contained"
          color="primary"
          onClick={send}
          disabled={busy || missing}
        >
          {busy && t('changes.decide.working')}
          {!busy &&
            (action === 'bypass'
              ? t('changes.decide.bypassConfirm')
              : t(`changes.decide.${action}`))}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
