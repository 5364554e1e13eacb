import { KeyDiff, KeyDiffEntry, isMultiLine } from '@krypton/core';
import { VISUALLY_HIDDEN } from '@krypton/plugin-krypton-react';
import Button from '@material-ui/core/Button';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableHead from '@material-ui/core/TableHead';
import TableRow from '@material-ui/core/TableRow';
import Typography from '@material-ui/core/Typography';
import { makeStyles } from '@material-ui/core/styles';
import { Fragment, useState } from 'react';
import { useKryptonT } from '../../translation';
import { NONE, useWholeWordStyles } from '../wholeWordTables';
import { LineDiffView } from './LineDiffView';

const useStyles = makeStyles(theme => ({
  // Breaks a long key anywhere, but not a short one: an automatic table squeezes a column down to
  // its widest unbreakable line, which "anywhere" alone makes a single letter.
  key: {
    fontFamily: 'monospace',
    overflowWrap: 'anywhere',
    display: 'inline-block',
    minWidth: '10ch',
  },
  value: {
    display: 'block',
    maxWidth: 360,
    maxHeight: 160,
    overflow: 'auto',
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
    fontFamily: 'monospace',
  },
  cell: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    gap: theme.spacing(1),
  },
  visuallyHidden: VISUALLY_HIDDEN,
}));

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The placeholder of a masked value: symbols, not words, as NONE is for a side without the key. */
const MASK = '••••••••';

/**
 * One side's text value, masked until this very value is revealed. The text is rendered as a
 * React text node, never parsed or previewed, so nothing in it can become markup.
 */
function MaskedText(props: { text: string; keyName: string; side: string }) {
  const classes = useStyles();
  const t = useKryptonT();
  const [revealed, setRevealed] = useState(false);
  // A different value (a reload, another version) starts masked again, as in SecretValues.
  const [seen, setSeen] = useState(props.text);
  if (seen !== props.text) {
    setSeen(props.text);
    setRevealed(false);
  }
  return (
    <span className={classes.cell}>
      {revealed ? (
        <code className={classes.value}>{props.text}</code>
      ) : (
        // Only a placeholder until revealed, so the value is not in the DOM at all.
        <span>
          <span aria-hidden="true">{MASK}</span>
          <span className={classes.visuallyHidden}>
            {t('history.diff.hidden')}
          </span>
        </span>
      )}
      <Button
        size="small"
        aria-label={t(
          revealed ? 'history.diff.hideValue' : 'history.diff.revealValue',
          { key: props.keyName, side: props.side },
        )}
        onClick={() => setRevealed(r => !r)}
      >
        {revealed ? t('history.diff.hide') : t('history.diff.reveal')}
      </Button>
    </span>
  );
}

function SideCell(props: {
  entry: KeyDiffEntry;
  side: 'before' | 'after';
  sideLabel: string;
  missingText?: string;
}) {
  const { entry, side, sideLabel } = props;
  const t = useKryptonT();
  const onSide =
    side === 'before' ? entry.change !== 'added' : entry.change !== 'removed';
  if (!onSide) return <>{NONE}</>;
  // Binary values never appear in a diff, and an unchanged value needs no second look.
  if (entry.kind === 'binary') {
    return (
      <Typography variant="body2" color="textSecondary">
        {t('history.diff.binaryNotShown')}
      </Typography>
    );
  }
  if (entry.change === 'unchanged') {
    return (
      <Typography variant="body2" color="textSecondary">
        {t('history.diff.sameValue')}
      </Typography>
    );
  }
  const text = side === 'before' ? entry.before : entry.after;
  if (text === undefined) {
    return (
      <Typography variant="body2" color="textSecondary">
        {props.missingText ?? t('history.diff.valueNotAvailable')}
      </Typography>
    );
  }
  return <MaskedText text={text} keyName={entry.key} side={sideLabel} />;
}

/**
 * Both texts of a changed multi-line text value, which get a line diff under their row. Binary
 * values never do, and single lines read well enough side by side.
 */
