import {
  OwnershipFacts,
  describeOwnership,
  englishOwnerT,
  ownerSyncTargetName,
  ownershipLasts,
  useCopyText,
} from '@krypton/plugin-krypton-react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { ownedChangeBlock } from './ownedBlock';
import { OwnerSyncAction, OwnerSyncPlace } from './OwnerSyncAction';

const t = englishOwnerT;

/** One command in code style, with a button that copies it and says whether it did. */
function CommandLine({ command }: { command: string }) {
  const { status, copy } = useCopyText();
  return (
    <Box display="flex" alignItems="center" flexWrap="wrap" gap={1} mt={0.5}>
      <Box
        component="code"
        // Wraps anywhere: a long command must not widen Headlamp's details view.
        sx={{
          fontFamily: 'monospace',
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
          px: 1,
          py: 0.5,
          borderRadius: 1,
          bgcolor: 'action.hover',
          minWidth: 0,
        }}
      >
        {command}
      </Box>
      <Button size="small" onClick={() => copy(command)}>
        {t('owner.command.copy')}
      </Button>
      <Typography variant="caption" role="status">
        {status === 'copied' && t('owner.command.copied')}
        {status === 'failed' && t('owner.command.copyFailed')}
      </Typography>
    </Box>
  );
}

function Part(props: { title: string; children: string }) {
  return (
    <Typography variant="body2" component="p" sx={{ mt: 0.5 }}>
      <strong>{props.title}</strong> {props.children}
    </Typography>
  );
}

/**
 * Who owns the Secret and what a change of it comes to, with the words and the commands of the
 * Backstage plugin's banner: the owning tool, what an edit of its data in place does, what Krypton
 * does here, and how to change it at its source instead (with `sync`, External Secrets' sync as a
 * button too). Nothing for a Secret that nothing claims.
 */
export function OwnershipBanner(props: {
  secret: OwnershipFacts;
  /** Without the owning object and the steps at the source, for a confirmation. */
  compact?: boolean;
  /**
   * The Secret on its cluster's engines, to offer External Secrets' force-sync as a button where
   * the user may patch the ExternalSecret: only the details view gives it, since asking costs a
   * dry run.
   */
  sync?: OwnerSyncPlace;
}) {
  const titleId = useId();
  const described = describeOwnership(props.secret, t);
  if (!described) return null;
  const syncTarget = ownerSyncTargetName(props.secret);
  // Headlamp has no installation settings: an owner that asks for a reason is refused here.
  const rule =
    described.edits === 'reason-required'
      ? ownedChangeBlock(props.secret.owner)
      : described.rule;
  return (
    <Alert
      severity={ownershipLasts(described) ? 'info' : 'warning'}
      // A standing notice, not news: a region named by its title rather than an alert announced.
      role="region"
      aria-labelledby={titleId}
    >
      <AlertTitle id={titleId}>{described.title}</AlertTitle>
      {!props.compact && described.object && (
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
        <Typography variant="body2" component="p" sx={{ mt: 0.5 }}>
          {described.conflict}
        </Typography>
      )}
      {rule && <Part title={t('owner.headings.rule')}>{rule}</Part>}
      {!props.compact && described.instead && (
        <Box mt={0.5}>
          <Part title={t('owner.headings.instead')}>
            {described.instead.text}
          </Part>
          {described.instead.command && (
            <CommandLine command={described.instead.command} />
          )}
          {props.sync && syncTarget && (
            <OwnerSyncAction {...props.sync} owner={syncTarget} />
          )}
        </Box>
      )}
    </Alert>
  );
}
