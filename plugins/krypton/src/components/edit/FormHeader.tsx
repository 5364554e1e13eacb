import { SecretWriteAnswer, messages } from '@krypton/core';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import { useKryptonT } from '../../translation';
import { formatVersion } from '../list/secretRows';

export interface FormHeaderProps {
  baseline?: SecretWriteAnswer;
  isEdit: boolean;
  newerAvailable: boolean;
  reloadError?: string;
  saveError?: string;
  onReload: () => void;
}

/**
 * The edited Secret's name and facts, then what the user should know before saving: a newer
 * revision, a failed reload or save, a pending deletion, a broken version counter.
 */
export function FormHeader(props: FormHeaderProps) {
  const { baseline, reloadError, saveError } = props;
  const t = useKryptonT();
  return (
    <>
      {props.isEdit && baseline && (
        <Box>
          <Typography variant="h6" component="h2">
            {baseline.name}
          </Typography>
          <Typography variant="body2" color="textSecondary">
            {t('edit.form.facts', {
              namespace: baseline.namespace,
              type: baseline.type,
              version: formatVersion(t, baseline.version),
              revision: baseline.resourceVersion,
            })}
          </Typography>
        </Box>
      )}

      {props.newerAvailable && (
        <Alert severity="info">{t('edit.form.newerAvailable')}</Alert>
      )}
      {reloadError && (
        <Alert
          severity="error"
          action={
            <Button color="inherit" onClick={props.onReload}>
              {t('edit.form.tryAgain')}
            </Button>
          }
        >
          {t('edit.form.reloadFailed', { reason: reloadError })}
        </Alert>
      )}
      {saveError && <Alert severity="error">{saveError}</Alert>}
      {baseline?.deletionTimestamp && (
        <Alert severity="warning">{t('edit.form.pendingDeletion')}</Alert>
      )}
      {baseline && baseline.version === null && (
        <Alert severity="warning">{messages.invalidCounter}</Alert>
      )}
    </>
  );
}
