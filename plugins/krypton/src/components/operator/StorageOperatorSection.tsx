import {
  InfoCard,
  Progress,
  ResponseErrorPanel,
} from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import { usePermission } from '@backstage/plugin-permission-react';
import {
  StorageRewriteResult,
  kryptonStorageRewritePermission,
} from '@krypton/plugin-krypton-common';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import TextField from '@material-ui/core/TextField';
import Typography from '@material-ui/core/Typography';
import { useState } from 'react';
import useAsyncRetry from 'react-use/esm/useAsyncRetry';
import { kryptonApiRef } from '../../api/KryptonApi';
import { useKryptonT } from '../../translation';
import { StorageMigrationsPanel } from './StorageMigrationsPanel';
import { StorageRewriteResultView } from './StorageRewriteResultView';
import { StorageRunsTable } from './StorageRunsTable';

/**
 * The operator section of the platform page: re-encode everything Krypton labels after an
 * encryption-key rotation, see whether the old key can be retired, and see the last run per
 * namespace. Only for holders of krypton.storage.rewrite; the backend checks it again.
 */
export const StorageOperatorSection = (props: { cluster?: string }) => {
  const api = useApi(kryptonApiRef);
  const t = useKryptonT();
  const { allowed, loading: permissionLoading } = usePermission({
    permission: kryptonStorageRewritePermission,
  });
  const [namespace, setNamespace] = useState('');
  const [running, setRunning] = useState<'run' | 'dryRun'>();
  const [runError, setRunError] = useState<Error>();
  const [latest, setLatest] = useState<StorageRewriteResult>();
  const runs = useAsyncRetry(
    async () =>
      allowed ? api.listStorageRewrites({ cluster: props.cluster }) : [],
    [api, allowed, props.cluster],
  );

  if (permissionLoading) return <Progress />;
  if (!allowed) return null;

  const run = async (dryRun: boolean) => {
    setRunning(dryRun ? 'dryRun' : 'run');
    setRunError(undefined);
    try {
      setLatest(
        await api.runStorageRewrite({
          cluster: props.cluster,
          namespace: namespace.trim() || undefined,
          dryRun: dryRun || undefined,
        }),
      );
      if (!dryRun) runs.retry();
    } catch (e) {
      setRunError(e as Error);
    } finally {
      setRunning(undefined);
    }
  };

  // The cluster's migrations count only from the start of the last real run on.
  const lastRealRun =
    latest && !latest.dryRun
      ? latest.startedAt
      : (runs.value ?? [])
          .map(r => r.result.startedAt)
          .sort()
          .pop();

  return (
    <InfoCard title={t('operator.title')}>
      <Typography variant="body2" paragraph>
        {t('operator.intro')}
      </Typography>
      <Box display="flex" alignItems="center" mb={2}>
        <TextField
          id="krypton-storage-rewrite-namespace"
          label={t('operator.namespaceLabel')}
          value={namespace}
          onChange={e => setNamespace(e.target.value)}
          size="small"
          style={{ minWidth: 360, marginRight: 16 }}
        />
        <Button
          variant="outlined"
          onClick={() => run(true)}
          disabled={running !== undefined}
          style={{ marginRight: 8 }}
        >
          {running === 'dryRun' ? t('operator.counting') : t('operator.dryRun')}
        </Button>
        <Button
          variant="contained"
          color="primary"
          onClick={() => run(false)}
          disabled={running !== undefined}
        >
          {running === 'run' ? t('operator.running') : t('operator.run')}
        </Button>
      </Box>
      {runError && <ResponseErrorPanel error={runError} />}
      {latest && <StorageRewriteResultView result={latest} />}
      {runs.loading ? null : (
        <StorageMigrationsPanel cluster={props.cluster} since={lastRealRun} />
      )}
      {runs.error && <ResponseErrorPanel error={runs.error} />}
      <StorageRunsTable runs={runs.value ?? []} loading={runs.loading} />
    </InfoCard>
  );
};
