import { OwnershipFacts } from '@krypton/plugin-krypton-react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { text } from '../messages';
import { OwnershipBanner } from '../owner/OwnershipBanner';

/**
 * The confirmation of a restore. It names the revision the restore is pinned to: the engine
 * refuses (409) if the live Secret is no longer at it; and what a restore comes to where another
 * tool owns the Secret.
 */
export function RestoreDialog(props: {
  version: number;
  resourceVersion: string;
  running: boolean;
  /** The live Secret: its owner and what a restore of it comes to. */
  secret: OwnershipFacts;
  /** Why restore is not possible now (the Secret changed under the open dialog). */
  block?: string;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const titleId = useId();
  const bodyId = useId();
  const blockId = useId();
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
        {Boolean(
          props.secret.owner ||
            props.secret.dataAppliedBy?.length ||
            props.block,
        ) && (
          <Box display="flex" flexDirection="column" gap={2} mt={2}>
            <OwnershipBanner secret={props.secret} compact />
            {props.block && (
              <Alert severity="info" id={blockId}>
                {text.history.restoreBlocked(props.block)}
              </Alert>
            )}
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onCancel} disabled={props.running}>
          {text.restore.cancel}
        </Button>
        <Button
          variant="contained"
          onClick={props.onConfirm}
          disabled={props.running || props.block !== undefined}
          aria-describedby={props.block ? blockId : undefined}
        >
          {props.running ? text.restore.restoring : text.restore.confirm}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
