import TextField from '@material-ui/core/TextField';
import { useKryptonT } from '../../translation';
import { CHANGE_REASON_MAX, ChangeReasonState } from './useChangeReason';

/** The reason for a change request, where the Secret's changes need approval; nothing otherwise. */
export function ChangeReasonInput(props: {
  id: string;
  state: ChangeReasonState;
  disabled?: boolean;
}) {
  const { state } = props;
  const t = useKryptonT();
  if (!state.approval) return null;
  return (
    <TextField
      id={props.id}
      label={t('changes.reason.label')}
      value={state.value}
      onChange={e => state.onChange(e.target.value)}
      helperText={t('changes.reason.help')}
      inputProps={{ maxLength: CHANGE_REASON_MAX }}
      disabled={props.disabled}
      variant="outlined"
      multiline
      minRows={2}
      fullWidth
    />
  );
}
