import { useApi } from '@backstage/core-plugin-api';
import {
  ChangeRequest,
  ChangeRequestDiff,
  KeyDiff,
  MAX_REQUESTED_KEYS,
} from '@krypton/core';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import { useState } from 'react';
import useAsyncRetry from 'react-use/esm/useAsyncRetry';
import { SecretLocation, kryptonApiRef } from '../../api/KryptonApi';
import { KryptonT, useKryptonT } from '../../translation';
import { KeyDiffTable } from '../history/KeyDiffTable';
import { LoadFailure, Loading } from '../history/VersionComparison';
import { serverMessage } from '../history/useVersionHistory';

/** What the proposed side is called: the values proposed, the version restored, or nothing. */
function proposedLabel(request: ChangeRequest, t: KryptonT): string {
  switch (request.change.operation) {
    case 'restore':
      return t('changes.compare.version', {
        version: String(request.change.version),
      });
    case 'delete':
      return t('changes.compare.afterDelete');
    default:
      return t('changes.compare.proposed');
  }
}

/** The text keys whose values differ: the only ones worth reading to compare. */
function differingTextKeys(diff: KeyDiff): string[] {
  return diff.entries
    .filter(
      e =>
        e.kind === 'text' &&
        (e.change === 'changed' ||
          e.change === 'added' ||
          e.change === 'removed'),
    )
    .map(e => e.key)
    .slice(0, MAX_REQUESTED_KEYS);
}

/**
 * What a pending request would do to the live Secret, key by key. The comparison arrives without
 * values; those of the differing text keys are read only when the user asks (one audited value
 * read), and even then each is shown one at a time, with line changes for multi-line values.
 */
export function ChangeComparison(props: {
  location: SecretLocation;
  request: ChangeRequest;
  /** The live revision the page shows: when it moves, the comparison is read again. */
  liveRevision: string;
}) {
  const api = useApi(kryptonApiRef);
  const t = useKryptonT();
  const { location, request, liveRevision } = props;
  const compared = useAsyncRetry(
    () => api.getChangeRequestDiff(location, request.id),
    [
      api,
      location.cluster,
      location.namespace,
      location.name,
      request.id,
      liveRevision,
    ],
  );
  // Values read belong to one request against one live revision, and show under those only.
  const readFor = `${request.id} ${liveRevision}`;
  const [withValues, setWithValues] = useState<{
    readFor: string;
    answer: ChangeRequestDiff;
  }>();
  const [reading, setReading] = useState(false);
  const [readError, setReadError] = useState<string>();

  const what = t('changes.compare.what');
  if (compared.error) {
    return (
      <LoadFailure
        what={what}
        error={compared.error}
        onRetry={compared.retry}
      />
    );
  }
  if (!compared.value) return <Loading what={what} />;

  const read = withValues?.readFor === readFor ? withValues.answer : undefined;
  const diff = (read ?? compared.value).diff;
  const keys = diff && !read ? differingTextKeys(diff) : [];
  const readValues = async () => {
    setReading(true);
    setReadError(undefined);
    try {
      const answer = await api.getChangeRequestDiff(location, request.id, {
        keys,
      });
      setWithValues({ readFor, answer });
    } catch (err) {
      setReadError(
        serverMessage(err as Error) ?? t('changes.compare.unreachable'),
      );
    } finally {
      setReading(false);
    }
  };

  return (
    <Box>
      <Typography variant="subtitle2" component="h4" gutterBottom>
        {t('changes.compare.title')}
      </Typography>
      {diff ? (
        <KeyDiffTable
          diff={diff}
          title={t('changes.compare.tableLabel')}
          fromLabel={t('changes.compare.live')}
          toLabel={proposedLabel(request, t)}
          keysOnlyReason={t('changes.compare.keysOnlyReason')}
          missingText={read ? undefined : t('changes.compare.notRead')}
        />
      ) : (
        <Typography variant="body2">
          {t('changes.compare.keysUnknown')}
        </Typography>
      )}
      {diff?.valuesCompared && keys.length > 0 && (
        <Box
          mt={1}
          display="flex"
          flexWrap="wrap"
          alignItems="center"
          style={{ gap: 8 }}
        >
          <Button
            variant="outlined"
            size="small"
            disabled={reading}
            onClick={readValues}
          >
            {reading ? t('changes.compare.reading') : t('changes.compare.read')}
          </Button>
          <Typography variant="caption" color="textSecondary">
            {t('changes.compare.readNote')}
          </Typography>
        </Box>
      )}
      {readError && (
        <Box mt={1}>
          <Alert severity="error">{readError}</Alert>
        </Box>
      )}
    </Box>
  );
}
