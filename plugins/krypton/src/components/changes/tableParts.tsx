import { ChangeRequest } from '@krypton/core';
import { VISUALLY_HIDDEN } from '@krypton/plugin-krypton-react';
import TableCell from '@material-ui/core/TableCell';
import { makeStyles } from '@material-ui/core/styles';
import { Fragment } from 'react';
import { useKryptonT } from '../../translation';
import { RelativeTime } from '../time/RelativeTime';
import { changeTitle } from './describeChange';

/**
 * The lists of requests, beside useWholeWordStyles' whole words: no word broken even where an
 * ancestor would allow it, and narrower gaps between the columns, so that a list fits an 800 px
 * window.
 */
export const useTableStyles = makeStyles(theme => ({
  visuallyHidden: VISUALLY_HIDDEN,
  table: {
    '& th, & td': {
      overflowWrap: 'normal',
      paddingRight: theme.spacing(1),
    },
  },
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

/** The heads of the columns that every list of requests shows: what, by whom, when. */
export function RequestHeads() {
  const t = useKryptonT();
  return (
    <>
      <TableCell>{t('changes.table.change')}</TableCell>
      <TableCell>{t('changes.table.requestedBy')}</TableCell>
      <TableCell>{t('changes.table.requested')}</TableCell>
    </>
  );
}

/** One request's cells under RequestHeads. */
export function RequestCells(props: { request: ChangeRequest }) {
  const { request } = props;
  const t = useKryptonT();
  return (
    <>
      <TableCell>{changeTitle(request.change, t)}</TableCell>
      <TableCell>
        <RefText value={request.requestedBy} />
      </TableCell>
      <TableCell>
        <RelativeTime value={request.requestedAt} />
      </TableCell>
    </>
  );
}
