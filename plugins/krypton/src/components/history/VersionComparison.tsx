import {
  DiffSide,
  VersionDto,
  keyDiff,
  LiveComparison,
  versionSide,
} from '@krypton/core';
import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import { useMemo } from 'react';
import { KryptonT, useKryptonT } from '../../translation';
import { KeyDiffTable } from './KeyDiffTable';
import { serverMessage } from './useVersionHistory';
import { useVersionValues } from './useVersionValues';

/** One side of a comparison: a retained version, or the live Secret. */
export type ComparedSide =
  | { kind: 'version'; version: number }
  | { kind: 'live' };

export function sideLabel(side: ComparedSide, t: KryptonT): string {
  return side.kind === 'live'
    ? t('history.sides.live')
    : t('history.sides.version', { version: String(side.version) });
}

export function sameSide(a: ComparedSide, b: ComparedSide): boolean {
  return a.kind === 'live'
    ? b.kind === 'live'
    : b.kind === 'version' && a.version === b.version;
}

export function LoadFailure(props: {
  what: string;
  error: Error;
  onRetry: () => void;
}) {
  const t = useKryptonT();
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" onClick={props.onRetry}>
          {t('history.compare.retry')}
        </Button>
      }
    >
      {t('history.compare.loadFailed', {
        what: props.what,
        message: serverMessage(props.error) ?? t('history.unreachable'),
      })}
    </Alert>
  );
}

export function Loading({ what }: { what: string }) {
  const t = useKryptonT();
  return (
    <Typography variant="body2" role="status">
      {t('history.compare.loading', { what })}
    </Typography>
  );
}

/** A version side's values, read through the history's shared loader; nothing for live. */
function useSideValues(
  side: ComparedSide,
  loadVersion: (version: number) => Promise<VersionDto>,
) {
  return useVersionValues(
    loadVersion,
    side.kind === 'version' ? side.version : undefined,
    side.kind === 'version',
  );
}

function sideOf(
  kind: ComparedSide['kind'],
  live: LiveComparison,
  dto: VersionDto | undefined,
): DiffSide | undefined {
  if (kind === 'live') return live.side;
  return dto ? versionSide(dto) : undefined;
}

export interface VersionComparisonProps {
  from: ComparedSide;
  to: ComparedSide;
  live: LiveComparison;
  loadVersion: (version: number) => Promise<VersionDto>;
}

/**
 * What changes from one side to the other, key by key, with line changes for multi-line text.
 * Mounted only once the user asks for the comparison: reading a version's values is an audited
 * value read (the live values are the ones the page already read through the Secret's route).
 */
export function VersionComparison(props: VersionComparisonProps) {
  const { from, to, live } = props;
  const t = useKryptonT();
  const fromValues = useSideValues(from, props.loadVersion);
  const toValues = useSideValues(to, props.loadVersion);

  // Memoized on the loaded answers, so that a re-render does not diff two 1 MiB values again.
  const fromSide = useMemo(
    () => sideOf(from.kind, live, fromValues.version),
    [from.kind, live, fromValues.version],
  );
  const toSide = useMemo(
    () => sideOf(to.kind, live, toValues.version),
    [to.kind, live, toValues.version],
  );
  const diff = useMemo(
    () => (fromSide && toSide ? keyDiff(fromSide, toSide) : undefined),
    [fromSide, toSide],
  );

  const fromLabel = sideLabel(from, t);
  const toLabel = sideLabel(to, t);
  const involvesLive = from.kind === 'live' || to.kind === 'live';
  const liveReason = live.reason && t(`history.live.${live.reason}`);
  if (involvesLive && !live.side) {
    return <Typography variant="body2">{liveReason}</Typography>;
  }
  for (const [side, values] of [
    [from, fromValues],
    [to, toValues],
  ] as const) {
    if (values.error) {
      return (
        <LoadFailure
          what={t('history.compare.valuesOf', { side: sideLabel(side, t) })}
          error={values.error}
          onRetry={values.retry}
        />
      );
    }
  }
  if (!diff) {
    const [first, second] = [from, to]
      .filter(s => s.kind === 'version')
      .map(s => sideLabel(s, t));
    return (
      <Loading
        what={
          second === undefined
            ? t('history.compare.valuesOf', { side: first })
            : t('history.compare.valuesOfBoth', { first, second })
        }
      />
    );
  }
  return (
    <KeyDiffTable
      diff={diff}
      title={t('history.compare.tableTitle', {
        from: fromLabel,
        to: toLabel,
      })}
      fromLabel={fromLabel}
      toLabel={toLabel}
      keysOnlyReason={involvesLive ? liveReason : undefined}
    />
  );
}
