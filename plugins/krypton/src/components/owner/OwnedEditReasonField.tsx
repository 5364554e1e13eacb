import TextField from '@material-ui/core/TextField';
import { useKryptonT } from '../../translation';
import { OwnedEditReasonState } from './useOwnedEditReason';

/**
 * The user's reason for changing a Secret that another tool owns, where the installation asks for
 * one; nothing otherwise.
 */
export function OwnedEditReasonField(props: {
  id: string;
  state: OwnedEditReasonState;
  disabled?: boolean;
}) {
  const { state } = props;
  const t = useKryptonT();
  if (!state.required) return null;
  return (
    <TextField
      id={props.id}
      label={t('owner.reason.label')}
      required
      value={state.value}
      onChange={e => state.onChange(e.target.value)}
      onBlur={state.touch}
      error={state.error !== undefined}
      helperText={
        state.error ?? t('owner.reason.help', { tool: state.tool ?? '' })
      }
      disabled={props.disabled}
      variant="outlined"
      fullWidth
    />
  );
}
