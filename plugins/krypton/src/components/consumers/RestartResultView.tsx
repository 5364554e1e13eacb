import { Entity } from '@backstage/catalog-model';
import {
  Labels,
  RestartFailure,
  RestartResult,
  WorkloadRef,
} from '@krypton/plugin-krypton-common';
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
import { DiscoveryFailureTable } from './ConsumerTable';
import { STATUS_HEADLINES, STATUS_SEVERITY } from './describe';
import { EntityGroups } from './EntityGroups';

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

const OutcomeTable = (props: { outcomes: Outcome[]; label: string }) => (
  <Table size="small" aria-label={props.label}>
    <TableHead>
      <TableRow>
        <TableCell>Kind</TableCell>
        <TableCell>Name</TableCell>
        <TableCell>Outcome</TableCell>
        <TableCell>Code</TableCell>
        <TableCell>HTTP status</TableCell>
        <TableCell>Guidance</TableCell>
      </TableRow>
    </TableHead>
    <TableBody>
      {props.outcomes.map(o => (
        <TableRow key={`${o.kind}/${o.name}`}>
          <TableCell>{o.kind}</TableCell>
          <TableCell component="th" scope="row" role="rowheader">
            {o.name}
          </TableCell>
          <TableCell>{o.failure ? 'Failed' : 'Requested'}</TableCell>
          <TableCell>{o.failure?.code ?? '—'}</TableCell>
          <TableCell>{o.failure?.httpStatus ?? '—'}</TableCell>
          <TableCell>{o.failure?.message ?? '—'}</TableCell>
        </TableRow>
      ))}
    </TableBody>
  </Table>
);

/**
 * A restart attempt as the server reported it: 200, 207 and 503 alike. "Requested" means only
 * that Kubernetes acknowledged the pod-template patch, so the note saying so is always shown.
 */
export const RestartResultView = (props: RestartResultViewProps) => {
  const { result, label, labelsOf } = props;
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
      <Alert severity={STATUS_SEVERITY[result.status]}>
        <AlertTitle>{STATUS_HEADLINES[result.status]}</AlertTitle>
        <Typography variant="body2" paragraph>
          {result.message}
        </Typography>
        <Typography variant="body2">{result.note}</Typography>
      </Alert>
      <Typography variant="body2">
        Known matches: {result.matched}. Requested: {result.requested.length}.
        Failed: {result.failures.length}.
      </Typography>
      {troubled && (
        <Typography variant="body2">
          Review the workloads' actual state and repair the errors before
          retrying. A retry scans every kind again and may request another
          rollout for workloads that were already acknowledged.
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
              label={title ? `${label}: ${title}` : label}
            />
          )}
        />
      )}
      {result.discoveryFailures.length > 0 && (
        <Box>
          <Typography variant="body2" paragraph>
            These kinds could not be listed completely. Which of their workloads
            use the Secret is unknown, and none of them was restarted.
          </Typography>
          <DiscoveryFailureTable
            failures={result.discoveryFailures}
            label={`${label}: discovery failures`}
          />
        </Box>
      )}
    </Box>
  );
};
