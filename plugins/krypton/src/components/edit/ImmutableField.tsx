import Box from '@material-ui/core/Box';
import Checkbox from '@material-ui/core/Checkbox';
import FormControlLabel from '@material-ui/core/FormControlLabel';
import FormHelperText from '@material-ui/core/FormHelperText';
import Typography from '@material-ui/core/Typography';
import { useKryptonT } from '../../translation';

export interface ImmutableFieldProps {
  /** Prefix of the field's ids, unique to the form. */
  fieldId: string;
  isEdit: boolean;
  /** The Secret is immutable already: there is nothing left to decide. */
  fixed: boolean;
  checked: boolean;
  ownerOnly: boolean;
  onChange: (immutable: boolean) => void;
}

/** Whether the Secret is (to be made) immutable. */
export function ImmutableField(props: ImmutableFieldProps) {
  const { isEdit, ownerOnly } = props;
  const t = useKryptonT();
  const reasonId = `${props.fieldId}-immutable-reason`;
  if (props.fixed) {
    return (
      <Typography variant="body2">{t('edit.form.immutableFixed')}</Typography>
    );
  }
  return (
    <Box>
      <FormControlLabel
        control={
          <Checkbox
            checked={props.checked}
            disabled={ownerOnly}
            inputProps={{
              'aria-describedby': ownerOnly ? reasonId : undefined,
            }}
            onChange={e => props.onChange(e.target.checked)}
          />
        }
        label={
          isEdit
            ? t('edit.form.makeImmutable')
            : t('edit.form.immutableOnCreate')
        }
      />
      {ownerOnly && (
        <FormHelperText id={reasonId}>
          {t('edit.form.immutableOwnersOnly')}
        </FormHelperText>
      )}
    </Box>
  );
}
