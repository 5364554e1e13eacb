import { ConsumerWorkload, DiscoveryFailure } from '@krypton/core';
import {
  describeUsage,
  englishConsumersT,
  workloadFlags,
} from '@krypton/plugin-krypton-react';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { text } from '../messages';

const columns = text.consumers.columns;

function Lines(props: { lines: string[] }) {
  if (props.lines.length === 0) return <>{text.consumers.none}</>;
  return (
    <ul style={{ margin: 0, paddingLeft: 16 }}>
      {props.lines.map((line, i) => (
        <li key={i}>{line}</li>
      ))}
    </ul>
  );
}

/** The workloads of the dry run: how each reads the Secret, and what a restart will not do. */
export function ConsumerTable(props: { workloads: ConsumerWorkload[] }) {
  return (
    <Table size="small" aria-label={text.consumers.tableLabel}>
      <TableHead>
        <TableRow>
          <TableCell>{columns.kind}</TableCell>
          <TableCell>{columns.name}</TableCell>
          <TableCell>{columns.usage}</TableCell>
          <TableCell>{columns.notes}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {props.workloads.map(w => (
          <TableRow key={`${w.kind}/${w.name}`}>
            <TableCell>{w.kind}</TableCell>
            <TableCell component="th" scope="row">
              {w.name}
            </TableCell>
            <TableCell>
              <Lines
                lines={w.usages.map(usage =>
                  describeUsage(usage, englishConsumersT),
                )}
              />
            </TableCell>
            <TableCell>
              <Lines
                lines={workloadFlags(w, englishConsumersT).map(flag =>
                  text.consumers.flag(flag.label, flag.explanation),
                )}
              />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/**
 * The kinds whose inventory failed, with the core's fixed guidance; no workload name is invented.
 */
export function DiscoveryFailureTable(props: {
  failures: DiscoveryFailure[];
  label: string;
}) {
  return (
    <Table size="small" aria-label={props.label}>
      <TableHead>
        <TableRow>
          <TableCell>{columns.kind}</TableCell>
          <TableCell>{columns.code}</TableCell>
          <TableCell>{columns.httpStatus}</TableCell>
          <TableCell>{columns.message}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {props.failures.map(f => (
          <TableRow key={f.kind}>
            <TableCell component="th" scope="row">
              {f.kind}
            </TableCell>
            <TableCell>{f.code}</TableCell>
            <TableCell>{f.httpStatus ?? text.consumers.none}</TableCell>
            <TableCell>{f.message}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
