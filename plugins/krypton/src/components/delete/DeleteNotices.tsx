import { DeleteResult } from '@krypton/plugin-krypton-common';
import Button from '@material-ui/core/Button';
import Alert from '@material-ui/lab/Alert';
import AlertTitle from '@material-ui/lab/AlertTitle';
import { ReactNode } from 'react';

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

const where = (secret: DeletedSecretRef) =>
  `${secret.namespace}/${secret.name}${
    secret.cluster ? ` on cluster ${secret.cluster}` : ''
  }`;

/**
 * The spec makes no claim of atomic erasure: "cleaned" covers the snapshots found before the live
 * delete, so the text says what an operator may still have to remove.
 */
const HISTORY_TEXT: Record<DeleteResult['history'], string> = {
  cleaned:
    'Its history was cleaned: the snapshots Krypton found for it were deleted before the Secret, so its earlier versions cannot be restored. A write already in progress may still have left a snapshot behind, and legacy copies from older Krypton versions are not touched; an operator removes such leftovers with kubectl.',
  kept: "Its history was kept: the snapshots stay in the namespace as ordinary Secrets that still hold its earlier values, for an operator's forensics or reviewed recovery with kubectl. Krypton no longer lists or restores them, not even through a new Secret of the same name, which starts a separate history; they remain until an operator deletes them.",
};

function dismissAction(onDismiss?: () => void): ReactNode {
  return onDismiss ? (
    <Button color="inherit" size="small" onClick={onDismiss}>
      Dismiss
    </Button>
  ) : undefined;
}

/** After a 200: the Secret is gone, and what became of its history. */
export function DeletedNotice({
  secret,
  result,
  onDismiss,
}: DeleteNoticeProps) {
  return (
    <Alert severity="success" action={dismissAction(onDismiss)}>
      <AlertTitle>
        Deleted {secret.namespace}/{secret.name}
      </AlertTitle>
      Kubernetes confirmed that {where(secret)} no longer exists.{' '}
      {HISTORY_TEXT[result.history]}
    </Alert>
  );
}

/** After a 202: Kubernetes accepted the delete but still holds the same Secret. */
export function PendingDeletionNotice({
  secret,
  result,
  onDismiss,
}: DeleteNoticeProps) {
  return (
    <Alert severity="warning" action={dismissAction(onDismiss)}>
      <AlertTitle>
        Deletion of {secret.namespace}/{secret.name} is pending
      </AlertTitle>
      Kubernetes accepted the delete of {where(secret)} but has not removed it
      yet: it is finalizing the Secret, commonly because finalizers must be
      cleared first. It is not deleted until then, stays listed with its pending
      deletion, and cannot be restored meanwhile. Reload to see its current
      state.{' '}
      {result.history === 'kept'
        ? 'Its history was kept.'
        : 'Its history snapshots were cleaned before the delete request.'}
    </Alert>
  );
}
