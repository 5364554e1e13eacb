import {
  OwnershipFacts,
  describeOwnership,
  ownerSyncTargetName,
  ownershipLasts,
} from '@krypton/plugin-krypton-react';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import AlertTitle from '@material-ui/lab/AlertTitle';
import { useId } from 'react';
import { SecretLocation } from '../../api/KryptonApi';
import { useKryptonT } from '../../translation';
import { CommandLine } from './CommandLine';
import { OwnerSyncAction } from './OwnerSyncAction';

export interface OwnershipBannerProps {
  secret: OwnershipFacts;
  /**
   * For a form or a confirmation: what a change will come to and what Krypton does, without the
   * owning object and the steps at the source, which the Secret's page shows above it.
   */
  compact?: boolean;
  /**
   * Where the Secret lives, to offer External Secrets' force-sync as a button where the user may
   * patch the ExternalSecret: only the Secret's page gives it, since asking costs a dry run.
   */
  syncAt?: SecretLocation;
}

function Part(props: { title: string; children: string }) {
  return (
    <Typography variant="body2" component="p" style={{ marginTop: 4 }}>
      <strong>{props.title}</strong> {props.children}
    </Typography>
  );
}

/**
 * Who owns the Secret and what a change of it comes to: the owning tool, what an edit of its data
 * in place will do, what Krypton does with a change, and how to change it at its source instead,
 * with the command to run (and, with `syncAt`, External Secrets' sync as a button). Nothing for a
 * Secret that nothing claims. Information where a change through Krypton lasts, a warning
 * otherwise.
 */
export function OwnershipBanner({
  secret,
  compact,
  syncAt,
}: OwnershipBannerProps) {
  const t = useKryptonT();
  const titleId = useId();
  const described = describeOwnership(secret, t);
  if (!described) return null;
  const syncTarget = ownerSyncTargetName(secret);
  return (
    <Alert
      severity={ownershipLasts(described) ? 'info' : 'warning'}
      // A standing notice, not news: a region named by its title rather than an alert announced.
      role="region"
      aria-labelledby={titleId}
    >
      <AlertTitle id={titleId}>{described.title}</AlertTitle>
      {!compact && described.object && (
        <Typography variant="body2" component="p">
          {described.object}
        </Typography>
      )}
      {described.prediction && (
        <Part title={t('owner.headings.prediction')}>
          {described.prediction}
        </Part>
      )}
      {described.settings && (
        <Typography variant="body2" component="p">
          {described.settings}
        </Typography>
      )}
      {described.conflict && (
        <Typography variant="body2" component="p" style={{ marginTop: 4 }}>
          {described.conflict}
        </Typography>
      )}
      {described.rule && (
        <Part title={t('owner.headings.rule')}>{described.rule}</Part>
      )}
      {!compact && described.instead && (
        <Box mt={0.5}>
          <Part title={t('owner.headings.instead')}>
            {described.instead.text}
          </Part>
          {described.instead.command && (
            <CommandLine command={described.instead.command} />
          )}
          {syncAt && syncTarget && (
            <OwnerSyncAction location={syncAt} owner={syncTarget} />
          )}
        </Box>
      )}
    </Alert>
  );
}
