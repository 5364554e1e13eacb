import { DeleteResult, SecretSummary } from '@krypton/core';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import { useId, useState } from 'react';
import { SecretLocation } from '../../api/KryptonApi';
import { KryptonT, useKryptonT } from '../../translation';
import { ActionDecisions } from '../access/decide';
import { DeleteSecretDialog, DeleteTarget } from './DeleteSecretDialog';

export interface DeleteSecretButtonProps {
  location: SecretLocation;
  /** The live Secret as loaded: its resourceVersion is the expected revision. */
  summary: SecretSummary;
  decisions: ActionDecisions;
  /** Refetches the live Secret and its history in the parent; rejects on failure. */
  reloadLive: () => Promise<void>;
  /** 200: the Secret is gone. history tells whether its snapshots were cleaned or kept. */
  onDeleted: (result: DeleteResult) => void;
  /** 202: Kubernetes holds it (finalizers); the caller keeps the user on the Secret and refetches. */
  onPending: (result: DeleteResult) => void;
  /**
   * A delete that failed or whose outcome is unknown; the confirmation stays open. History
   * cleanup may have removed snapshots before the failure, so the caller refetches the history
   * (not the live Secret: the user reloads that with Reload latest).
   */
  onFailed?: () => void;
}

/** Why the button is disabled, in words for the user; none when it may be used. */
function disabledReasons(
  props: DeleteSecretButtonProps,
  t: KryptonT,
): string[] {
  const reasons: string[] = [];
  if (props.summary.deletionTimestamp) {
    reasons.push(
      t('delete.button.alreadyDeleting', {
        since: props.summary.deletionTimestamp,
      }),
    );
  }
  if (!props.decisions.delete.allowed) {
    reasons.push(
      t('delete.button.denied', {
        reason: props.decisions.delete.reason ?? t('delete.button.lacksRight'),
      }),
    );
  }
  return reasons;
}

/**
 * "Delete…" and its confirmation. The reason a disabled button cannot be used is shown as text
 * beside it (and tied to it with aria-describedby), since a disabled button takes no focus and
 * would hide a tooltip from keyboard users.
 */
export function DeleteSecretButton(props: DeleteSecretButtonProps) {
  const t = useKryptonT();
  const reasonId = useId();
  const [target, setTarget] = useState<DeleteTarget>();
  const reasons = disabledReasons(props, t);

  const finish =
    (callback: (result: DeleteResult) => void) => (result: DeleteResult) => {
      setTarget(undefined);
      callback(result);
    };

  return (
    <Box display="flex" alignItems="center" flexWrap="wrap" style={{ gap: 16 }}>
      <Button
        variant="outlined"
        color="secondary"
        disabled={reasons.length > 0}
        aria-describedby={reasons.length > 0 ? reasonId : undefined}
        aria-haspopup="dialog"
        onClick={() =>
          setTarget({ location: props.location, summary: props.summary })
        }
      >
        {t('delete.button.delete')}
      </Button>
      {reasons.length > 0 && (
        <Typography variant="body2" color="textSecondary" id={reasonId}>
          {reasons.join(' ')}
        </Typography>
      )}
      {target && (
        <DeleteSecretDialog
          target={target}
          current={props.summary}
          decision={props.decisions.delete}
          reloadLive={props.reloadLive}
          onClose={() => setTarget(undefined)}
          onDeleted={finish(props.onDeleted)}
          onPending={finish(props.onPending)}
          onFailed={props.onFailed}
        />
      )}
    </Box>
  );
}
