import {
  InfoCard,
  Progress,
  ResponseErrorPanel,
} from '@backstage/core-components';
import {
  SecretSummary,
  SecretWriteAnswer,
} from '@krypton/plugin-krypton-common';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import { SecretLocation } from '../../api/KryptonApi';
import { ActionDecisions } from '../access/decide';
import { SecretForm } from '../edit';
import { formatVersion } from '../list/secretRows';
import { SecretValues } from '../values';
import { KeyList } from './KeyList';
import { SecretValuesState } from './useSecretValues';

export interface ValuesTabProps {
  location: SecretLocation;
  summary: SecretSummary;
  values: SecretValuesState;
  decisions: ActionDecisions;
  editing: boolean;
  onEdit: (editing: boolean) => void;
  /** Whether the open form's draft holds changes; see SecretForm. */
  onDirtyChange?: (dirty: boolean) => void;
  /** The live Secret the form's Reload latest loaded; see SecretForm. */
  onReloaded?: (live: SecretWriteAnswer) => void;
  onSaved: (secret: SecretWriteAnswer) => void;
}

/** The Secret's values, masked by SecretValues until revealed, and the edit form for editors. */
export const ValuesTab = (props: ValuesTabProps) => {
  const { location, summary, values, decisions, editing } = props;
  if (!decisions.reveal.allowed) {
    return (
      <InfoCard title="Keys">
        <Box mb={2}>
          <Alert severity="info">
            You may see this Secret's metadata, but not its values.{' '}
            {decisions.reveal.reason}
          </Alert>
        </Box>
        <KeyList secret={summary} />
      </InfoCard>
    );
  }
  // An open form outlives a failed background refresh: the draft stays pinned to its revision.
  if (editing && values.secret) {
    const secret = values.secret;
    return (
      <InfoCard
        title="Edit Secret"
        action={
          <Button onClick={() => props.onEdit(false)}>Cancel editing</Button>
        }
      >
        {values.error && (
          <Box mb={2}>
            <Alert severity="warning">
              The values could not be refreshed ({values.error.message}). Your
              draft is kept; reload latest in the form to try again.
            </Alert>
          </Box>
        )}
        <SecretForm
          // A fresh form (and draft) per Secret, pinned to the loaded revision.
          key={`${secret.cluster}/${secret.namespace}/${secret.name}`}
          mode="edit"
          location={location}
          initial={secret}
          canEditAccess={decisions.manageAccess.allowed}
          keepValues={decisions.reveal.allowed}
          onDirtyChange={props.onDirtyChange}
          onReloaded={props.onReloaded}
          onSaved={props.onSaved}
        />
      </InfoCard>
    );
  }

  if (values.error) {
    return (
      <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
        <ResponseErrorPanel
          error={values.error}
          title="Could not load the values"
        />
        <InfoCard title="Keys">
          <KeyList secret={summary} />
        </InfoCard>
      </Box>
    );
  }
  const secret = values.secret;
  if (!secret && values.withheld) {
    const saved = values.withheld;
    // Not refetched on its own: the backend just declined to return the values, and each value
    // read is audited. Reload values is the user's explicit try.
    return (
      <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
        <Alert severity="info">
          The change was saved: the Secret is now at version{' '}
          {formatVersion(saved.version)}, revision {saved.resourceVersion}. Its
          values are not shown, because you may not reveal them now. Reload
          values to try loading them.
        </Alert>
        <Box>
          <Button variant="outlined" onClick={values.reload}>
            Reload values
          </Button>
        </Box>
        <InfoCard title="Keys">
          <KeyList secret={summary} />
        </InfoCard>
      </Box>
    );
  }
  if (!secret) return <Progress />;

  return (
    <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
      <Box display="flex" alignItems="center" style={{ gap: 16 }}>
        {decisions.update.allowed ? (
          <Button
            variant="contained"
            color="primary"
            onClick={() => props.onEdit(true)}
          >
            Edit
          </Button>
        ) : (
          <Typography variant="body2" color="textSecondary">
            You cannot edit this Secret: {decisions.update.reason}
          </Typography>
        )}
        <Button variant="outlined" onClick={values.reload}>
          Reload values
        </Button>
      </Box>
      <SecretValues
        data={secret.data}
        binaryData={secret.binaryData}
        keys={secret.keys}
        title="Values"
      />
    </Box>
  );
};
