import { DiffLine, lineDiff, lineDiffHunks } from '@krypton/core';
import { VISUALLY_HIDDEN } from '@krypton/plugin-krypton-react';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import { makeStyles } from '@material-ui/core/styles';
import { useMemo, useState } from 'react';
import { useKryptonT } from '../../translation';

const useStyles = makeStyles(theme => ({
  diff: {
    maxHeight: 400,
    overflow: 'auto',
    border: `1px solid ${theme.palette.divider}`,
    borderRadius: theme.shape.borderRadius,
  },
  table: {
    borderCollapse: 'collapse',
    width: '100%',
    fontFamily: 'monospace',
    fontSize: theme.typography.body2.fontSize,
  },
  number: {
    width: '1%',
    padding: theme.spacing(0, 1),
    textAlign: 'right',
    color: theme.palette.text.secondary,
    userSelect: 'none',
    verticalAlign: 'top',
  },
  marker: {
    width: '1%',
    padding: theme.spacing(0, 0.5),
    userSelect: 'none',
    verticalAlign: 'top',
  },
  text: {
    padding: theme.spacing(0, 1),
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
  },
  removed: {
    backgroundColor:
      theme.palette.type === 'dark'
        ? 'rgba(248, 81, 73, 0.2)'
        : 'rgba(255, 129, 130, 0.25)',
  },
  added: {
    backgroundColor:
      theme.palette.type === 'dark'
        ? 'rgba(46, 160, 67, 0.2)'
        : 'rgba(46, 160, 67, 0.18)',
  },
  skipped: {
    padding: theme.spacing(0.5, 1),
    color: theme.palette.text.secondary,
    fontStyle: 'italic',
    backgroundColor: theme.palette.action.hover,
  },
  visuallyHidden: VISUALLY_HIDDEN,
}));

const MARKERS = { same: ' ', removed: '−', added: '+' } as const;

function LineRow({ line }: { line: DiffLine }) {
  const classes = useStyles();
  const t = useKryptonT();
  let spoken = '';
  if (line.change === 'removed') spoken = t('history.lines.spokenRemoved');
  else if (line.change === 'added') spoken = t('history.lines.spokenAdded');
  const rowClass = line.change === 'same' ? undefined : classes[line.change];
  return (
    <tr className={rowClass}>
      <td className={classes.number}>{line.beforeLine ?? ''}</td>
      <td className={classes.number}>{line.afterLine ?? ''}</td>
      <td className={classes.marker} aria-hidden="true">
        {MARKERS[line.change]}
      </td>
      <td className={classes.text}>
        <span className={classes.visuallyHidden}>{spoken}</span>
        {/* A text node: nothing in a value can become markup. */}
        {line.text}
        {line.noNewlineAtEnd && (
          <Typography
            component="span"
            variant="caption"
            color="textSecondary"
            display="block"
          >
            {t('history.lines.noNewline')}
          </Typography>
        )}
      </td>
    </tr>
  );
}

/** The revealed diff: changed lines with three lines of context, the rest folded. */
function RevealedLines(props: {
  before: string;
  after: string;
  title: string;
}) {
  const classes = useStyles();
  const t = useKryptonT();
  // Computed only once revealed: nothing about the values is derived while they are masked.
  const diff = useMemo(
    () => lineDiff(props.before, props.after),
    [props.before, props.after],
  );
  if (diff.status === 'tooDifferent') {
    return (
      <Typography variant="body2">
        {t('history.lines.tooDifferent', {
          reason:
            diff.reason === 'tooManyLines'
              ? t('history.lines.tooManyLines', { count: diff.limit })
              : t('history.lines.tooManyChanges', { count: diff.limit }),
        })}
      </Typography>
    );
  }
  const parts = lineDiffHunks(diff.lines);
  return (
    <Box display="flex" flexDirection="column" style={{ gap: 4 }}>
      <Typography variant="body2">
        {t('history.lines.summary', {
          removed: t('history.lines.lines', { count: diff.removed }),
          added: t('history.lines.lines', { count: diff.added }),
        })}
      </Typography>
      <div className={classes.diff}>
        <table className={classes.table} aria-label={props.title}>
          <thead className={classes.visuallyHidden}>
            <tr>
              <th scope="col">{t('history.lines.lineBefore')}</th>
              <th scope="col">{t('history.lines.lineAfter')}</th>
              <th scope="col">{t('history.lines.change')}</th>
              <th scope="col">{t('history.lines.text')}</th>
            </tr>
          </thead>
          <tbody>
            {parts.map((part, index) =>
              part.kind === 'skipped' ? (
                <tr key={index}>
                  <td colSpan={4} className={classes.skipped}>
                    {t('history.lines.skipped', { count: part.count })}
                  </td>
                </tr>
              ) : (
                part.lines.map(line => (
                  <LineRow
                    key={`${line.beforeLine ?? ''}-${line.afterLine ?? ''}`}
                    line={line}
                  />
                ))
              ),
            )}
          </tbody>
        </table>
      </div>
    </Box>
  );
}

export interface LineDiffViewProps {
  before: string;
  after: string;
  /** The key, for the accessible names. */
  keyName: string;
  fromLabel: string;
  toLabel: string;
}

/**
 * A multi-line text value's changes line by line, as Git shows them, masked until revealed like
 * each value: until then no line of either side is in the page. Bounded by the core rule's
 * limits, so that a hostile value cannot freeze the page.
 */
export function LineDiffView(props: LineDiffViewProps) {
  const { before, after, keyName, fromLabel, toLabel } = props;
  const t = useKryptonT();
  const [revealed, setRevealed] = useState(false);
  // Other values (a reload, another pair of versions) start masked again.
  const [seen, setSeen] = useState({ before, after });
  if (seen.before !== before || seen.after !== after) {
    setSeen({ before, after });
    setRevealed(false);
  }
  const subject = { key: keyName, from: fromLabel, to: toLabel };
  return (
    <Box display="flex" flexDirection="column" style={{ gap: 4 }}>
      <Box
        display="flex"
        alignItems="center"
        flexWrap="wrap"
        style={{ gap: 8 }}
      >
        <Typography variant="body2" component="span">
          {t(
            revealed ? 'history.lines.heading' : 'history.lines.headingHidden',
            {
              key: <code>{keyName}</code>,
            },
          )}
        </Typography>
        <Button
          size="small"
          aria-label={t(
            revealed ? 'history.lines.hideLabel' : 'history.lines.revealLabel',
            subject,
          )}
          onClick={() => setRevealed(r => !r)}
        >
          {revealed ? t('history.lines.hide') : t('history.lines.reveal')}
        </Button>
      </Box>
      {revealed && (
        <RevealedLines
          before={before}
          after={after}
          title={t('history.lines.heading', { key: keyName })}
        />
      )}
    </Box>
  );
}
