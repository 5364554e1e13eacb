import { SecretSummary } from '@krypton/plugin-krypton-common';
import Button from '@material-ui/core/Button';
import Dialog from '@material-ui/core/Dialog';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogTitle from '@material-ui/core/DialogTitle';
import { useId } from 'react';
import { NamespaceLocation } from '../../api/KryptonApi';
import { SecretForm } from '../edit';

export interface CreateSecretDialogProps {
  location: NamespaceLocation;
  onClose: () => void;
  /** The created Secret's metadata; its values are never handed on. */
  onCreated: (secret: SecretSummary) => void;
}

/** SecretForm in create mode for one namespace; the creator sets the access rules. */
export const CreateSecretDialog = (props: CreateSecretDialogProps) => {
  const titleId = useId();
  return (
    <Dialog
      open
      onClose={props.onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="md"
    >
      <DialogTitle id={titleId}>
        Create a Secret in {props.location.namespace}
      </DialogTitle>
      <DialogContent>
        <SecretForm
          mode="create"
          location={props.location}
          canEditAccess
          // The dialog closes on success and only names the new Secret, so it keeps none of the
          // answer's values; reveal rights on a Secret that did not exist are not known here.
          keepValues={false}
          onSaved={props.onCreated}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>Cancel</Button>
      </DialogActions>
    </Dialog>
  );
};
