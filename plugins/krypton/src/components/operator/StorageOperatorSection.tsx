import {
  InfoCard,
  Progress,
  ResponseErrorPanel,
  Table,
  TableColumn,
} from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import { usePermission } from '@backstage/plugin-permission-react';
import {
  StorageRewriteResult,
  StorageRewriteRun,
  kryptonStorageRewritePermission,
} from '@krypton/plugin-krypton-common';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import TextField from '@material-ui/core/TextField';
import Typography from '@material-ui/core/Typography';
import { useState } from 'react';
import useAsyncRetry from 'react-use/esm/useAsyncRetry';
import { kryptonApiRef } from '../../api/KryptonApi';

interface Row {
  namespace: string;
  requestedAt: string;
  requestedBy: string;
  counts: StorageRewriteResult['counts'];
  namespaceFailed: boolean;
}

const columns: TableColumn<Row>[] = [
  { title: 'Namespace', field: 'namespace' },
  { title: 'Last run', field: 'requestedAt' },
  { title: 'By', field: 'requestedBy' },
  { title: 'Rewritten', field: 'counts.rewritten', type: 'numeric' },
  { title: 'Already current', field: 'counts.alreadyCurrent', type: 'numeric' },
  {
    title: 'Conflicts resolved',
    field: 'counts.conflictsResolved',
    type: 'numeric',
  },
  {
    title: 'Failed',
    render: row =>
      row.namespaceFailed ? 'inventory failed' : String(row.counts.failed),
  },
  { title: 'Skipped', field: 'counts.skipped', type: 'numeric' },
];

const toRow = (run: StorageRewriteRun): Row => ({
  namespace: run.namespace,
  requestedAt: run.requestedAt,
  requestedBy: run.requestedBy,
  counts: run.result.counts,
  namespaceFailed: run.result.namespaceFailures.length > 0,
});

/**
 * The operator section of the platform page: re-encode Krypton's Secrets and snapshots after an
 * encryption-key rotation, and see the last run per namespace. Only for holders of
 * krypton.storage.rewrite; the backend checks it again.
 */
export const StorageOperatorSection = (props: { cluster?: string }) => {
  const api = useApi(kryptonApiRef);
  const { allowed, loading: permissionLoading } = usePermission({
    permission: kryptonStorageRewritePermission,
  });
  const [namespace, setNamespace] = useState('');
  const [running, setRunning] = useState(false);
  const [runError, setRunError] = useState<Error>();
  const [latest, setLatest] = useState<StorageRewriteResult>();
  const runs = useAsyncRetry(
    async () =>
      allowed ? api.listStorageRewrites({ cluster: props.cluster }) : [],
    [api, allowed, props.cluster],
  );
  const migrations = useAsyncRetry(
    async () =>
      allowed
        ? api.getStorageMigrations({ cluster: props.cluster })
        : undefined,
    [api, allowed, props.cluster],
  );

  if (permissionLoading) return <Progress />;
  if (!allowed) return null;

  const run = async () => {
    setRunning(true);
    setRunError(undefined);
    try {
      setLatest(
        await api.runStorageRewrite({
          cluster: props.cluster,
          namespace: namespace.trim() || undefined,
        }),
      );
      runs.retry();
    } catch (e) {
      setRunError(e as Error);
    } finally {
      setRunning(false);
    }
  };

  return (
    <InfoCard title="Storage rewrite (operators)">
      <Typography variant="body2" paragraph>
        After an encryption-key rotation, rewrite Krypton's managed Secrets and
        history snapshots so that the API server stores them with the current
        key. Legacy and quarantined copies are listed, never touched; rewrite
        everything else with kubectl before the old key is removed.
      </Typography>
      <Box display="flex" alignItems="center" mb={2}>
        <TextField
          id="krypton-storage-rewrite-namespace"
          label="Namespace (empty: every namespace you may list)"
          value={namespace}
          onChange={e => setNamespace(e.target.value)}
          size="small"
          style={{ minWidth: 360, marginRight: 16 }}
        />
        <Button
          variant="contained"
          color="primary"
          onClick={run}
          disabled={running}
        >
          {running ? 'Rewriting…' : 'Rewrite storage'}
        </Button>
      </Box>
      {runError && <ResponseErrorPanel error={runError} />}
      {latest && (
        <Typography variant="body2" paragraph role="status">
          Rewritten {latest.counts.rewritten}, already current{' '}
          {latest.counts.alreadyCurrent}, conflicts resolved{' '}
          {latest.counts.conflictsResolved}, failed {latest.counts.failed},
          skipped {latest.counts.skipped}
          {latest.namespaceFailures.length > 0
            ? `; ${latest.namespaceFailures.length} namespace inventories failed`
            : ''}
          .
        </Typography>
      )}
      {migrations.value && (
        <Typography variant="body2" paragraph>
          {migrations.value.served
            ? `Cluster StorageVersionMigrations of Secrets: ${
                migrations.value.migrations
                  .map(m => `${m.name} (${m.phase})`)
                  .join(', ') || 'none'
              }.`
            : 'This cluster does not serve storagemigration.k8s.io.'}
        </Typography>
      )}
      {runs.error && <ResponseErrorPanel error={runs.error} />}
      <Table<Row>
        title="Last run per namespace"
        options={{ paging: false, search: false }}
        columns={columns}
        data={(runs.value ?? []).map(toRow)}
        isLoading={runs.loading}
      />
    </InfoCard>
  );
};
