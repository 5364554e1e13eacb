import { VersionDto, VersionSummary, LiveComparison } from '@krypton/core';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import { useState } from 'react';
import { useKryptonT } from '../../translation';
import { SecretValues } from '../values';
import { LoadFailure, Loading, VersionComparison } from './VersionComparison';
import { useVersionValues } from './useVersionValues';

/** The previous version's comparison, read only once the user asks for it. */
function PreviousComparison(props: {
  current: VersionDto;
  previous: VersionSummary;
  live: LiveComparison;
  loadVersion: (version: number) => Promise<VersionDto>;
}) {
  const { current, previous } = props;
  const t = useKryptonT();
  const [requested, setRequested] = useState(false);
  if (!requested) {
    return (
      <Button variant="outlined" onClick={() => setRequested(true)}>
        {t('history.details.comparePrevious', {
          version: String(previous.version),
        })}
      </Button>
    );
  }
  return (
    <VersionComparison
      from={{ kind: 'version', version: previous.version }}
      to={{ kind: 'version', version: current.version }}
      live={props.live}
      loadVersion={props.loadVersion}
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
  const t = useKryptonT();
  const values = useVersionValues(props.loadVersion, version.version, true);
  const dto = values.version;
  const what = t('history.compare.valuesOf', {
    side: t('history.sides.version', { version: String(version.version) }),
  });

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
        title={t('history.details.valuesTitle', {
          version: String(dto.version),
        })}
      />
      <Box>
        <Typography variant="h6" component="h3" gutterBottom>
          {t('history.details.toLive', { version: String(dto.version) })}
        </Typography>
        <VersionComparison
          from={{ kind: 'version', version: dto.version }}
          to={{ kind: 'live' }}
          live={live}
          loadVersion={props.loadVersion}
        />
      </Box>
      <Box>
        <Typography variant="h6" component="h3" gutterBottom>
          {t('history.details.fromPrevious')}
        </Typography>
        {previous ? (
          <PreviousComparison
            current={dto}
            previous={previous}
            live={live}
            loadVersion={props.loadVersion}
          />
        ) : (
          <Typography variant="body2">
            {t('history.details.oldest', { version: String(dto.version) })}
          </Typography>
        )}
      </Box>
    </Box>
  );
}
