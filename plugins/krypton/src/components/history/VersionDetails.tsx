import {
  VersionDto,
  VersionSummary,
  keyDiff,
} from '@krypton/plugin-krypton-common';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import { useMemo, useState } from 'react';
import { SecretValues } from '../values';
import { KeyDiffTable } from './KeyDiffTable';
import { LiveComparison, versionSide } from './sides';
import { messageOf } from './useVersionHistory';
import { useVersionValues } from './useVersionValues';

const READ_FAILED = 'Krypton could not be reached.';

function LoadFailure(props: {
  what: string;
  error: Error;
  onRetry: () => void;
}) {
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" onClick={props.onRetry}>
          Retry
        </Button>
      }
    >
      Could not load {props.what}: {messageOf(props.error, READ_FAILED)}
    </Alert>
  );
}

function Loading({ what }: { what: string }) {
  return (
    <Typography variant="body2" role="status">
      Loading {what}…
    </Typography>
  );
}

/** The previous version's comparison, read only once the user asks for it. */
function PreviousComparison(props: {
  current: VersionDto;
  previous: VersionSummary;
  loadVersion: (version: number) => Promise<VersionDto>;
}) {
  const { current, previous } = props;
  const [requested, setRequested] = useState(false);
  const older = useVersionValues(
    props.loadVersion,
    previous.version,
    requested,
  );
  const diff = useMemo(
    () =>
      older.version
        ? keyDiff(versionSide(older.version), versionSide(current))
        : undefined,
    [older.version, current],
  );
  const what = `version ${previous.version}`;
  if (!requested) {
    return (
      <Button variant="outlined" onClick={() => setRequested(true)}>
        Compare with version {previous.version} (previous)
      </Button>
    );
  }
  if (older.error) {
    return (
      <LoadFailure what={what} error={older.error} onRetry={older.retry} />
    );
  }
  if (!diff) return <Loading what={what} />;
  return (
    <KeyDiffTable
      diff={diff}
      title={`Changes from version ${previous.version} to version ${current.version}`}
      fromLabel={`version ${previous.version}`}
      toLabel={`version ${current.version}`}
    />
  );
}

export interface VersionDetailsProps {
  version: VersionSummary;
  /** The next older retained version, if any. */
  previous?: VersionSummary;
  live: LiveComparison;
  loadVersion: (version: number) => Promise<VersionDto>;
}

/**
 * One version opened: its values in the same masked viewer as live values, and what differs from
 * the live state and from the previous version. Mounted only when the user opens the version,
 * because reading its values is an audited value read.
 */
export function VersionDetails(props: VersionDetailsProps) {
  const { version, previous, live } = props;
  const values = useVersionValues(props.loadVersion, version.version, true);
  const dto = values.version;
  const liveDiff = useMemo(
    () => (dto && live.side ? keyDiff(versionSide(dto), live.side) : undefined),
    [dto, live.side],
  );
  const what = `the values of version ${version.version}`;

  if (values.error) {
    return (
      <LoadFailure what={what} error={values.error} onRetry={values.retry} />
    );
  }
  if (!dto) return <Loading what={what} />;

  return (
    <Box display="flex" flexDirection="column" style={{ gap: 16 }} py={1}>
      <SecretValues
        data={dto.data}
        binaryData={dto.binaryData}
        keys={dto.keys}
        title={`Values of version ${dto.version}`}
      />
      <Box>
        <Typography variant="h6" component="h3" gutterBottom>
          From version {dto.version} to live
        </Typography>
        {liveDiff ? (
          <KeyDiffTable
            diff={liveDiff}
            title={`Changes from version ${dto.version} to live`}
            fromLabel={`version ${dto.version}`}
            toLabel="live"
            keysOnlyReason={live.reason}
          />
        ) : (
          <Typography variant="body2">{live.reason}</Typography>
        )}
      </Box>
      <Box>
        <Typography variant="h6" component="h3" gutterBottom>
          From the previous version
        </Typography>
        {previous ? (
          <PreviousComparison
            current={dto}
            previous={previous}
            loadVersion={props.loadVersion}
          />
        ) : (
          <Typography variant="body2">
            Version {dto.version} is the oldest retained version.
          </Typography>
        )}
      </Box>
    </Box>
  );
}
