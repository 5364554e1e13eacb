import {
  ConsumerWorkload,
  DiscoveryFailure,
} from '@krypton/plugin-krypton-common';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableHead from '@material-ui/core/TableHead';
import TableRow from '@material-ui/core/TableRow';
import { describeUsage, workloadFlags } from './describe';

/** The workloads of one group of the dry run. */
export const ConsumerTable = (props: {
  workloads: ConsumerWorkload[];
  /** The group's title; the table is named after it. */
  title?: string;
}) => (
  <Table
    size="small"
    aria-label={props.title ? `Consumers: ${props.title}` : 'Consumers'}
  >
    <TableHead>
      <TableRow>
        <TableCell>Kind</TableCell>
        <TableCell>Name</TableCell>
        <TableCell>Uses the Secret through</TableCell>
        <TableCell>Restart notes</TableCell>
      </TableRow>
    </TableHead>
    <TableBody>
      {props.workloads.map(w => {
        const flags = workloadFlags(w);
        return (
          <TableRow key={`${w.kind}/${w.name}`}>
            <TableCell>{w.kind}</TableCell>
            <TableCell component="th" scope="row" role="rowheader">
              {w.name}
            </TableCell>
            <TableCell>
              {w.usages.length > 0 ? (
                <ul style={{ margin: 0, paddingLeft: 16 }}>
                  {w.usages.map((usage, i) => (
                    <li key={i}>{describeUsage(usage)}</li>
                  ))}
                </ul>
              ) : (
                '—'
              )}
            </TableCell>
            <TableCell>
              {flags.length > 0 ? (
                <ul style={{ margin: 0, paddingLeft: 16 }}>
                  {flags.map(flag => (
                    <li key={flag.label}>
                      <strong>{flag.label}</strong>: {flag.explanation}
                    </li>
                  ))}
                </ul>
              ) : (
                '—'
              )}
            </TableCell>
          </TableRow>
        );
      })}
    </TableBody>
  </Table>
);

/** The kinds whose inventory failed, with the server's guidance. */
export const DiscoveryFailureTable = (props: {
  failures: DiscoveryFailure[];
  label: string;
}) => (
  <Table size="small" aria-label={props.label}>
    <TableHead>
      <TableRow>
        <TableCell>Kind</TableCell>
        <TableCell>Code</TableCell>
        <TableCell>HTTP status</TableCell>
        <TableCell>Message</TableCell>
      </TableRow>
    </TableHead>
    <TableBody>
      {props.failures.map((f, i) => (
        <TableRow key={`${f.kind}-${i}`}>
          <TableCell component="th" scope="row" role="rowheader">
            {f.kind}
          </TableCell>
          <TableCell>{f.code}</TableCell>
          <TableCell>{f.httpStatus ?? '—'}</TableCell>
          <TableCell>{f.message}</TableCell>
        </TableRow>
      ))}
    </TableBody>
  </Table>
);
