import { ResponseErrorPanel } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import Card from '@material-ui/core/Card';
import CardContent from '@material-ui/core/CardContent';
import CardHeader from '@material-ui/core/CardHeader';
import Link from '@material-ui/core/Link';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableHead from '@material-ui/core/TableHead';
import TableRow from '@material-ui/core/TableRow';
import { useCallback } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { kryptonApiRef } from '../../api/KryptonApi';
import { useKryptonT } from '../../translation';
import { SecretHref } from '../secretLink';
import { useWholeWordStyles } from '../wholeWordTables';
import {
  RefText,
  RequestCells,
  RequestHeads,
  useTableStyles,
} from './tableParts';
import { useChangeRequestList } from './useChangeRequestList';

/**
 * The change requests of the cluster that wait for the signed-in user's decision, each linked to
 * its Secret's Changes tab. Nothing while none waits: most people approve nothing most days.
 */
export function WaitingRequests(props: {
  /** The cluster as the API names it; undefined is the backend's default. */
  cluster?: string;
  href?: SecretHref;
}) {
  const { cluster, href } = props;
  const api = useApi(kryptonApiRef);
  const t = useKryptonT();
  const load = useCallback(
    () => api.waitingChangeRequests({ cluster }),
    [api, cluster],
  );
  // Any request the user is a party to may have started or stopped waiting for them.
  const concerns = useCallback(() => true, []);
  const list = useChangeRequestList(load, concerns);
  const classes = useTableStyles();
  const whole = useWholeWordStyles();

  if (list.error && !list.items) {
    return (
      <ResponseErrorPanel
        error={list.error}
        title={t('changes.waiting.loadFailed')}
      />
    );
  }
  if (!list.items || list.items.length === 0) return null;
  return (
    <Card>
      <CardHeader
        title={t('changes.waiting.title')}
        titleTypographyProps={{ component: 'h2', variant: 'h6' }}
      />
      <CardContent>
        <Table
          size="small"
          className={`${whole.table} ${classes.table}`}
          aria-label={t('changes.waiting.title')}
        >
          <TableHead>
            <TableRow>
              <TableCell>{t('changes.waiting.secret')}</TableCell>
              <RequestHeads />
            </TableRow>
          </TableHead>
          <TableBody>
            {list.items.map(request => {
              const label = `${request.namespace}/${request.name}`;
              const to = href?.(
                { cluster, namespace: request.namespace, name: request.name },
                { request: request.id },
                'changes',
              );
              return (
                <TableRow key={request.id}>
                  <TableCell>
                    {to ? (
                      <Link component={RouterLink} to={to}>
                        <RefText value={label} />
                      </Link>
                    ) : (
                      <RefText value={label} />
                    )}
                  </TableCell>
                  <RequestCells request={request} />
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}
