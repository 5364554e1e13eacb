import { MAX_SECRET_BYTES } from '@krypton/core';
import Box from '@material-ui/core/Box';
import LinearProgress from '@material-ui/core/LinearProgress';
import Typography from '@material-ui/core/Typography';
import { KryptonT, useKryptonT } from '../../translation';

const KIB = 1024;
const MIB = 1024 * 1024;

const trim = (n: number) => String(Number(n.toFixed(2)));

/**
 * A byte count for people. Below the limit sizes are rounded down and above it up, so a size
 * that fits never reads as the limit and one over the limit never reads as fitting.
 */
export function formatSize(
  t: KryptonT,
  bytes: number,
  limit: number = MAX_SECRET_BYTES,
): string {
  if (bytes < KIB) return t('edit.size.byte', { count: bytes });
  const round = bytes > limit ? Math.ceil : Math.floor;
  if (bytes < MIB) {
    const kib = bytes / KIB;
    return t('edit.size.kib', {
      size: trim(kib < 10 ? round(kib * 10) / 10 : round(kib)),
    });
  }
  return t('edit.size.mib', { size: trim(round((bytes / MIB) * 100) / 100) });
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
  const t = useKryptonT();
  const over = bytes > limit;
  const summary = t('edit.size.summary', {
    size: formatSize(t, bytes, limit),
    limit: formatSize(t, limit, limit),
  });
  return (
    <Box>
      <Typography variant="body2">{summary}</Typography>
      <LinearProgress
        variant="determinate"
        color={over ? 'secondary' : 'primary'}
        value={Math.min(100, (bytes / limit) * 100)}
        aria-label={t('edit.size.label')}
        aria-valuetext={summary}
      />
      <Typography variant="caption" color="textSecondary" component="p">
        {t('edit.size.formula', {
          bytes: bytes.toLocaleString('en-US'),
          limit: limit.toLocaleString('en-US'),
        })}
      </Typography>
      {over && (
        <Typography variant="body2" color="error" role="status">
          {writesData ? t('edit.size.tooLarge') : t('edit.size.overButKept')}
        </Typography>
      )}
    </Box>
  );
}
