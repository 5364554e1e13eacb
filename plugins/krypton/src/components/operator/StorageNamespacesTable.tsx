import { Table, TableColumn } from '@backstage/core-components';
import { StorageRewriteRun } from '@krypton/core';
import { useKryptonT } from '../../translation';
import { RelativeTime } from '../time/RelativeTime';
import { EmptyTable, ONE_LINE, useOperatorTableStyles } from './tableParts';

/**
 * The last real run that covered each namespace the caller may list, with who ran it, when, and
 * that namespace's own verdict. The table of runs says what each run did as a whole; this one says
 * where each namespace stands, which a cluster-wide run's verdict cannot: a namespace fixed by a
 * later one-namespace run reads ready here while that cluster-wide run stays blocked.
 */
export const StorageNamespacesTable = (props: {
  runs: StorageRewriteRun[];
  loading: boolean;
}) => {
  const t = useKryptonT();
  const classes = useOperatorTableStyles();
  const columns: TableColumn<StorageRewriteRun>[] = [
    {
      title: t('operator.perNamespace.columns.namespace'),
      field: 'namespace',
      cellStyle: ONE_LINE,
    },
    {
      title: t('operator.perNamespace.columns.lastRun'),
      render: run => <RelativeTime value={run.requestedAt} />,
    },
    {
      title: t('operator.perNamespace.columns.by'),
      field: 'requestedBy',
      cellStyle: ONE_LINE,
    },
    {
      title: t('operator.perNamespace.columns.verdict'),
      render: run =>
        run.result.oldKeyRetirement.verdict === 'ready'
          ? t('operator.verdict.readyShort')
          : t('operator.verdict.blockedShort'),
    },
    {
      title: t('operator.perNamespace.columns.seen'),
      field: 'result.counts.seen',
      type: 'numeric',
    },
    {
      title: t('operator.perNamespace.columns.rewritten'),
      field: 'result.counts.rewritten',
      type: 'numeric',
    },
    {
      title: t('operator.perNamespace.columns.alreadyCurrent'),
      field: 'result.counts.alreadyCurrent',
      type: 'numeric',
    },
    {
      title: t('operator.perNamespace.columns.failed'),
      render: run =>
        run.result.namespaceFailures.length > 0
          ? t('operator.perNamespace.inventoryFailed')
          : String(run.result.counts.failed),
    },
    {
      title: t('operator.perNamespace.columns.flagged'),
      render: run =>
        `${run.result.counts.quarantined} / ${run.result.counts.legacy}`,
    },
  ];
  return (
    <div className={classes.root}>
      <Table<StorageRewriteRun>
        title={t('operator.perNamespace.title')}
        options={{ paging: props.runs.length > 20, search: false }}
        columns={columns}
        data={props.runs}
        isLoading={props.loading}
        emptyContent={<EmptyTable text={t('operator.perNamespace.none')} />}
      />
    </div>
  );
};
