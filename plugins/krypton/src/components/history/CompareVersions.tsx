import { VersionDto, VersionSummary, LiveComparison } from '@krypton/core';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import TextField from '@material-ui/core/TextField';
import Typography from '@material-ui/core/Typography';
import { useId, useState } from 'react';
import { useKryptonT } from '../../translation';
import {
  ComparedSide,
  VersionComparison,
  sameSide,
  sideLabel,
} from './VersionComparison';

const LIVE = 'live';
/** A symbol, not a word: the button's accessible name says what it does. */
const SWAP_GLYPH = '⇄';

function encode(side: ComparedSide): string {
  return side.kind === 'live' ? LIVE : String(side.version);
}

function decode(value: string): ComparedSide {
  return value === LIVE
    ? { kind: 'live' }
    : { kind: 'version', version: Number(value) };
}

/** The newest version against live, or the two newest versions without a live side. */
function defaults(
  items: readonly VersionSummary[],
  withLive: boolean,
): [ComparedSide, ComparedSide] {
  const newest: ComparedSide = { kind: 'version', version: items[0].version };
  if (withLive) return [newest, { kind: 'live' }];
  return [{ kind: 'version', version: items[1].version }, newest];
}

export interface CompareVersionsProps {
  /** Newest first. */
  items: readonly VersionSummary[];
  live: LiveComparison;
  /** Why versions cannot be read; undefined when they can. */
  viewBlock?: string;
  /** The element that says viewBlock. */
  viewBlockId: string;
  loadVersion: (version: number) => Promise<VersionDto>;
  /** Told at each Compare: live values are read only for a comparison that shows live. */
  onCompare?: (from: ComparedSide, to: ComparedSide) => void;
}

/**
 * Any two sides compared, each a retained version or live. Nothing is read until Compare: each
 * version read is an audited value read. Changing a side after that keeps the shown comparison
 * until Compare is pressed again, so that a choice in progress reads nothing.
 */
export function CompareVersions(props: CompareVersionsProps) {
  const { items, live } = props;
  const t = useKryptonT();
  const baseId = useId();
  const withLive = live.side !== undefined;
  const [initialFrom, initialTo] = defaults(items, withLive);
  const [from, setFrom] = useState<ComparedSide>(initialFrom);
  const [to, setTo] = useState<ComparedSide>(initialTo);
  const [shown, setShown] = useState<{
    from: ComparedSide;
    to: ComparedSide;
  }>();

  const options = [
    ...(withLive
      ? [{ value: LIVE, label: t('history.sides.liveOption') }]
      : []),
    ...items.map(item => ({
      value: String(item.version),
      label: t('history.sides.versionOption', {
        version: String(item.version),
      }),
    })),
  ];
  const same = sameSide(from, to);
  const sameId = `${baseId}-same`;
  let describedBy: string | undefined;
  if (props.viewBlock !== undefined) describedBy = props.viewBlockId;
  else if (same) describedBy = sameId;

  const picker = (
    which: 'from' | 'to',
    value: ComparedSide,
    onChange: (side: ComparedSide) => void,
  ) => (
    <TextField
      select
      id={`${baseId}-${which}`}
      label={t(`history.compare.${which}`)}
      value={encode(value)}
      onChange={e => onChange(decode(e.target.value))}
      SelectProps={{ native: true }}
      variant="outlined"
      size="small"
      disabled={props.viewBlock !== undefined}
      style={{ minWidth: 160 }}
    >
      {options.map(option => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </TextField>
  );

  return (
    <Box display="flex" flexDirection="column" style={{ gap: 12 }}>
      <Box
        display="flex"
        alignItems="center"
        flexWrap="wrap"
        style={{ gap: 12 }}
        role="group"
        aria-label={t('history.compare.group')}
      >
        {picker('from', from, setFrom)}
        <Button
          size="small"
          aria-label={t('history.compare.swap')}
          disabled={props.viewBlock !== undefined}
          onClick={() => {
            setFrom(to);
            setTo(from);
          }}
        >
          {SWAP_GLYPH}
        </Button>
        {picker('to', to, setTo)}
        <Button
          variant="outlined"
          disabled={describedBy !== undefined}
          aria-describedby={describedBy}
          onClick={() => {
            props.onCompare?.(from, to);
            setShown({ from, to });
          }}
        >
          {t('history.compare.compare')}
        </Button>
        {/* A viewBlock is already on screen above the list; only the other reason is said here. */}
        {same && props.viewBlock === undefined && (
          <Typography variant="body2" color="textSecondary" id={sameId}>
            {t('history.compare.pickTwo')}
          </Typography>
        )}
      </Box>
      {shown && props.viewBlock === undefined && (
        <Box>
          <Typography variant="subtitle2" component="h4" gutterBottom>
            {t('history.compare.heading', {
              from: sideLabel(shown.from, t),
              to: sideLabel(shown.to, t),
            })}
          </Typography>
          <VersionComparison
            from={shown.from}
            to={shown.to}
            live={live}
            loadVersion={props.loadVersion}
          />
        </Box>
      )}
    </Box>
  );
}
