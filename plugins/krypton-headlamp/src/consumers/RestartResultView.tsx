import {
  RESTART_STATUS_SEVERITY,
  RestartFailure,
  RestartResult,
  WorkloadRef,
  restartOutcomeOf,
} from '@krypton/core';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { text } from '../messages';
import { DiscoveryFailureTable } from './ConsumerTables';

const resultText = text.consumers.result;
const columns = text.consumers.columns;

/** One matched workload of a restart: acknowledged, or failed with the core's guidance. */
type Outcome = WorkloadRef & { failure?: RestartFailure };

/**
 * A restart as the engine reported it, per the result contract: requested, no_targets, partial
 * and failed alike. The engine's summary and note are fixed texts, shown verbatim; the note says
 * that "requested" means only an acknowledged pod-template patch.
 */
export function RestartResultView(props: { result: RestartResult }) {
  const { result } = props;
  const outcomes: Outcome[] = [
    ...result.requested.map(r => ({ kind: r.kind, name: r.name })),
    ...result.failures.map(f => ({ kind: f.kind, name: f.name, failure: f })),
  ];
  return (
    <Box
      component="section"
      aria-label={resultText.label}
      display="flex"
      flexDirection="column"
      gap={1}
    >
      <Alert severity={RESTART_STATUS_SEVERITY[result.status]}>
        <AlertTitle>{resultText.headlines[result.status]}</AlertTitle>
        <Typography variant="body2" paragraph>
          {result.message}
        </Typography>
        <Typography variant="body2">{result.note}</Typography>
      </Alert>
      {outcomes.length > 0 && (
        <Table size="small" aria-label={resultText.label}>
          <TableHead>
            <TableRow>
              <TableCell>{columns.kind}</TableCell>
              <TableCell>{columns.name}</TableCell>
              <TableCell>{columns.outcome}</TableCell>
              <TableCell>{columns.code}</TableCell>
              <TableCell>{columns.httpStatus}</TableCell>
              <TableCell>{columns.message}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {outcomes.map(o => (
              <TableRow key={`${o.kind}/${o.name}`}>
                <TableCell>{o.kind}</TableCell>
                <TableCell component="th" scope="row">
                  {o.name}
                </TableCell>
                <TableCell>
                  {resultText.outcomes[restartOutcomeOf(o.failure)]}
                </TableCell>
                <TableCell>{o.failure?.code ?? text.consumers.none}</TableCell>
                <TableCell>
                  {o.failure?.httpStatus ?? text.consumers.none}
                </TableCell>
                <TableCell>
                  {o.failure?.message ?? text.consumers.none}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {result.discoveryFailures.length > 0 && (
        <Box>
          <Typography variant="body2" paragraph>
            {resultText.kindsSkipped}
          </Typography>
          <DiscoveryFailureTable
            failures={result.discoveryFailures}
            label={resultText.kindsLabel}
          />
        </Box>
      )}
    </Box>
  );
}
