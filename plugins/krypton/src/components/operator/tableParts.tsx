import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { makeStyles } from '@material-ui/core/styles';

/**
 * The operator's tables have many columns: too many for a narrow window. Their words stay whole
 * (Backstage's cells break them anywhere to fit a squeezed column), their cells have narrower
 * paddings than Backstage's, so that nine columns fit a laptop's window, and a table narrower
 * than its columns' words scrolls sideways in its card, under a title that stays in place: the
 * box around the table (inside the table's own scrolling box) takes the table's narrowest width
 * when the card is narrower.
 */
export const useOperatorTableStyles = makeStyles({
  root: {
    '& div:has(> table)': { width: 'min-content', minWidth: '100%' },
    '& th, & td': { wordBreak: 'normal', paddingLeft: 8, paddingRight: 8 },
    '& th:first-child, & td:first-child': { paddingLeft: 20 },
  },
});

/** A cell whose text reads as one piece: a namespace, an actor, a time. */
export const ONE_LINE = { whiteSpace: 'nowrap' } as const;

/**
 * An empty table's words, at its start: centred in a table wider than its card, they would sit
 * out of view. The cell's padding lines them up with the first column.
 */
export function EmptyTable({ text }: { text: string }) {
  return (
    <Box py={2}>
      <Typography variant="body2">{text}</Typography>
    </Box>
  );
}
