import { useApi } from '@backstage/core-plugin-api';
import {
  DeletedSecretSummary,
  SecretWriteAnswer,
  VersionSummary,
} from '@krypton/core';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Dialog from '@material-ui/core/Dialog';
import DialogActions from '@material-ui/core/DialogActions';
import DialogContent from '@material-ui/core/DialogContent';
import DialogContentText from '@material-ui/core/DialogContentText';
import DialogTitle from '@material-ui/core/DialogTitle';
import FormControl from '@material-ui/core/FormControl';
import FormControlLabel from '@material-ui/core/FormControlLabel';
import FormLabel from '@material-ui/core/FormLabel';
import Radio from '@material-ui/core/Radio';
import RadioGroup from '@material-ui/core/RadioGroup';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import AlertTitle from '@material-ui/lab/AlertTitle';
import { useId, useRef, useState } from 'react';
import { NamespaceLocation, kryptonApiRef } from '../../api/KryptonApi';
import { failureOf } from '../../api/failure';
import { KryptonT, useKryptonT } from '../../translation';
import { RelativeTime } from '../time/RelativeTime';
import { ChangeActor } from '../history/ChangeActor';

export interface RecreateDialogProps {
  /** The namespace as the API addresses it (no cluster for the default cluster). */
  location: NamespaceLocation;
  secret: DeletedSecretSummary;
  onClose: () => void;
  /** The new Secret as the backend answered it. */
  onRecreated: (secret: SecretWriteAnswer) => void;
}

function keysText(version: VersionSummary, t: KryptonT): string {
  // null: the snapshot had too many keys to record their names, which is not "no keys".
  if (version.keys === null) return t('platform.deleted.dialog.keysUnknown');
  if (version.keys.length === 0) return t('platform.deleted.dialog.noKeys');
  return t('platform.deleted.dialog.keys', { keys: version.keys.join(', ') });
}

/** One kept version as a choice: its number, when and by whom, and its key names. */
function VersionChoice({ version }: { version: VersionSummary }) {
  const t = useKryptonT();
  return (
    <Box py={0.5}>
      <Typography variant="body2" component="span" style={{ fontWeight: 500 }}>
        {t('platform.deleted.versionName', {
          version: String(version.version),
        })}
      </Typography>
      {version.finalState && (
        <Typography
          variant="body2"
          component="span"
          color="textSecondary"
          style={{ marginLeft: 8 }}
        >
          {t('platform.deleted.dialog.finalState')}
        </Typography>
      )}
      <Typography variant="body2" color="textSecondary" component="div">
        <RelativeTime value={version.snapshotAt} />
        {' · '}
        <ChangeActor change={version} />
      </Typography>
      <Typography variant="caption" color="textSecondary" component="div">
        {keysText(version, t)}
      </Typography>
    </Box>
  );
}

/**
 * Confirms recreating a deleted Secret from one kept version, the newest by default. A failure
 * stays in the dialog with the server's message: a name taken meanwhile (409) or a version
 * pruned meanwhile (404) is for the user to read, not to retry blindly.
 */
export const RecreateDialog = (props: RecreateDialogProps) => {
  const api = useApi(kryptonApiRef);
  const t = useKryptonT();
  const titleId = useId();
  const bodyId = useId();
  const { secret } = props;
  const [picked, setPicked] = useState(secret.versions[0]?.version);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  // The ref, not state, guards a second click that arrives before the re-render.
  const inFlight = useRef(false);

  const recreate = async () => {
    if (inFlight.current || picked === undefined) return;
    inFlight.current = true;
    setBusy(true);
    setError(undefined);
    try {
      const created = await api.recreateSecret(
        { ...props.location, name: secret.name },
        { uid: secret.uid, version: picked },
      );
      props.onRecreated(created);
    } catch (e) {
      // The server's fixed message, or the client's own when no answer arrived.
      setError(failureOf(e).message);
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      onClose={busy ? undefined : props.onClose}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      fullWidth
      maxWidth="sm"
    >
      <DialogTitle id={titleId}>
        {t('platform.deleted.dialog.title', { name: secret.name })}
      </DialogTitle>
      <DialogContent>
        <DialogContentText id={bodyId}>
          {t('platform.deleted.dialog.body', { name: secret.name })}
        </DialogContentText>
        <FormControl component="fieldset" disabled={busy}>
          <FormLabel component="legend">
            {t('platform.deleted.dialog.versions')}
          </FormLabel>
          <RadioGroup
            value={picked === undefined ? '' : String(picked)}
            onChange={e => setPicked(Number(e.target.value))}
          >
            {secret.versions.map(v => (
              <FormControlLabel
                key={v.version}
                value={String(v.version)}
                control={<Radio color="primary" />}
                label={<VersionChoice version={v} />}
              />
            ))}
          </RadioGroup>
        </FormControl>
        {error && (
          <Box mt={2}>
            <Alert severity="error">
              <AlertTitle>
                {t('platform.deleted.dialog.failedTitle', {
                  name: secret.name,
                })}
              </AlertTitle>
              {error}
            </Alert>
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose} disabled={busy}>
          {t('platform.deleted.dialog.cancel')}
        </Button>
        <Button
          variant="contained"
          color="primary"
          onClick={recreate}
          disabled={busy || picked === undefined}
        >
          {busy
            ? t('platform.deleted.dialog.recreating')
            : t('platform.deleted.dialog.recreate')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
