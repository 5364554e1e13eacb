import {
  ConsumerWorkload,
  DiscoveryFailure,
  awaitsManualRollout,
  workloadLabel,
} from '@krypton/core';
import Button from '@material-ui/core/Button';
import Dialog from '@material-ui/core/Dialog';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogContentText from '@material-ui/core/DialogContentText';
import DialogTitle from '@material-ui/core/DialogTitle';
import Alert from '@material-ui/lab/Alert';
import { useId } from 'react';
import { useKryptonT } from '../../translation';

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
  const t = useKryptonT();
  const titleId = useId();
  const bodyId = useId();
  const listId = useId();
  const stuck = props.workloads.filter(awaitsManualRollout);
  const count = props.workloads.length;
  return (
    <Dialog
      open={props.open}
      onClose={props.onCancel}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
    >
      <DialogTitle id={titleId}>
        {t('consumers.dialog.title', { name: props.secretName })}
      </DialogTitle>
      <DialogContent>
        <DialogContentText id={bodyId}>
          {t('consumers.dialog.body', { count, namespace: props.namespace })}
        </DialogContentText>
        <DialogContentText id={listId} component="div">
          {t('consumers.dialog.listTitle')}
        </DialogContentText>
        <ul aria-labelledby={listId}>
          {props.workloads.map(w => (
            <li key={workloadLabel(w)}>{workloadLabel(w)}</li>
          ))}
        </ul>
        {stuck.length > 0 && (
          <Alert severity="warning">
            {t('consumers.dialog.stuck', {
              details: stuck
                .map(w =>
                  w.paused
                    ? t('consumers.dialog.paused', {
                        workload: workloadLabel(w),
                      })
                    : t('consumers.dialog.onDelete', {
                        workload: workloadLabel(w),
                      }),
                )
                .join('; '),
            })}
          </Alert>
        )}
        {props.discoveryFailures.length > 0 && (
          <Alert severity="warning" style={{ marginTop: 8 }}>
            {t('consumers.dialog.partialDiscovery', {
              kinds: props.discoveryFailures.map(f => f.kind).join(', '),
            })}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onCancel}>{t('consumers.dialog.cancel')}</Button>
        <Button onClick={props.onConfirm} color="primary" variant="contained">
          {t('consumers.dialog.confirm', { count })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
