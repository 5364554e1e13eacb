import {
  ConsumerWorkload,
  DiscoveryFailure,
} from '@krypton/plugin-krypton-common';
import Button from '@material-ui/core/Button';
import Dialog from '@material-ui/core/Dialog';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogContentText from '@material-ui/core/DialogContentText';
import DialogTitle from '@material-ui/core/DialogTitle';
import Alert from '@material-ui/lab/Alert';
import { useId } from 'react';
import { workloadLabel } from './describe';

export interface RestartDialogProps {
  open: boolean;
  secretName: string;
  namespace: string;
  workloads: ConsumerWorkload[];
  discoveryFailures: DiscoveryFailure[];
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * The last look before a restart, naming every workload the dry run found. The server discovers
 * again on confirm, so the dialog says that the set may differ if workloads changed meanwhile.
 */
export function RestartDialog(props: RestartDialogProps) {
  const titleId = useId();
  const bodyId = useId();
  const listId = useId();
  const stuck = props.workloads.filter(w => w.paused || w.onDelete);
  const count = props.workloads.length;
  return (
    <Dialog
      open={props.open}
      onClose={props.onCancel}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
    >
      <DialogTitle id={titleId}>
        Restart the consumers of {props.secretName}?
      </DialogTitle>
      <DialogContent>
        <DialogContentText id={bodyId}>
          Krypton will ask Kubernetes to roll out{' '}
          {count === 1 ? 'this workload' : `these ${count} workloads`} in{' '}
          {props.namespace} by adding a restart timestamp to their pod template.
          It finds the consumers again when you confirm, so the set can differ
          if workloads changed since this list was loaded.
        </DialogContentText>
        <DialogContentText id={listId} component="div">
          Workloads to restart:
        </DialogContentText>
        <ul aria-labelledby={listId}>
          {props.workloads.map(w => (
            <li key={workloadLabel(w)}>{workloadLabel(w)}</li>
          ))}
        </ul>
        {stuck.length > 0 && (
          <Alert severity="warning">
            Not every workload will roll out:{' '}
            {stuck
              .map(w =>
                w.paused
                  ? `${workloadLabel(
                      w,
                    )} is paused and will not roll out until it is resumed`
                  : `${workloadLabel(
                      w,
                    )} uses OnDelete, so its pods roll only when they are deleted`,
              )
              .join('; ')}
            .
          </Alert>
        )}
        {props.discoveryFailures.length > 0 && (
          <Alert severity="warning" style={{ marginTop: 8 }}>
            The dry run could not list every{' '}
            {props.discoveryFailures.map(f => f.kind).join(', ')}. If the
            restart cannot list them either, none of that kind will be
            restarted.
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onCancel}>Cancel</Button>
        <Button onClick={props.onConfirm} color="primary" variant="contained">
          Restart {count === 1 ? '1 workload' : `${count} workloads`}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
