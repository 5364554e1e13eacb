import { ChangeRequestState } from '@krypton/core';
import Chip from '@material-ui/core/Chip';
import { useKryptonT } from '../../translation';

const WAITING: ReadonlySet<ChangeRequestState> = new Set([
  'pending',
  'approved',
]);

/** A request's state as a word: outlined while it waits, filled once it ended. */
export function StateChip(props: { state: ChangeRequestState }) {
  const t = useKryptonT();
  const waiting = WAITING.has(props.state);
  return (
    <Chip
      size="small"
      label={t(`changes.state.${props.state}`)}
      variant={waiting ? 'outlined' : 'default'}
      color={props.state === 'pending' ? 'primary' : 'default'}
    />
  );
}
