import { Link } from '@backstage/core-components';
import {
  KryptonConfigDto,
  Principal,
  SecretListItem,
  SecretSummary,
} from '@krypton/core';
import Tooltip from '@material-ui/core/Tooltip';
import Typography from '@material-ui/core/Typography';
import { useId } from 'react';
import { useKryptonT } from '../translation';
import { decideActions, limitByType, permitAll } from './access/decide';
import { restoreBlock } from './history/restoreBlock';

export interface RollBackActionProps {
  /**
   * A named ref's summary, or a list's item, which does not know immutability: such a row links
   * to the History tab, which gives the reason.
   */
  summary: SecretSummary | SecretListItem;
  /** The detail view's History tab, opening the newest restorable version. */
  to: string;
  principal?: Principal;
  config?: KryptonConfigDto;
}

/**
 * The entity tab's "Roll back…" for one row: a link where a restore is possible, else the same
 * words, disabled, with the reason the History tab would give (immutable, pending deletion, a
 * service-account token, an invalid counter, the permission policy or the access rules).
 */
export function RollBackAction(props: RollBackActionProps) {
  const { summary, principal, config } = props;
  const t = useKryptonT();
  const reasonId = useId();
  // Only restore is judged here; the other actions' answers do not change its decision. A
  // summary carries the policy's answer; a list's item does not, and links to the History tab,
  // which has it.
  const restoreAllowed = summary.policy?.restore ?? true;
  const permitted = { ...permitAll(true), restore: restoreAllowed };
  const decisions = principal
    ? limitByType(
        decideActions(
          {
            rules: summary.access,
            principal,
            identityMode: config?.identityMode,
            restartEnabled: config?.restartEnabled,
            // The list route serves a Secret only after its read rules passed on the server.
            served: true,
            permitted,
          },
          t,
        ),
        summary.type,
      )
    : undefined;
  const label = t('page.rollBack.label', { name: summary.name });
  if (!decisions) {
    return (
      <Typography variant="body2" color="textSecondary" aria-label={label}>
        {t('page.rollBack.text')}
      </Typography>
    );
  }
  const block = restoreBlock(summary, decisions, t);
  if (block === undefined) {
    return (
      <Link to={props.to} aria-label={label}>
        {t('page.rollBack.text')}
      </Link>
    );
  }
  return (
    <Tooltip title={block}>
      <Typography
        variant="body2"
        color="textSecondary"
        role="link"
        aria-disabled="true"
        aria-label={label}
        aria-describedby={reasonId}
      >
        {t('page.rollBack.text')}
        <span id={reasonId} hidden>
          {block}
        </span>
      </Typography>
    </Tooltip>
  );
}
