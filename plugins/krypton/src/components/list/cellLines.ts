import { makeStyles } from '@material-ui/core/styles';

/**
 * Lines in a table cell that must not widen their column: an automatic table grows a column to
 * its widest line that cannot wrap, so a long name (or owner's mark) would take the card's width
 * for itself. `fill` is sized by the cell, never by its content (the width of 0 keeps it out of
 * the column's measure; the min-width fills the cell); `oneLine` cuts it with an ellipsis instead
 * of breaking it, for names that read as one word, shown whole on hover.
 */
export const useCellLineStyles = makeStyles({
  fill: { display: 'block', width: 0, minWidth: '100%' },
  oneLine: {
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
});
