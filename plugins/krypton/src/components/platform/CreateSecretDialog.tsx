import { SecretSummary } from '@krypton/core';
import Button from '@material-ui/core/Button';
import Dialog from '@material-ui/core/Dialog';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogTitle from '@material-ui/core/DialogTitle';
import { useId, useState } from 'react';
import { NamespaceLocation } from '../../api/KryptonApi';
import { useKryptonT } from '../../translation';
import { DiscardDraftDialog, SecretForm, useBeforeUnload } from '../edit';

export interface CreateSecretDialogProps {
  location: NamespaceLocation;
  onClose: () => void;
  /** The created Secret's metadata; its values are never handed on. */
  onCreated: (secret: SecretSummary) => void;
}

/** SecretForm in create mode for one namespace; the creator sets the access rules. */
export const CreateSecretDialog = (props: CreateSecretDialogProps) => {
  const t = useKryptonT();
  const titleId = useId();
  const [dirty, setDirty] = useState(false);
  const [asking, setAsking] = useState(false);
  useBeforeUnload(dirty);
  // A backdrop click, Escape and Cancel all close the dialog: with typed input, they ask first.
  const close = () => (dirty ? setAsking(true) : props.onClose());
  return (
    <Dialog
      open
      onClose={close}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="md"
    >
      <DialogTitle id={titleId}>
        {t('platform.create.title', { namespace: props.location.namespace })}
      </DialogTitle>
      <DialogContent>
        <SecretForm
          mode="create"
          location={props.location}
          canEditAccess
          // The dialog closes on success and only names the new Secret, so it keeps none of the
          // answer's values; reveal rights on a Secret that did not exist are not known here.
          keepValues={false}
          onDirtyChange={setDirty}
          onSaved={props.onCreated}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{t('platform.create.cancel')}</Button>
      </DialogActions>
      <DiscardDraftDialog
        open={asking}
        onKeep={() => setAsking(false)}
        onDiscard={props.onClose}
      />
    </Dialog>
  );
};
