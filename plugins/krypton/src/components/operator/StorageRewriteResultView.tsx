import { Table, TableColumn } from '@backstage/core-components';
import {
  StorageFlaggedObject,
  StorageNamespaceFailure,
  StorageObjectRef,
  StorageRewriteFailure,
  StorageRewriteResult,
} from '@krypton/core';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import AlertTitle from '@material-ui/lab/AlertTitle';
import { useKryptonT } from '../../translation';

function Group<T extends object>(props: {
  title: string;
  columns: TableColumn<T>[];
  rows: T[];
}) {
  if (props.rows.length === 0) return null;
  return (
    <Box mt={2}>
      <Table<T>
        title={props.title}
        options={{ paging: props.rows.length > 20, search: false }}
        columns={props.columns}
        data={props.rows}
      />
    </Box>
  );
}

/** The verdict on retiring the old key, its reasons (fixed texts of the API), and the note. */
export const OldKeyVerdict = ({ result }: { result: StorageRewriteResult }) => {
  const t = useKryptonT();
  const { verdict, reasons, unmanagedSecrets } = result.oldKeyRetirement;
  return (
    <Alert
      severity={verdict === 'ready' ? 'success' : 'warning'}
      data-testid="krypton-old-key-verdict"
    >
      <AlertTitle>
        {verdict === 'ready'
          ? t('operator.verdict.ready')
          : t('operator.verdict.blocked')}
      </AlertTitle>
      {reasons.map(reason => (
        <Typography variant="body2" key={reason.code}>
          {t('operator.verdict.reason', {
            number: String(reason.count),
            message: reason.message,
          })}
        </Typography>
      ))}
      <Typography variant="body2">{unmanagedSecrets}</Typography>
    </Alert>
  );
};

/**
 * One run's answer: its counts, its verdict, and the groups an operator must look at (quarantined
 * and legacy objects, failures, Secrets gone meanwhile, namespaces not read to the end).
 */
export const StorageRewriteResultView = ({
  result,
}: {
  result: StorageRewriteResult;
}) => {
  const t = useKryptonT();
  const c = result.counts;
  const flaggedColumns: TableColumn<StorageFlaggedObject>[] = [
    { title: t('operator.groups.columns.namespace'), field: 'namespace' },
    { title: t('operator.groups.columns.name'), field: 'name' },
    { title: t('operator.groups.columns.reason'), field: 'reason' },
    { title: t('operator.groups.columns.outcome'), field: 'outcome' },
  ];
  const failedColumns: TableColumn<StorageRewriteFailure>[] = [
    { title: t('operator.groups.columns.namespace'), field: 'namespace' },
    { title: t('operator.groups.columns.name'), field: 'name' },
    { title: t('operator.groups.columns.kind'), field: 'kind' },
    { title: t('operator.groups.columns.code'), field: 'code' },
    { title: t('operator.groups.columns.message'), field: 'message' },
  ];
  const goneColumns: TableColumn<StorageObjectRef>[] = [
    { title: t('operator.groups.columns.namespace'), field: 'namespace' },
    { title: t('operator.groups.columns.name'), field: 'name' },
    { title: t('operator.groups.columns.kind'), field: 'kind' },
  ];
  const namespaceColumns: TableColumn<StorageNamespaceFailure>[] = [
    {
      title: t('operator.groups.columns.namespace'),
      render: row => row.namespace || t('operator.groups.allNamespaces'),
    },
    { title: t('operator.groups.columns.code'), field: 'code' },
    { title: t('operator.groups.columns.message'), field: 'message' },
  ];
  return (
    <Box mb={2}>
      <Typography variant="body2" role="status">
        {result.dryRun
          ? t('operator.result.dryCounts', {
              seen: String(c.seen),
              quarantined: String(c.quarantined),
              legacy: String(c.legacy),
            })
          : t('operator.result.counts', {
              seen: String(c.seen),
              rewritten: String(c.rewritten),
              alreadyCurrent: String(c.alreadyCurrent),
              conflictsResolved: String(c.conflictsResolved),
              gone: String(c.gone),
              failed: String(c.failed),
            })}
      </Typography>
      <Typography variant="body2">
        {t('operator.result.namespaces', { count: result.namespaces.length })}
      </Typography>
      {result.recheck && (
        <Typography variant="body2">
          {t('operator.result.recheck', {
            rewritten: String(result.recheck.counts.rewritten),
            alreadyCurrent: String(result.recheck.counts.alreadyCurrent),
            failed: String(result.recheck.counts.failed),
          })}
        </Typography>
      )}
      {result.listRestarts > 0 && (
        <Typography variant="body2">
          {t('operator.result.listRestarts', { count: result.listRestarts })}
        </Typography>
      )}
      {/* A cancel is told by the run's own state, above the result. */}
      {result.stopped === 'deadline' && (
        <Typography variant="body2">{t('operator.result.stopped')}</Typography>
      )}
      {(result.truncated || result.recheck?.truncated) && (
        <Typography variant="body2">
          {t('operator.result.truncated')}
        </Typography>
      )}
      <Box mt={1}>
        <OldKeyVerdict result={result} />
      </Box>
      <Group
        title={t('operator.groups.flagged')}
        columns={flaggedColumns}
        rows={result.flagged}
      />
      <Group
        title={t('operator.groups.failed')}
        columns={failedColumns}
        rows={[...result.failed, ...(result.recheck?.failed ?? [])]}
      />
      <Group
        title={t('operator.groups.gone')}
        columns={goneColumns}
        rows={[...result.gone, ...(result.recheck?.gone ?? [])]}
      />
      <Group
        title={t('operator.groups.namespaceFailures')}
        columns={namespaceColumns}
        rows={[
          ...result.namespaceFailures,
          ...(result.recheck?.namespaceFailures ?? []),
        ]}
      />
    </Box>
  );
};
