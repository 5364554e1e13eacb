import { messages } from '@krypton/plugin-krypton-common';
import Button from '@material-ui/core/Button';
import Dialog from '@material-ui/core/Dialog';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogContentText from '@material-ui/core/DialogContentText';
import DialogTitle from '@material-ui/core/DialogTitle';
import { useId } from 'react';

export interface ConflictDialogProps {
  /** The server's message of the 409; the dialog is open while it is set. */
  message?: string;
  onReload: () => void;
  onClose: () => void;
}

/**
 * The answer to a 409 on save. The save is never retried: the draft was made against a revision
 * that is gone, and only the user can decide how their changes apply to the current state.
 */
export function ConflictDialog({
  message,
  onReload,
  onClose,
}: ConflictDialogProps) {
  const titleId = useId();
  const bodyId = useId();
  // Other 409s (a history slot or counter an operator must review) are not a concurrent edit.
  const stale = message === messages.staleRevision;
  return (
    <Dialog
      open={message !== undefined}
      onClose={onClose}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
    >
      <DialogTitle id={titleId}>
        {stale
          ? 'This Secret changed since you loaded it.'
          : 'The Secret could not be saved.'}
      </DialogTitle>
      <DialogContent>
        <DialogContentText id={bodyId}>{message}</DialogContentText>
        <DialogContentText>
          Reload latest replaces your draft with the live Secret. Note your
          changes first, then review the current state and re-apply them.
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Keep editing</Button>
        <Button onClick={onReload} color="primary" variant="contained">
          Reload latest
        </Button>
      </DialogActions>
    </Dialog>
  );
}
