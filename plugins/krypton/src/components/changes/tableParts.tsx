import { VISUALLY_HIDDEN } from '@krypton/plugin-krypton-react';
import { makeStyles } from '@material-ui/core/styles';
import { Fragment } from 'react';

/**
 * Words stay whole in a narrow table (an 800 px window), as in History's versions: Backstage's
 * cells break words anywhere to fit a squeezed column.
 */
export const useTableStyles = makeStyles(theme => ({
  visuallyHidden: VISUALLY_HIDDEN,
  table: {
    '& th, & td': {
      wordBreak: 'normal',
      overflowWrap: 'normal',
      paddingRight: theme.spacing(1),
    },
  },
  noWrap: { whiteSpace: 'nowrap' },
}));

/** A user or group ref, which may break after its colon and slash, and nowhere else. */
export function RefText(props: { value: string }) {
  const parts = props.value.split(/(?<=[:/])/);
  return (
    <>
      {parts.map((part, i) => (
        // The parts of one ref never move, so their places are their keys.
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
