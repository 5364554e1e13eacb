import Box from '@material-ui/core/Box';
import { makeStyles } from '@material-ui/core/styles';
import { ReactNode } from 'react';

/**
 * Backstage's cells break words anywhere to fit a squeezed column: at an 800 px window kinds and
 * workload names broke mid-word ("Deploy / ment", "payments- / api"). In Krypton's tables every
 * word stays whole: `table` lets cells wrap between words only, `oneLine` keeps a name, a kind or
 * a code in one piece, and a table that still does not fit (a very long name) scrolls sideways
 * in its box (`scroll`, or `Scrolling` around it).
 */
export const useWholeWordStyles = makeStyles({
  scroll: { overflowX: 'auto' },
  table: { '& th, & td': { wordBreak: 'normal' } },
  oneLine: { whiteSpace: 'nowrap' },
});

/** The box a table scrolls sideways in when it does not fit. */
export function Scrolling({ children }: { children: ReactNode }) {
  const classes = useWholeWordStyles();
  return <Box className={classes.scroll}>{children}</Box>;
}

/** An empty cell: a symbol, not a word. */
export const NONE = '—';
