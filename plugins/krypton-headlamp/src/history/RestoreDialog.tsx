import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { text } from '../messages';

/**
 * The confirmation of a restore. It names the revision the restore is pinned to: the engine
 * refuses (409) if the live Secret is no longer at it.
 */
export function RestoreDialog(props: {
  version: number;
  resourceVersion: string;
  running: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const titleId = useId();
  const bodyId = useId();
  return (
    <Dialog
      open
      onClose={props.running ? undefined : props.onCancel}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
    >
      <DialogTitle id={titleId}>
        {text.restore.title(props.version)}
      </DialogTitle>
      <DialogContent>
        <DialogContentText id={bodyId}>
          {text.restore.body(props.version, props.resourceVersion)}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onCancel} disabled={props.running}>
          {text.restore.cancel}
        </Button>
        <Button
          variant="contained"
          onClick={props.onConfirm}
          disabled={props.running}
        >
          {props.running ? text.restore.restoring : text.restore.confirm}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
