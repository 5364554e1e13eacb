import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import { useKryptonT } from '../../translation';

export interface FormActionsProps {
  isEdit: boolean;
  /** Whether a save asks for approval instead of writing (the Secret's changes need it). */
  requestsApproval?: boolean;
  saving: boolean;
  reloading: boolean;
  /** Why the form may not be submitted now; shown next to the disabled button. */
  blocked?: string;
  /** The id of the reason, which the submit button is described by. */
  reasonId: string;
  onReload: () => void;
}

/** Save (or Create) and Reload latest, with why a save is not possible yet. */
export function FormActions(props: FormActionsProps) {
  const { isEdit, blocked, reasonId } = props;
  const t = useKryptonT();
  let saveLabel: string = isEdit ? t('edit.form.save') : t('edit.form.create');
  if (isEdit && props.requestsApproval) saveLabel = t('changes.request');
  if (props.saving)
    saveLabel = props.requestsApproval
      ? t('changes.requesting')
      : t('edit.form.saving');
  return (
    <>
      <Box display="flex" alignItems="center" style={{ gap: 8 }}>
        <Button
          type="submit"
          variant="contained"
          color="primary"
          disabled={blocked !== undefined}
          aria-describedby={blocked ? reasonId : undefined}
        >
          {saveLabel}
        </Button>
        {isEdit && (
          <Button variant="outlined" onClick={props.onReload}>
            {props.reloading
              ? t('edit.form.reloading')
              : t('edit.form.reloadLatest')}
          </Button>
        )}
        {blocked && (
          <Typography variant="body2" color="textSecondary" id={reasonId}>
            {blocked}
          </Typography>
        )}
      </Box>
      {isEdit && (
        <Typography variant="caption" color="textSecondary">
          {t('edit.form.reloadNote')}
        </Typography>
      )}
    </>
  );
}
