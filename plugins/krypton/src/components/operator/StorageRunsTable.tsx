import { Table, TableColumn } from '@backstage/core-components';
import { StorageRewriteRun } from '@krypton/plugin-krypton-common';
import { useKryptonT } from '../../translation';

/** The last run of each namespace the caller may list, with who ran it, when, and its verdict. */
export const StorageRunsTable = (props: {
  runs: StorageRewriteRun[];
  loading: boolean;
}) => {
  const t = useKryptonT();
  const columns: TableColumn<StorageRewriteRun>[] = [
    { title: t('operator.runs.columns.namespace'), field: 'namespace' },
    { title: t('operator.runs.columns.lastRun'), field: 'requestedAt' },
    { title: t('operator.runs.columns.by'), field: 'requestedBy' },
    {
      title: t('operator.runs.columns.verdict'),
      render: run =>
        run.result.oldKeyRetirement.verdict === 'ready'
          ? t('operator.runs.ready')
          : t('operator.runs.blocked'),
    },
    {
      title: t('operator.runs.columns.seen'),
      field: 'result.counts.seen',
      type: 'numeric',
    },
    {
      title: t('operator.runs.columns.rewritten'),
      field: 'result.counts.rewritten',
      type: 'numeric',
    },
    {
      title: t('operator.runs.columns.alreadyCurrent'),
      field: 'result.counts.alreadyCurrent',
      type: 'numeric',
    },
    {
      title: t('operator.runs.columns.failed'),
      render: run =>
        run.result.namespaceFailures.length > 0
          ? t('operator.runs.inventoryFailed')
          : String(run.result.counts.failed),
    },
    {
      title: t('operator.runs.columns.flagged'),
      render: run =>
        `${run.result.counts.quarantined} / ${run.result.counts.legacy}`,
    },
  ];
  return (
    <Table<StorageRewriteRun>
      title={t('operator.runs.title')}
      options={{ paging: props.runs.length > 20, search: false }}
      columns={columns}
      data={props.runs}
      isLoading={props.loading}
    />
  );
};
