import { SecretMetadataView } from '@krypton/core';
import {
  VISUALLY_HIDDEN,
  describeOwnership,
} from '@krypton/plugin-krypton-react';
import Chip from '@material-ui/core/Chip';
import Tooltip from '@material-ui/core/Tooltip';
import { useId } from 'react';
import { useKryptonT } from '../../translation';

/**
 * A list row's mark of the tool that owns its Secret, with what a change comes to as its tooltip
 * and its description; nothing for a Secret that no tool owns.
 */
export function OwnerChip({
  secret,
}: {
  secret: Pick<
    SecretMetadataView,
    'namespace' | 'name' | 'owner' | 'dataAppliedBy'
  >;
}) {
  const t = useKryptonT();
  const detailsId = useId();
  const described = secret.owner ? describeOwnership(secret, t) : undefined;
  if (!described) return null;
  const details = [described.prediction, described.conflict, described.rule]
    .filter((part): part is string => part !== undefined)
    .join(' ');
  return (
    <>
      <Tooltip title={details}>
        <Chip
          size="small"
          variant="outlined"
          label={described.title}
          // Focusable, so that keyboard users get the tooltip too.
          tabIndex={0}
          aria-describedby={detailsId}
          // Alone under a name: the theme's trailing margin for a row of chips would push it
          // past a narrow column's edge.
          style={{ maxWidth: '100%', marginRight: 0 }}
        />
      </Tooltip>
      <span id={detailsId} style={VISUALLY_HIDDEN}>
        {details}
      </span>
    </>
  );
}
