import Box from '@material-ui/core/Box';
import { makeStyles } from '@material-ui/core/styles';
import { ReactNode } from 'react';

/**
 * Backstage's cells break words anywhere to fit a squeezed column: at an 800 px window kinds and
 * workload names broke mid-word ("Deploy / ment", "payments- / api"). In the Consumers tables
 * every word stays whole; a kind, a name and a code are one line each, and the other columns
 * wrap between words. A table that still does not fit (a very long name) scrolls sideways in its
 * box.
 */
export const useTableStyles = makeStyles({
  scroll: { overflowX: 'auto' },
  table: { '& th, & td': { wordBreak: 'normal' } },
  oneLine: { whiteSpace: 'nowrap' },
});

/** The box a Consumers table scrolls sideways in when it does not fit. */
export function Scrolling({ children }: { children: ReactNode }) {
  const classes = useTableStyles();
  return <Box className={classes.scroll}>{children}</Box>;
}

/** An empty cell: a symbol, not a word. */
export const NONE = '—';
