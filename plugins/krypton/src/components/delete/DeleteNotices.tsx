import { DeleteResult } from '@krypton/core';
import Button from '@material-ui/core/Button';
import Alert from '@material-ui/lab/Alert';
import AlertTitle from '@material-ui/lab/AlertTitle';
import { ReactNode } from 'react';
import { KryptonT, useKryptonT } from '../../translation';

/** Which Secret a notice is about; a SecretSummary fits. */
export interface DeletedSecretRef {
  cluster?: string;
  namespace: string;
  name: string;
}

export interface DeleteNoticeProps {
  secret: DeletedSecretRef;
  result: DeleteResult;
  /** Shows a Dismiss action when given. */
  onDismiss?: () => void;
}

const where = (secret: DeletedSecretRef, t: KryptonT) =>
  secret.cluster
    ? t('delete.notices.whereOnCluster', {
        namespace: secret.namespace,
        name: secret.name,
        cluster: secret.cluster,
      })
    : t('delete.notices.where', {
        namespace: secret.namespace,
        name: secret.name,
      });

/**
 * The spec makes no claim of atomic erasure: "cleaned" covers the snapshots found before the live
 * delete, so the text says what an operator may still have to remove.
 */
const historyText = (history: DeleteResult['history'], t: KryptonT) =>
  history === 'kept'
    ? t('delete.notices.historyKept')
    : t('delete.notices.historyCleaned');

function dismissAction(t: KryptonT, onDismiss?: () => void): ReactNode {
  return onDismiss ? (
    <Button color="inherit" size="small" onClick={onDismiss}>
      {t('delete.notices.dismiss')}
    </Button>
  ) : undefined;
}

/** After a 200: the Secret is gone, and what became of its history. */
export function DeletedNotice({
  secret,
  result,
  onDismiss,
}: DeleteNoticeProps) {
  const t = useKryptonT();
  return (
    <Alert severity="success" action={dismissAction(t, onDismiss)}>
      <AlertTitle>
        {t('delete.notices.deletedTitle', {
          namespace: secret.namespace,
          name: secret.name,
        })}
      </AlertTitle>
      {t('delete.notices.deleted', { where: where(secret, t) })}{' '}
      {historyText(result.history, t)}
    </Alert>
  );
}

/** After a 202: Kubernetes accepted the delete but still holds the same Secret. */
export function PendingDeletionNotice({
  secret,
  result,
  onDismiss,
}: DeleteNoticeProps) {
  const t = useKryptonT();
  return (
    <Alert severity="warning" action={dismissAction(t, onDismiss)}>
      <AlertTitle>
        {t('delete.notices.pendingTitle', {
          namespace: secret.namespace,
          name: secret.name,
        })}
      </AlertTitle>
      {t('delete.notices.pending', { where: where(secret, t) })}{' '}
      {result.history === 'kept'
        ? t('delete.notices.pendingKept')
        : t('delete.notices.pendingCleaned')}
    </Alert>
  );
}
