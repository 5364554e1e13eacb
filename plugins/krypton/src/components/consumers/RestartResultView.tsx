import { Entity } from '@backstage/catalog-model';
import {
  Labels,
  RESTART_STATUS_SEVERITY,
  RestartFailure,
  RestartResult,
  WorkloadRef,
} from '@krypton/core';
import Box from '@material-ui/core/Box';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableHead from '@material-ui/core/TableHead';
import TableRow from '@material-ui/core/TableRow';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import AlertTitle from '@material-ui/lab/AlertTitle';
import { useCallback, useMemo } from 'react';
import { useKryptonT } from '../../translation';
import { DiscoveryFailureTable } from './ConsumerTable';
import { statusHeadline } from './describe';
import { EntityGroups } from './EntityGroups';
import { NONE, Scrolling, useWholeWordStyles } from '../wholeWordTables';

/** One matched workload of a restart: acknowledged, or failed with the server's guidance. */
type Outcome = WorkloadRef & { failure?: RestartFailure };

export interface RestartResultViewProps {
  result: RestartResult;
  /** Names the result's tables, so that two results on one page stay distinguishable. */
  label: string;
  entities?: readonly Entity[];
  namespace: string;
  currentEntityRef?: string;
  /** The dry run's labels by kind/name; results carry no labels of their own. */
  labelsOf: (ref: WorkloadRef) => Labels | undefined;
}

const OutcomeTable = (props: { outcomes: Outcome[]; label: string }) => {
  const t = useKryptonT();
  const classes = useWholeWordStyles();
  return (
    <Scrolling>
      <Table size="small" className={classes.table} aria-label={props.label}>
        <TableHead>
          <TableRow>
            <TableCell>{t('consumers.table.kind')}</TableCell>
            <TableCell>{t('consumers.table.name')}</TableCell>
            <TableCell>{t('consumers.table.outcome')}</TableCell>
            <TableCell>{t('consumers.table.code')}</TableCell>
            <TableCell>{t('consumers.table.httpStatus')}</TableCell>
            <TableCell>{t('consumers.table.guidance')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {props.outcomes.map(o => (
            <TableRow key={`${o.kind}/${o.name}`}>
              <TableCell className={classes.oneLine}>{o.kind}</TableCell>
              <TableCell
                component="th"
                scope="row"
                role="rowheader"
                className={classes.oneLine}
              >
                {o.name}
              </TableCell>
              <TableCell className={classes.oneLine}>
                {o.failure
                  ? t('consumers.table.failed')
                  : t('consumers.table.requested')}
              </TableCell>
              <TableCell className={classes.oneLine}>
                {o.failure?.code ?? NONE}
              </TableCell>
              <TableCell>{o.failure?.httpStatus ?? NONE}</TableCell>
              <TableCell>{o.failure?.message ?? NONE}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Scrolling>
  );
};

/**
 * A restart attempt as the server reported it: 200, 207 and 503 alike. "Requested" means only
 * that Kubernetes acknowledged the pod-template patch, so the note saying so is always shown.
 */
export const RestartResultView = (props: RestartResultViewProps) => {
  const { result, label, labelsOf } = props;
  const t = useKryptonT();
  const outcomes = useMemo<Outcome[]>(
    () => [
      ...result.requested.map(r => ({ kind: r.kind, name: r.name })),
      ...result.failures.map(f => ({ kind: f.kind, name: f.name, failure: f })),
    ],
    [result],
  );
  const outcomeLabels = useCallback(
    (o: Outcome) => labelsOf({ kind: o.kind, name: o.name }),
    [labelsOf],
  );
  const troubled = result.status === 'partial' || result.status === 'failed';
  return (
    <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
      <Alert severity={RESTART_STATUS_SEVERITY[result.status]}>
        <AlertTitle>{statusHeadline(result.status, t)}</AlertTitle>
        <Typography variant="body2" paragraph>
          {result.message}
        </Typography>
        <Typography variant="body2">{result.note}</Typography>
      </Alert>
      <Typography variant="body2">
        {t('consumers.result.counts', {
          matched: String(result.matched),
          requested: String(result.requested.length),
          failed: String(result.failures.length),
        })}
      </Typography>
      {troubled && (
        <Typography variant="body2">
          {t('consumers.result.troubled')}
        </Typography>
      )}
      {outcomes.length > 0 && (
        <EntityGroups
          items={outcomes}
          entities={props.entities}
          namespace={props.namespace}
          currentEntityRef={props.currentEntityRef}
          labelsOf={outcomeLabels}
          render={(items, title) => (
            <OutcomeTable
              outcomes={items}
              label={
                title
                  ? t('consumers.result.tableOf', { label, group: title })
                  : label
              }
            />
          )}
        />
      )}
      {result.discoveryFailures.length > 0 && (
        <Box>
          <Typography variant="body2" paragraph>
            {t('consumers.result.discoveryFailed')}
          </Typography>
          <DiscoveryFailureTable
            failures={result.discoveryFailures}
            label={t('consumers.result.discoveryFailures', { label })}
          />
        </Box>
      )}
    </Box>
  );
};
