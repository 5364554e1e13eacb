import {
  ConsumerWorkload,
  DiscoveryFailure,
  awaitsManualRollout,
  workloadLabel,
} from '@krypton/core';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { text } from '../messages';

const dialog = text.consumers.dialog;

/**
 * The last look before a restart, naming every workload the dry run found. The engine discovers
 * again on confirm, so the dialog says that the set may differ if workloads changed meanwhile.
 */
export function RestartConsumersDialog(props: {
  secretName: string;
  workloads: ConsumerWorkload[];
  discoveryFailures: DiscoveryFailure[];
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const titleId = useId();
  const bodyId = useId();
  const listId = useId();
  const stuck = props.workloads.filter(awaitsManualRollout);
  return (
    <Dialog
      open
      onClose={props.onCancel}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
    >
      <DialogTitle id={titleId}>{dialog.title(props.secretName)}</DialogTitle>
      <DialogContent>
        <DialogContentText id={bodyId} paragraph>
          {dialog.body(props.workloads.length)}
        </DialogContentText>
        <DialogContentText id={listId} component="div">
          {dialog.listTitle}
        </DialogContentText>
        <ul aria-labelledby={listId}>
          {props.workloads.map(w => (
            <li key={workloadLabel(w)}>{workloadLabel(w)}</li>
          ))}
        </ul>
        {stuck.length > 0 && (
          <Alert severity="warning">
            {dialog.stuck(
              stuck
                .map(w =>
                  w.paused
                    ? dialog.paused(workloadLabel(w))
                    : dialog.onDelete(workloadLabel(w)),
                )
                .join('; '),
            )}
          </Alert>
        )}
        {props.discoveryFailures.length > 0 && (
          <Alert severity="warning" sx={{ mt: 1 }}>
            {dialog.partialDiscovery(
              props.discoveryFailures.map(f => f.kind).join(', '),
            )}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onCancel}>{dialog.cancel}</Button>
        <Button variant="contained" onClick={props.onConfirm}>
          {dialog.confirm}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
