import { MAX_SECRET_BYTES } from '@krypton/plugin-krypton-common';
import Box from '@material-ui/core/Box';
import LinearProgress from '@material-ui/core/LinearProgress';
import Typography from '@material-ui/core/Typography';

const KIB = 1024;
const MIB = 1024 * 1024;

const trim = (n: number) => String(Number(n.toFixed(2)));

/**
 * A byte count for people. Below the limit sizes are rounded down and above it up, so a size
 * that fits never reads as the limit and one over the limit never reads as fitting.
 */
export function formatSize(bytes: number, limit: number = MAX_SECRET_BYTES) {
  if (bytes < KIB) return bytes === 1 ? '1 byte' : `${bytes} bytes`;
  const round = bytes > limit ? Math.ceil : Math.floor;
  if (bytes < MIB) {
    const kib = bytes / KIB;
    return `${trim(kib < 10 ? round(kib * 10) / 10 : round(kib))} KiB`;
  }
  return `${trim(round((bytes / MIB) * 100) / 100)} MiB`;
}

export interface SizeMeterProps {
  /** The estimate of estimateSecretSize for the draft's text values and the kept binary values. */
  bytes: number;
  /** Whether saving would write data; a metadata-only edit is bounded by decoded bytes instead. */
  writesData: boolean;
  limit?: number;
}

/** The estimated size of the draft against Kubernetes' 1 MiB bound. */
export function SizeMeter({
  bytes,
  writesData,
  limit = MAX_SECRET_BYTES,
}: SizeMeterProps) {
  const over = bytes > limit;
  const summary = `${formatSize(bytes, limit)} of ${formatSize(
    limit,
    limit,
  )} (estimated)`;
  return (
    <Box>
      <Typography variant="body2">{summary}</Typography>
      <LinearProgress
        variant="determinate"
        color={over ? 'secondary' : 'primary'}
        value={Math.min(100, (bytes / limit) * 100)}
        aria-label="Estimated size"
        aria-valuetext={summary}
      />
      <Typography variant="caption" color="textSecondary" component="p">
        {bytes.toLocaleString('en-US')} of {limit.toLocaleString('en-US')}{' '}
        bytes: (the UTF-8 bytes of all keys and text values, plus the decoded
        bytes of binary values) × 1.4.
      </Typography>
      {over && (
        <Typography variant="body2" color="error" role="status">
          {writesData
            ? 'The Secret is too large to save. Remove or shorten values.'
            : 'The estimate is over the limit, but this edit keeps the data as it is, so it can still be saved.'}
        </Typography>
      )}
    </Box>
  );
}
