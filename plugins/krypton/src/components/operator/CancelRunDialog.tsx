import Button from '@material-ui/core/Button';
import Dialog from '@material-ui/core/Dialog';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogContentText from '@material-ui/core/DialogContentText';
import DialogTitle from '@material-ui/core/DialogTitle';
import { useId } from 'react';
import { useKryptonT } from '../../translation';

/** Asks before a running storage rewrite is cancelled; Escape and the backdrop keep it running. */
export function CancelRunDialog(props: {
  open: boolean;
  onKeep: () => void;
  onCancel: () => void;
}) {
  const t = useKryptonT();
  const titleId = useId();
  return (
    <Dialog open={props.open} onClose={props.onKeep} aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{t('operator.cancelDialog.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t('operator.cancelDialog.body')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onCancel}>
          {t('operator.cancelDialog.confirm')}
        </Button>
        <Button onClick={props.onKeep} color="primary" variant="contained">
          {t('operator.cancelDialog.keep')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
