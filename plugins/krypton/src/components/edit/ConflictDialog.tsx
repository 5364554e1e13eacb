import Button from '@material-ui/core/Button';
import Dialog from '@material-ui/core/Dialog';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogContentText from '@material-ui/core/DialogContentText';
import DialogTitle from '@material-ui/core/DialogTitle';
import { useId } from 'react';
import { Failure } from '../../api/failure';
import { useKryptonT } from '../../translation';

export interface ConflictDialogProps {
  /** The 409 of a save; the dialog is open while it is set. */
  failure?: Failure;
  onReload: () => void;
  onClose: () => void;
}

/**
 * The answer to a 409 on save. The save is never retried: the draft was made against a revision
 * that is gone, and only the user can decide how their changes apply to the current state.
 */
export function ConflictDialog({
  failure,
  onReload,
  onClose,
}: ConflictDialogProps) {
  const t = useKryptonT();
  const titleId = useId();
  const bodyId = useId();
  // Other 409s (a history slot or counter an operator must review) are not a concurrent edit.
  const stale = failure?.kind === 'staleRevision';
  return (
    <Dialog
      open={failure !== undefined}
      onClose={onClose}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
    >
      <DialogTitle id={titleId}>
        {stale ? t('edit.conflict.staleTitle') : t('edit.conflict.otherTitle')}
      </DialogTitle>
      <DialogContent>
        {/* The server's fixed message, as it sent it. */}
        <DialogContentText id={bodyId}>{failure?.message}</DialogContentText>
        <DialogContentText>{t('edit.conflict.body')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('edit.conflict.keepEditing')}</Button>
        <Button onClick={onReload} color="primary" variant="contained">
          {t('edit.conflict.reloadLatest')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
