import { InfoCard, StatusError, StatusOK } from '@backstage/core-components';
import { SecretSummary } from '@krypton/plugin-krypton-common';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableHead from '@material-ui/core/TableHead';
import TableRow from '@material-ui/core/TableRow';
import Typography from '@material-ui/core/Typography';
import { useMemo } from 'react';
import { SecretLocation } from '../../api/KryptonApi';
import {
  ACTION_LABELS,
  ActionDecisions,
  SECRET_ACTIONS,
  SecretRole,
} from '../access/decide';
import { withoutValues } from '../writeAnswer';
import { EditSecretCard, EditTabEvents } from './EditSecretCard';

const ROLE_TEXT: Record<SecretRole, string> = {
  admin:
    "Krypton admin: you pass this Secret's access rules (the permission policy and Kubernetes RBAC still apply).",
  owner: 'Owner: you may do everything with this Secret.',
  editor: 'Editor: you may read, reveal, update, restore and restart.',
  viewer: 'Viewer: you may read and reveal.',
  none: "You are not named in this Secret's access rules.",
  'no-rules':
    'This Secret has no access rules: the permission policy and Kubernetes RBAC decide alone.',
};

function RoleList({ title, refs }: { title: string; refs: string[] }) {
  return (
    <Box>
      <Typography variant="subtitle2" component="h3">
        {title}
      </Typography>
      {refs.length === 0 ? (
        <Typography variant="body2" color="textSecondary">
          None
        </Typography>
      ) : (
        <ul aria-label={title} style={{ margin: 0, paddingLeft: 20 }}>
          {refs.map(ref => (
            <li key={ref}>
              <Typography variant="body2">{ref}</Typography>
            </li>
          ))}
        </ul>
      )}
    </Box>
  );
}

export interface AccessTabProps extends EditTabEvents {
  location: SecretLocation;
  secret: SecretSummary;
  decisions: ActionDecisions;
  role: SecretRole;
  editing: boolean;
}

/** Who may do what with the Secret, what the signed-in user may do, and the owners' editor. */
export const AccessTab = (props: AccessTabProps) => {
  const { secret, decisions, role, editing } = props;
  // The access form starts from the metadata alone: it never shows, reads or sends values.
  const initial = useMemo(() => withoutValues(secret), [secret]);
  if (editing) {
    return (
      <EditSecretCard
        {...props}
        title="Edit access and description"
        initial={initial}
        scope="metadata"
      />
    );
  }
  return (
    <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
      <InfoCard title="Access rules">
        <Typography variant="subtitle2" component="h3">
          Description
        </Typography>
        <Typography variant="body2" paragraph>
          {secret.description || 'No description.'}
        </Typography>
        <Box display="flex" flexWrap="wrap" style={{ gap: 32 }}>
          <RoleList title="Owners" refs={secret.access.owners} />
          <RoleList title="Editors" refs={secret.access.editors} />
          <RoleList title="Viewers" refs={secret.access.viewers} />
        </Box>
        <Box mt={2} display="flex" alignItems="center" style={{ gap: 16 }}>
          {decisions.manageAccess.allowed ? (
            <Button
              variant="contained"
              color="primary"
              onClick={() => props.onEdit(true)}
            >
              Edit access and description
            </Button>
          ) : (
            <Typography variant="body2" color="textSecondary">
              You cannot change the rules or the description:{' '}
              {decisions.manageAccess.reason}
            </Typography>
          )}
        </Box>
      </InfoCard>
      <InfoCard title="What you may do">
        <Typography variant="body2" paragraph>
          {ROLE_TEXT[role]}
        </Typography>
        <Table size="small" aria-label="What you may do">
          <TableHead>
            <TableRow>
              <TableCell>Action</TableCell>
              <TableCell>Allowed</TableCell>
              <TableCell>Why not</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {SECRET_ACTIONS.map(action => (
              <TableRow key={action}>
                <TableCell component="th" scope="row" role="rowheader">
                  {ACTION_LABELS[action]}
                </TableCell>
                <TableCell>
                  {decisions[action].allowed ? (
                    <StatusOK>Yes</StatusOK>
                  ) : (
                    <StatusError>No</StatusError>
                  )}
                </TableCell>
                <TableCell>{decisions[action].reason ?? ''}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <Typography variant="caption" color="textSecondary">
          Kubernetes RBAC is not visible here: when you act, Krypton shows its
          refusal if it denies you.
        </Typography>
      </InfoCard>
    </Box>
  );
};
