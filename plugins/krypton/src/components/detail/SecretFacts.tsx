import { InfoCard } from '@backstage/core-components';
import { SecretSummary, messages } from '@krypton/plugin-krypton-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import { formatVersion } from '../list/secretRows';

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Box minWidth={120}>
      <Typography variant="overline" component="dt" color="textSecondary">
        {label}
      </Typography>
      <Typography variant="body1" component="dd" style={{ margin: 0 }}>
        {value}
      </Typography>
    </Box>
  );
}

/** The Secret's identity and state at a glance: where it lives, its version and its flags. */
export const SecretFacts = ({ secret }: { secret: SecretSummary }) => (
  <InfoCard title={secret.name} subheader={secret.description}>
    <Box
      component="dl"
      display="flex"
      flexWrap="wrap"
      style={{ gap: 24, margin: 0 }}
    >
      <Fact label="Cluster" value={secret.cluster} />
      <Fact label="Namespace" value={secret.namespace} />
      <Fact label="Name" value={secret.name} />
      <Fact label="Type" value={secret.type} />
      <Fact label="Version" value={formatVersion(secret.version)} />
      <Fact label="Managed" value={yesNo(secret.managed)} />
      <Fact label="Immutable" value={yesNo(secret.immutable)} />
      <Fact
        label="Pending deletion"
        value={
          secret.deletionTimestamp ? `Since ${secret.deletionTimestamp}` : 'No'
        }
      />
    </Box>
    {secret.deletionTimestamp && (
      <Box mt={2}>
        <Alert severity="warning">
          Kubernetes is deleting this Secret (deletion is pending), so it cannot
          be restored.
        </Alert>
      </Box>
    )}
    {secret.version === null && (
      <Box mt={2}>
        <Alert severity="warning">{messages.invalidCounter}</Alert>
      </Box>
    )}
    {!secret.managed && (
      <Box mt={2}>
        <Alert severity="info">
          Krypton does not manage this Secret yet: adopt it from the Krypton
          page to keep its history.
        </Alert>
      </Box>
    )}
  </InfoCard>
);
