import { ConsumerWorkload, DiscoveryFailure } from '@krypton/core';
import { describeUsage, workloadFlags } from '@krypton/plugin-krypton-react';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableHead from '@material-ui/core/TableHead';
import TableRow from '@material-ui/core/TableRow';
import { useKryptonT } from '../../translation';
import { NONE, Scrolling, useWholeWordStyles } from '../wholeWordTables';

/** The workloads of one group of the dry run. */
export const ConsumerTable = (props: {
  workloads: ConsumerWorkload[];
  /** The group's title; the table is named after it. */
  title?: string;
}) => {
  const t = useKryptonT();
  const classes = useWholeWordStyles();
  return (
    <Scrolling>
      <Table
        size="small"
        className={classes.table}
        aria-label={
          props.title
            ? t('consumers.table.labelOf', { group: props.title })
            : t('consumers.table.label')
        }
      >
        <TableHead>
          <TableRow>
            <TableCell>{t('consumers.table.kind')}</TableCell>
            <TableCell>{t('consumers.table.name')}</TableCell>
            <TableCell>{t('consumers.table.usage')}</TableCell>
            <TableCell>{t('consumers.table.notes')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {props.workloads.map(w => {
            const flags = workloadFlags(w, t);
            return (
              <TableRow key={`${w.kind}/${w.name}`}>
                <TableCell className={classes.oneLine}>{w.kind}</TableCell>
                <TableCell
                  component="th"
                  scope="row"
                  role="rowheader"
                  className={classes.oneLine}
                >
                  {w.name}
                </TableCell>
                <TableCell>
                  {w.usages.length > 0 ? (
                    <ul style={{ margin: 0, paddingLeft: 16 }}>
                      {w.usages.map((usage, i) => (
                        <li key={i}>{describeUsage(usage, t)}</li>
                      ))}
                    </ul>
                  ) : (
                    NONE
                  )}
                </TableCell>
                <TableCell>
                  {flags.length > 0 ? (
                    <ul style={{ margin: 0, paddingLeft: 16 }}>
                      {flags.map(flag => (
                        <li key={flag.label}>
                          {t('consumers.table.flag', {
                            label: <strong>{flag.label}</strong>,
                            explanation: flag.explanation,
                          })}
                        </li>
                      ))}
                    </ul>
                  ) : (
                    NONE
                  )}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </Scrolling>
  );
};

/** The kinds whose inventory failed, with the server's guidance. */
export const DiscoveryFailureTable = (props: {
  failures: DiscoveryFailure[];
  label: string;
}) => {
  const t = useKryptonT();
  const classes = useWholeWordStyles();
  return (
    <Scrolling>
      <Table size="small" className={classes.table} aria-label={props.label}>
        <TableHead>
          <TableRow>
            <TableCell>{t('consumers.table.kind')}</TableCell>
            <TableCell>{t('consumers.table.code')}</TableCell>
            <TableCell>{t('consumers.table.httpStatus')}</TableCell>
            <TableCell>{t('consumers.table.message')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {props.failures.map((f, i) => (
            <TableRow key={`${f.kind}-${i}`}>
              <TableCell
                component="th"
                scope="row"
                role="rowheader"
                className={classes.oneLine}
              >
                {f.kind}
              </TableCell>
              <TableCell className={classes.oneLine}>{f.code}</TableCell>
              <TableCell>{f.httpStatus ?? NONE}</TableCell>
              <TableCell>{f.message}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Scrolling>
  );
};
