import { InfoCard, ResponseErrorPanel } from '@backstage/core-components';
import { SecretSummary } from '@krypton/core';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import { SecretLocation } from '../../api/KryptonApi';
import { useKryptonT } from '../../translation';
import { ActionDecisions } from '../access/decide';
import { formatVersion } from '../list/secretRows';
import { EditSecretCard, EditTabEvents } from './EditSecretCard';
import { KeyList } from '../values/KeyList';
import { LiveValues } from './LiveValues';
import { SecretValuesState } from './useSecretValues';

export interface ValuesTabProps extends EditTabEvents {
  location: SecretLocation;
  summary: SecretSummary;
  values: SecretValuesState;
  decisions: ActionDecisions;
  editing: boolean;
}

/** The Secret's values, each masked until a person asks for it, and the edit form for editors. */
export const ValuesTab = (props: ValuesTabProps) => {
  const { summary, values, decisions, editing } = props;
  const t = useKryptonT();
  if (!decisions.reveal.allowed) {
    return (
      <InfoCard title={t('detail.values.keysTitle')}>
        <Box mb={2}>
          <Alert severity="info">
            {t('detail.values.metadataOnly', {
              reason: decisions.reveal.reason ?? '',
            })}
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
      <EditSecretCard
        {...props}
        title={t('detail.values.editTitle')}
        secret={secret}
        initial={secret}
        approval={props.summary.approval}
      >
        {values.error && (
          <Box mb={2}>
            <Alert severity="warning">
              {t('detail.values.refreshFailed', {
                message: values.error.message,
              })}
            </Alert>
          </Box>
        )}
      </EditSecretCard>
    );
  }

  const secret = values.secret;
  if (!secret && values.withheld) {
    const saved = values.withheld;
    // Not refetched on its own: the backend just declined to return the values, and each value
    // read is audited. Load values is the user's explicit try.
    return (
      <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
        <Alert severity="info">
          {t('detail.values.withheld', {
            version: formatVersion(t, saved.version),
            revision: saved.resourceVersion,
          })}
        </Alert>
        <Box>
          <Button variant="outlined" onClick={values.drop}>
            {t('detail.values.reload')}
          </Button>
        </Box>
        <InfoCard title={t('detail.values.keysTitle')}>
          <KeyList secret={summary} />
        </InfoCard>
      </Box>
    );
  }

  return (
    <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
      <Box display="flex" alignItems="center" style={{ gap: 16 }}>
        {decisions.update.allowed ? (
          <Button
            variant="contained"
            color="primary"
            disabled={values.loading}
            // The form needs every value: they are read now, when the user asks to edit.
            onClick={() =>
              values.refresh().then(
                () => props.onEdit(true),
                () => undefined,
              )
            }
          >
            {values.loading
              ? t('detail.values.editLoading')
              : t('detail.values.edit')}
          </Button>
        ) : (
          <Typography variant="body2" color="textSecondary">
            {t('detail.values.cannotEdit', {
              reason: decisions.update.reason ?? '',
            })}
          </Typography>
        )}
      </Box>
      {values.error && (
        <ResponseErrorPanel
          error={values.error}
          title={t('detail.values.loadFailed')}
        />
      )}
      <LiveValues summary={summary} values={values} />
    </Box>
  );
};
