import { Table, TableColumn } from '@backstage/core-components';
import { StorageRewriteRunStatus } from '@krypton/core';
import Button from '@material-ui/core/Button';
import { useKryptonT } from '../../translation';
import { RelativeTime } from '../time/RelativeTime';
import { scopeCell, stateWord } from './runWords';
import { EmptyTable, ONE_LINE, useOperatorTableStyles } from './tableParts';

/**
 * The runs the caller may see, newest first: what each covered, who asked and when, how it ended
 * and its verdict, with a way to show one above (its progress while it runs, else its result).
 */
export const StorageRunsTable = (props: {
  runs: StorageRewriteRunStatus[];
  loading: boolean;
  /** The run shown above, if any: its row says so instead of offering it again. */
  shownId?: string;
  onOpen: (run: StorageRewriteRunStatus) => void;
}) => {
  const t = useKryptonT();
  const classes = useOperatorTableStyles();
  const columns: TableColumn<StorageRewriteRunStatus>[] = [
    {
      title: t('operator.runs.columns.scope'),
      cellStyle: ONE_LINE,
      render: run => scopeCell(t, run.scope),
    },
    {
      title: t('operator.runs.columns.by'),
      field: 'requestedBy',
      cellStyle: ONE_LINE,
    },
    {
      title: t('operator.runs.columns.requested'),
      render: run => <RelativeTime value={run.requestedAt} />,
    },
    {
      title: t('operator.runs.columns.finished'),
      render: run =>
        run.finishedAt ? <RelativeTime value={run.finishedAt} /> : '—',
    },
    {
      title: t('operator.runs.columns.dryRun'),
      render: run => (run.dryRun ? t('operator.runs.dryRun') : ''),
    },
    {
      title: t('operator.runs.columns.state'),
      render: run => stateWord(t, run),
    },
    {
      title: t('operator.runs.columns.verdict'),
      render: run => {
        if (!run.result) return '—';
        return run.result.oldKeyRetirement.verdict === 'ready'
          ? t('operator.verdict.readyShort')
          : t('operator.verdict.blockedShort');
      },
    },
    {
      title: t('operator.runs.columns.open'),
      render: run =>
        run.id === props.shownId ? (
          t('operator.runs.shown')
        ) : (
          <Button
            size="small"
            color="primary"
            onClick={() => props.onOpen(run)}
            aria-label={t('operator.runs.openLabel', {
              scope: scopeCell(t, run.scope),
              time: run.requestedAt,
            })}
          >
            {t('operator.runs.open')}
          </Button>
        ),
    },
  ];
  return (
    <div className={classes.root}>
      <Table<StorageRewriteRunStatus>
        title={t('operator.runs.title')}
        // The list is newest first; sorting or moving columns of rendered times and words adds
        // nothing.
        options={{
          paging: props.runs.length > 20,
          search: false,
          sorting: false,
          draggable: false,
        }}
        columns={columns}
        data={props.runs}
        isLoading={props.loading}
        emptyContent={<EmptyTable text={t('operator.runs.none')} />}
      />
    </div>
  );
};
