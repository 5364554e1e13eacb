import { StorageRewriteRunStatus } from '@krypton/core';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import LinearProgress from '@material-ui/core/LinearProgress';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import { useState } from 'react';
import { Failure } from '../../api/failure';
import { useKryptonT } from '../../translation';
import { RelativeTime } from '../time/RelativeTime';
import { CancelRunDialog } from './CancelRunDialog';
import { StorageRewriteResultView } from './StorageRewriteResultView';
import { progressPercent } from './runProgress';
import { scopePhrase } from './runWords';
import { PollFailure } from './useRunPolling';

/** A running run: how far it is, its counts, where it is, and a way to cancel it. */
const RunProgress = (props: {
  run: StorageRewriteRunStatus;
  pollFailure?: PollFailure;
  cancelSending: boolean;
  cancelFailure?: Failure;
  onCancel: () => void;
}) => {
  const t = useKryptonT();
  const [confirming, setConfirming] = useState(false);
  const { run, pollFailure } = props;
  const p = run.progress;
  const value = progressPercent(run);
  const cancelling = run.cancelRequested || props.cancelSending;
  return (
    <>
      <LinearProgress
        variant={value === undefined ? 'indeterminate' : 'determinate'}
        value={value}
        aria-label={t('operator.progress.label')}
      />
      <Box mt={1} role="status">
        <Typography variant="body2">
          {p.pass === 'first'
            ? t('operator.progress.passFirst')
            : t('operator.progress.passRecheck')}{' '}
          {p.namespace !== undefined &&
            t('operator.progress.namespace', { namespace: p.namespace })}
        </Typography>
        {run.scope === '*' && (
          <Typography variant="body2">
            {p.namespacesTotal === undefined
              ? t('operator.progress.namespacesUncounted', {
                  done: String(p.namespacesDone),
                })
              : t('operator.progress.namespaces', {
                  done: String(p.namespacesDone),
                  total: String(p.namespacesTotal),
                })}
          </Typography>
        )}
        <Typography variant="body2">
          {t('operator.progress.counts', {
            seen: String(p.seen),
            rewritten: String(p.rewritten),
            alreadyCurrent: String(p.alreadyCurrent),
            failed: String(p.failed),
            gone: String(p.gone),
          })}
        </Typography>
        {run.cancelRequested && (
          <Typography variant="body2">
            {run.cancelledBy
              ? t('operator.progress.cancellingNoteBy', { by: run.cancelledBy })
              : t('operator.progress.cancellingNote')}
          </Typography>
        )}
      </Box>
      {pollFailure && (
        <Box mt={1}>
          <Alert severity="warning">
            {pollFailure.retryInMs === undefined
              ? t('operator.progress.pollStopped', {
                  message: pollFailure.failure.message,
                })
              : t('operator.progress.pollFailed', {
                  message: pollFailure.failure.message,
                  seconds: String(Math.round(pollFailure.retryInMs / 1000)),
                })}
          </Alert>
        </Box>
      )}
      {props.cancelFailure && (
        <Box mt={1}>
          <Alert severity="error">
            {t('operator.progress.cancelFailed', {
              message: props.cancelFailure.message,
            })}
          </Alert>
        </Box>
      )}
      <Box mt={1}>
        <Button
          variant="outlined"
          onClick={() => setConfirming(true)}
          disabled={cancelling}
        >
          {cancelling
            ? t('operator.progress.cancelling')
            : t('operator.progress.cancel')}
        </Button>
      </Box>
      <CancelRunDialog
        open={confirming}
        onKeep={() => setConfirming(false)}
        onCancel={() => {
          setConfirming(false);
          props.onCancel();
        }}
      />
    </>
  );
};

/** How an ended run ended, when that is more than its result says. */
const RunEnd = ({ run }: { run: StorageRewriteRunStatus }) => {
  const t = useKryptonT();
  switch (run.state) {
    case 'failed':
      if (run.error) {
        return (
          <Alert severity="error">
            {t('operator.ended.failed', { message: run.error })}
          </Alert>
        );
      }
      // A result says for itself what failed.
      return run.result ? null : (
        <Alert severity="error">{t('operator.ended.failedNoMessage')}</Alert>
      );
    case 'cancelled':
      return (
        <Alert severity="info">
          {run.cancelledBy
            ? t('operator.ended.cancelledBy', { by: run.cancelledBy })
            : t('operator.ended.cancelled')}
        </Alert>
      );
    case 'interrupted':
      return (
        <Alert severity="warning">{t('operator.ended.interrupted')}</Alert>
      );
    default:
      return null;
  }
};

/**
 * The run the section shows: the one just started, one found running on load, or one opened from
 * the table of runs. While it runs, its progress; once it ended, how, and its result with the
 * verdict on the old key.
 */
export const StorageRunView = (props: {
  run: StorageRewriteRunStatus;
  pollFailure?: PollFailure;
  cancelSending: boolean;
  cancelFailure?: Failure;
  onCancel: () => void;
}) => {
  const t = useKryptonT();
  const { run } = props;
  const headingValues = {
    scope: scopePhrase(t, run.scope),
    by: run.requestedBy,
    time: <RelativeTime value={run.requestedAt} />,
  };
  return (
    <Box mb={2} data-testid="krypton-storage-run">
      <Typography variant="subtitle2" gutterBottom>
        {run.dryRun
          ? t('operator.shown.dryHeading', headingValues)
          : t('operator.shown.heading', headingValues)}
      </Typography>
      {run.state === 'running' ? (
        <RunProgress {...props} />
      ) : (
        <>
          <RunEnd run={run} />
          {run.result && (
            <Box mt={1}>
              <StorageRewriteResultView result={run.result} />
            </Box>
          )}
        </>
      )}
    </Box>
  );
};