function lineChanges(
  entry: KeyDiffEntry,
): { before: string; after: string } | undefined {
  const { before, after } = entry;
  if (
    entry.kind !== 'text' ||
    entry.change !== 'changed' ||
    before === undefined ||
    after === undefined
  ) {
    return undefined;
  }
  return isMultiLine(before) || isMultiLine(after)
    ? { before, after }
    : undefined;
}

export interface KeyDiffTableProps {
  diff: KeyDiff;
  /** The table's accessible name. */
  title: string;
  /** What the sides are, e.g. "live" and "version 2". */
  fromLabel: string;
  toLabel: string;
  /** Why only keys were compared, when they were. */
  keysOnlyReason?: string;
  /** What a compared text value that the diff does not carry says; "value not available". */
  missingText?: string;
}

/**
 * A key-level comparison; text values are masked one by one, binary values are never shown.
 * A changed multi-line text value also gets its line changes, masked the same way.
 */
export function KeyDiffTable(props: KeyDiffTableProps) {
  const classes = useStyles();
  const whole = useWholeWordStyles();
  const t = useKryptonT();
  const { diff, title, fromLabel, toLabel } = props;
  const { counts } = diff;
  const added = String(counts.added);
  const removed = String(counts.removed);
  return (
    <div>
      {!diff.valuesCompared && (
        <Typography variant="body2" paragraph>
          {props.keysOnlyReason
            ? t('history.diff.keysOnlyBecause', {
                reason: props.keysOnlyReason,
              })
            : t('history.diff.keysOnly')}
        </Typography>
      )}
      <Typography variant="body2" paragraph>
        {diff.valuesCompared
          ? t('history.diff.countsCompared', {
              added,
              removed,
              changed: String(counts.changed),
              unchanged: String(counts.unchanged),
            })
          : t('history.diff.countsKeys', {
              added,
              removed,
              present: String(counts.present),
            })}
      </Typography>
      {diff.entries.length === 0 ? (
        <Typography variant="body2">{t('history.diff.noKeys')}</Typography>
      ) : (
        <div className={whole.scroll}>
          <Table size="small" aria-label={title}>
            <TableHead>
              <TableRow>
                <TableCell>{t('history.diff.key')}</TableCell>
                <TableCell className={whole.oneLine}>
                  {t('history.diff.change')}
                </TableCell>
                <TableCell className={whole.oneLine}>
                  {t('history.diff.kind')}
                </TableCell>
                <TableCell>{capitalize(fromLabel)}</TableCell>
                <TableCell>{capitalize(toLabel)}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {diff.entries.map(entry => {
                const lines = lineChanges(entry);
                return (
                  <Fragment key={entry.key}>
                    <TableRow>
                      <TableCell component="th" scope="row" role="rowheader">
                        <span className={classes.key}>{entry.key}</span>
                      </TableCell>
                      <TableCell className={whole.oneLine}>
                        {t(`history.diff.changes.${entry.change}`)}
                        {entry.kind === 'binary' &&
                          entry.change === 'changed' && (
                            <Typography
                              variant="caption"
                              display="block"
                              color="textSecondary"
                            >
                              {t('history.diff.binaryNoLineDiff')}
                            </Typography>
                          )}
                      </TableCell>
                      <TableCell className={whole.oneLine}>
                        {t(`history.diff.kinds.${entry.kind}`)}
                      </TableCell>
                      <TableCell>
                        <SideCell
                          entry={entry}
                          side="before"
                          sideLabel={fromLabel}
                          missingText={props.missingText}
                        />
                      </TableCell>
                      <TableCell>
                        <SideCell
                          entry={entry}
                          side="after"
                          sideLabel={toLabel}
                          missingText={props.missingText}
                        />
                      </TableCell>
                    </TableRow>
                    {lines && (
                      <TableRow>
                        <TableCell colSpan={5}>
                          <LineDiffView
                            before={lines.before}
                            after={lines.after}
                            keyName={entry.key}
                            fromLabel={fromLabel}
                            toLabel={toLabel}
                          />
                        </TableCell>
                      </TableRow>
                    )}
                  </Fragment>
                );
              })}
            </TableBody>
          </Table>
        </div>
      )}
    </div>
  );
}
