import { Icon } from '@iconify/react';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useId } from 'react';
import { text } from '../messages';

/** The id of the header action that takes the place of Headlamp's Edit on an owned Secret. */
export const OWNED_EDIT_ACTION = 'krypton.owned-edit';

/**
 * Headlamp's Edit, off, with the reason: the owner of the Secret would undo an edit made there.
 * A disabled button takes no pointer events, so its wrapper carries the tooltip; the button is
 * described by the reason, which Krypton's section also shows in its banner.
 */
export function OwnedEditAction({ reason }: { reason: string }) {
  const reasonId = useId();
  const words = text.owner.editRefused(reason);
  return (
    <Tooltip title={words}>
      <span>
        <IconButton
          disabled
          aria-label={text.owner.editLabel}
          aria-describedby={reasonId}
        >
          <Icon icon="mdi:pencil-off" width="1.5rem" />
        </IconButton>
        <span id={reasonId} hidden>
          {words}
        </span>
      </span>
    </Tooltip>
  );
}

/** The header action of OwnedEditAction, as Headlamp's header-actions processors return them. */
export function ownedEditHeaderAction(reason: string): {
  id: string;
  action: JSX.Element;
} {
  return {
    id: OWNED_EDIT_ACTION,
    action: <OwnedEditAction reason={reason} />,
  };
}
