import { InfoCard, ResponseErrorPanel } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import { StorageRewriteRunStatus } from '@krypton/core';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import TextField from '@material-ui/core/TextField';
import Typography from '@material-ui/core/Typography';
import { useEffect, useState } from 'react';
import useAsyncRetry from 'react-use/esm/useAsyncRetry';
import { kryptonApiRef } from '../../api/KryptonApi';
import { Failure, failureOf } from '../../api/failure';
import { useKryptonT } from '../../translation';
import { StorageMigrationsPanel } from './StorageMigrationsPanel';
import { StorageNamespacesTable } from './StorageNamespacesTable';
import { StorageRunView } from './StorageRunView';
import { StorageRunsTable } from './StorageRunsTable';
import { ONE_LINE } from './tableParts';
import { useRunPolling } from './useRunPolling';

/**
 * The storage rewrite page's tools: re-encode everything Krypton labels after an encryption-key
 * rotation, follow the run while the backend works through it, see whether the old key can be
 * retired, and see past runs and where each namespace stands. Its page draws it only for holders
 * of krypton.storage.rewrite; the backend checks it again.
 */
export const StorageOperatorSection = (props: { cluster?: string }) => {
  const api = useApi(kryptonApiRef);
  const t = useKryptonT();
  const { cluster } = props;
  const [namespace, setNamespace] = useState('');
  const [starting, setStarting] = useState<'run' | 'dryRun'>();
  const [startError, setStartError] = useState<Error>();
  const [shown, setShown] = useState<StorageRewriteRunStatus>();
  const [cancelSending, setCancelSending] = useState(false);
  const [cancelFailure, setCancelFailure] = useState<Failure>();
  const runs = useAsyncRetry(
    () => api.storageRewriteRuns({ cluster }),
    [api, cluster],
  );
  const perNamespace = useAsyncRetry(
    () => api.listStorageRewrites({ cluster }),
    [api, cluster],
  );

  const show = (run: StorageRewriteRunStatus) => {
    setShown(run);
    setCancelFailure(undefined);
  };

  // After a reload, or while another operator's run goes on, the section follows the newest
  // running run rather than offering to start one that the backend would refuse.
  const listed = runs.value;
  useEffect(() => {
    if (shown || !listed) return;
    const active = listed.find(run => run.state === 'running');
    if (active) setShown(active);
  }, [listed, shown]);

  const pollFailure = useRunPolling({
    cluster,
    run: shown,
    onUpdate: next => {
      setShown(current => (current?.id === next.id ? next : current));
      if (next.state !== 'running') {
        runs.retry();
        // A dry run is not kept per namespace.
        if (!next.dryRun) perNamespace.retry();
      }
    },
  });

  const start = async (dryRun: boolean) => {
    setStarting(dryRun ? 'dryRun' : 'run');
    setStartError(undefined);
    try {
      show(
        await api.startStorageRewrite({
          cluster,
          namespace: namespace.trim() || undefined,
          dryRun: dryRun || undefined,
        }),
      );
      runs.retry();
    } catch (e) {
      setStartError(e as Error);
      // A run of an overlapping scope is running: list it, so that it can be followed.
      if (failureOf(e).kind === 'conflict') runs.retry();
    } finally {
      setStarting(undefined);
    }
  };

  const cancel = async () => {
    if (!shown) return;
    const id = shown.id;
    setCancelSending(true);
    setCancelFailure(undefined);
    try {
      const next = await api.cancelStorageRewrite({ cluster, id });
      setShown(current => (current?.id === id ? next : current));
    } catch (e) {
      const failure = failureOf(e);
      // A conflict: the run ended meanwhile, and the next read of its progress shows how.
      if (failure.kind !== 'conflict') setCancelFailure(failure);
    } finally {
      setCancelSending(false);
    }
  };

  const running = shown?.state === 'running';
  // The table shows the run followed here as it was last read, not as it was listed.
  const rows = (listed ?? []).map(run =>
    shown && run.id === shown.id ? shown : run,
  );
  // The cluster's migrations count only from the start of the last real run on.
  const lastRealRun = rows.find(run => !run.dryRun && run.result)?.result
    ?.startedAt;

  return (
    // The page's title names the tools, so the card has none of its own.
    <InfoCard>
      <Typography variant="body2" paragraph>
        {t('operator.intro')}
      </Typography>
      {/* The buttons move under the field, together, when the card is too narrow for both. */}
      <Box
        display="flex"
        alignItems="center"
        flexWrap="wrap"
        mb={2}
        style={{ gap: 16 }}
      >
        <TextField
          id="krypton-storage-rewrite-namespace"
          label={t('operator.namespaceLabel')}
          helperText={t('operator.namespaceHelp')}
          value={namespace}
          onChange={e => setNamespace(e.target.value)}
          size="small"
          style={{ width: 360, maxWidth: '100%' }}
        />
        <Box display="flex" style={{ gap: 8 }}>
          <Button
            variant="outlined"
            onClick={() => start(true)}
            disabled={starting !== undefined || running}
            style={ONE_LINE}
          >
            {starting === 'dryRun'
              ? t('operator.starting')
              : t('operator.dryRun')}
          </Button>
          <Button
            variant="contained"
            color="primary"
            onClick={() => start(false)}
            disabled={starting !== undefined || running}
            style={ONE_LINE}
          >
            {starting === 'run' ? t('operator.starting') : t('operator.run')}
          </Button>
        </Box>
      </Box>
      {startError && <ResponseErrorPanel error={startError} />}
      {shown && (
        <StorageRunView
          run={shown}
          pollFailure={pollFailure}
          cancelSending={cancelSending}
          cancelFailure={cancelFailure}
          onCancel={cancel}
        />
      )}
      {(listed || runs.error) && (
        <StorageMigrationsPanel cluster={cluster} since={lastRealRun} />
      )}
      {runs.error && <ResponseErrorPanel error={runs.error} />}
      <Box mb={2}>
        <StorageRunsTable
          runs={rows}
          loading={runs.loading}
          shownId={shown?.id}
          onOpen={show}
        />
      </Box>
      {perNamespace.error && <ResponseErrorPanel error={perNamespace.error} />}
      <StorageNamespacesTable
        runs={perNamespace.value ?? []}
        loading={perNamespace.loading}
      />
    </InfoCard>
  );
};
