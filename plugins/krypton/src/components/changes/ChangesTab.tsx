import { ResponseErrorPanel } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import { ChangeRequest, Principal, SecretSummary } from '@krypton/core';
import { ChangeRequestSignal } from '@krypton/plugin-krypton-common';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Card from '@material-ui/core/Card';
import CardContent from '@material-ui/core/CardContent';
import CardHeader from '@material-ui/core/CardHeader';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableHead from '@material-ui/core/TableHead';
import TableRow from '@material-ui/core/TableRow';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import { useCallback, useEffect, useState } from 'react';
import { SecretLocation, kryptonApiRef } from '../../api/KryptonApi';
import { useKryptonT } from '../../translation';
import { Scrolling, useWholeWordStyles } from '../wholeWordTables';
import { ApprovalNotice } from './ApprovalNotice';
import { ChangeRequestReview } from './ChangeRequestReview';
import { StateChip } from './StateChip';
import { RequestCells, RequestHeads, useTableStyles } from './tableParts';
import { useChangeRequestList } from './useChangeRequestList';

const DONE_STATES = [
  'applied',
  'bypassed',
  'pending',
  'rejected',
  'withdrawn',
  'stale',
] as const;

const approvalsOf = (request: ChangeRequest) =>
  request.decisions.filter(d => d.decision === 'approve').length;

/**
 * The Secret's change requests, newest first, and one of them under review. The list follows
 * Krypton's signals for the requests the user is a party to; `reloads` (a request this page just
 * made) and `open` (the request to review) come from the page.
 */
export function ChangesTab(props: {
  location: SecretLocation;
  summary: SecretSummary;
  principal: Principal;
  reloads?: number;
  open?: string;
  /** A decision that applied the change: the page reloads the live Secret. */
  onApplied?: () => void;
}) {
  const { location, summary } = props;
  const { cluster, namespace, name } = location;
  const api = useApi(kryptonApiRef);
  const t = useKryptonT();
  const load = useCallback(
    () => api.listChangeRequests({ cluster, namespace, name }),
    [api, cluster, namespace, name],
  );
  const concerns = useCallback(
    (signal: ChangeRequestSignal) =>
      signal.cluster === summary.cluster &&
      signal.namespace === namespace &&
      signal.name === name,
    [summary.cluster, namespace, name],
  );
  const list = useChangeRequestList(load, concerns);
  const { refresh } = list;
  const [selected, setSelected] = useState<string | undefined>(props.open);
  const [done, setDone] = useState<ChangeRequest>();

  useEffect(() => {
    if (props.reloads) refresh();
  }, [props.reloads, refresh]);
  useEffect(() => {
    if (props.open) setSelected(props.open);
  }, [props.open]);

  const { onApplied } = props;
  const onDecided = (after: ChangeRequest) => {
    setDone(after);
    refresh();
    if (after.state === 'applied' || after.state === 'bypassed') onApplied?.();
  };

  const reviewed = list.items?.find(r => r.id === selected);
  const doneState =
    done && (DONE_STATES as readonly string[]).includes(done.state)
      ? (done.state as (typeof DONE_STATES)[number])
      : undefined;

  return (
    <Card>
      <CardHeader
        title={t('changes.tab.title')}
        titleTypographyProps={{ component: 'h2', variant: 'h6' }}
        action={
          <Button onClick={refresh} disabled={list.loading}>
            {t('changes.tab.refresh')}
          </Button>
        }
      />
      <CardContent>
        <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
          {summary.approval && <ApprovalNotice approval={summary.approval} />}
          {done && (
            <Alert severity="success" onClose={() => setDone(undefined)}>
              {doneState
                ? t(`changes.decide.done.${doneState}`)
                : t('changes.decide.done.other', {
                    state: t(`changes.state.${done.state}`),
                  })}
            </Alert>
          )}
          {list.error && (
            <ResponseErrorPanel
              error={list.error}
              title={t('changes.tab.loadFailed')}
            />
          )}
          {reviewed ? (
            <>
              <Box>
                <Button onClick={() => setSelected(undefined)}>
                  {t('changes.tab.back')}
                </Button>
              </Box>
              <ChangeRequestReview
                location={location}
                request={reviewed}
                summary={summary}
                principal={props.principal}
                onDecided={onDecided}
              />
            </>
          ) : (
            list.items && (
              <RequestTable
                name={name}
                items={list.items}
                onReview={setSelected}
              />
            )
          )}
        </Box>
      </CardContent>
    </Card>
  );
}

function RequestTable(props: {
  name: string;
  items: ChangeRequest[];
  onReview: (id: string) => void;
}) {
  const t = useKryptonT();
  const classes = useTableStyles();
  const whole = useWholeWordStyles();
  if (props.items.length === 0)
    return <Typography variant="body2">{t('changes.tab.empty')}</Typography>;
  return (
    <Scrolling>
      <Table
        size="small"
        className={`${whole.table} ${classes.table}`}
        aria-label={t('changes.table.label', { name: props.name })}
      >
        <TableHead>
          <TableRow>
            <TableCell>{t('changes.table.state')}</TableCell>
            <RequestHeads />
            <TableCell>{t('changes.table.approvals')}</TableCell>
            <TableCell>
              <span className={classes.visuallyHidden}>
                {t('changes.table.review')}
              </span>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {props.items.map(request => (
            <TableRow key={request.id}>
              <TableCell>
                <StateChip state={request.state} />
              </TableCell>
              <RequestCells request={request} />
              <TableCell>
                {t('changes.table.approvalsOf', {
                  count: approvalsOf(request),
                  required: request.policy.requiredApprovals,
                })}
              </TableCell>
              <TableCell>
                <Button
                  size="small"
                  variant="outlined"
                  className={whole.oneLine}
                  onClick={() => props.onReview(request.id)}
                  aria-label={t('changes.table.reviewLabel', {
                    id: request.id,
                  })}
                >
                  {t('changes.table.review')}
                </Button>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Scrolling>
  );
}
