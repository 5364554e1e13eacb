import { Progress } from '@backstage/core-components';
import Button from '@material-ui/core/Button';
import Alert from '@material-ui/lab/Alert';
import { useKryptonT } from '../../translation';

export interface LoadingSecretProps {
  /** Why the first load failed; undefined while it runs. */
  error?: string;
  retrying: boolean;
  onRetry: () => void;
}

/** What an edit form mounted without its Secret shows until the Secret has loaded. */
export function LoadingSecret(props: LoadingSecretProps) {
  const t = useKryptonT();
  return props.error ? (
    <Alert
      severity="error"
      action={
        <Button
          color="inherit"
          onClick={props.onRetry}
          disabled={props.retrying}
        >
          {t('edit.form.tryAgain')}
        </Button>
      }
    >
      {t('edit.form.loadFailed', { reason: props.error })}
    </Alert>
  ) : (
    <Progress />
  );
}
