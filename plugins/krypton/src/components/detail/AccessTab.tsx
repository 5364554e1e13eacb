import { InfoCard, StatusError, StatusOK } from '@backstage/core-components';
import { SecretSummary } from '@krypton/core';
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
import { useKryptonT } from '../../translation';
import {
  ActionDecisions,
  SECRET_ACTIONS,
  actionLabel,
  SecretRole,
} from '../access/decide';
import { withoutValues } from '../writeAnswer';
import { EditSecretCard, EditTabEvents } from './EditSecretCard';

/** The message key of each role's sentence. */
const ROLE_KEYS = {
  admin: 'admin',
  owner: 'owner',
  editor: 'editor',
  viewer: 'viewer',
  none: 'none',
  'no-rules': 'noRules',
} as const satisfies Record<SecretRole, string>;

function RoleList({ title, refs }: { title: string; refs: string[] }) {
  const t = useKryptonT();
  return (
    <Box>
      <Typography variant="subtitle2" component="h3">
        {title}
      </Typography>
      {refs.length === 0 ? (
        <Typography variant="body2" color="textSecondary">
          {t('detail.access.none')}
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
  const t = useKryptonT();
  // The access form starts from the metadata alone: it never shows, reads or sends values.
  const initial = useMemo(() => withoutValues(secret), [secret]);
  if (editing) {
    return (
      <EditSecretCard
        {...props}
        title={t('detail.access.editTitle')}
        initial={initial}
        scope="metadata"
        approval={secret.approval}
      />
    );
  }
  return (
    <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
      <InfoCard title={t('detail.access.rulesTitle')}>
        <Typography variant="subtitle2" component="h3">
          {t('detail.access.description')}
        </Typography>
        <Typography variant="body2" paragraph>
          {secret.description || t('detail.access.noDescription')}
        </Typography>
        <Box display="flex" flexWrap="wrap" style={{ gap: 32 }}>
          <RoleList
            title={t('detail.access.owners')}
            refs={secret.access.owners}
          />
          <RoleList
            title={t('detail.access.editors')}
            refs={secret.access.editors}
          />
          <RoleList
            title={t('detail.access.viewers')}
            refs={secret.access.viewers}
          />
        </Box>
        <Box mt={2} display="flex" alignItems="center" style={{ gap: 16 }}>
          {decisions.manageAccess.allowed ? (
            <Button
              variant="contained"
              color="primary"
              onClick={() => props.onEdit(true)}
            >
              {t('detail.access.edit')}
            </Button>
          ) : (
            <Typography variant="body2" color="textSecondary">
              {t('detail.access.cannotEdit', {
                reason: decisions.manageAccess.reason ?? '',
              })}
            </Typography>
          )}
        </Box>
      </InfoCard>
      <InfoCard title={t('detail.access.mayDoTitle')}>
        <Typography variant="body2" paragraph>
          {t(`detail.access.roles.${ROLE_KEYS[role]}`)}
        </Typography>
        <Table size="small" aria-label={t('detail.access.mayDoTitle')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('detail.access.action')}</TableCell>
              <TableCell>{t('detail.access.allowed')}</TableCell>
              <TableCell>{t('detail.access.whyNot')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {SECRET_ACTIONS.map(action => (
              <TableRow key={action}>
                <TableCell component="th" scope="row" role="rowheader">
                  {actionLabel(t, action)}
                </TableCell>
                <TableCell>
                  {decisions[action].allowed ? (
                    <StatusOK>{t('detail.access.yes')}</StatusOK>
                  ) : (
                    <StatusError>{t('detail.access.no')}</StatusError>
                  )}
                </TableCell>
                <TableCell>{decisions[action].reason ?? ''}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <Typography variant="caption" color="textSecondary">
          {t('detail.access.rbacNote')}
        </Typography>
      </InfoCard>
    </Box>
  );
};
