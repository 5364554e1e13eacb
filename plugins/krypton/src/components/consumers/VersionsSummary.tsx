import {
  ConsumerVersionsResult,
  ConsumerWorkloadVersions,
} from '@krypton/core';
import {
  describeStuckReasons,
  describeVersionsSummary,
} from '@krypton/plugin-krypton-react';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import CircularProgress from '@material-ui/core/CircularProgress';
import Typography from '@material-ui/core/Typography';
import { makeStyles } from '@material-ui/core/styles';
import Alert from '@material-ui/lab/Alert';
import AlertTitle from '@material-ui/lab/AlertTitle';
import { KryptonT, useKryptonT } from '../../translation';
import { RelativeTime } from '../time/RelativeTime';
import {
  FOLLOW_INTERVAL_MS,
  FOLLOW_LIMIT_MS,
  FollowState,
} from './useConsumerVersions';

const useStyles = makeStyles(theme => ({
  list: { margin: 0, paddingLeft: theme.spacing(2) },
  // Only a word longer than its line (a long pod name or message) is broken.
  wrap: { overflowWrap: 'break-word' },
}));

const SEVERITY = {
  current: 'success',
  stale: 'warning',
  incomplete: 'info',
} as const;

/**
 * The line people read first, with its notes and when the pods were read. It is a live status,
 * so that a followed rollout's progress is announced as it changes.
 */
export function VersionsSummary(props: {
  result: ConsumerVersionsResult;
  /** A re-read that failed: the shown answer is the last one that came. */
  rereadError?: Error;
}) {
  const { result, rereadError } = props;
  const t = useKryptonT();
  const classes = useStyles();
  const described = describeVersionsSummary(result, t);
  return (
    <Alert
      severity={SEVERITY[described.state]}
      role="status"
      aria-label={t('consumers.pods.summaryLabel')}
    >
      <AlertTitle>{described.line}</AlertTitle>
      {described.notes.length > 0 && (
        <ul className={classes.list}>
          {described.notes.map(note => (
            <li key={note}>
              <Typography variant="body2">{note}</Typography>
            </li>
          ))}
        </ul>
      )}
      <Typography variant="caption" component="div">
        {rereadError
          ? t('consumers.pods.rereadFailed', {
              message: rereadError.message,
              time: <RelativeTime value={result.checkedAt} />,
            })
          : t('consumers.pods.checked', {
              time: <RelativeTime value={result.checkedAt} />,
            })}
      </Typography>
    </Alert>
  );
}

/** What keeps a workload from being current, or nothing when it is, in the portal's words. */
function stuckReasons(
  workload: ConsumerWorkloadVersions,
  checkedAt: string,
  t: KryptonT,
): string[] {
  return describeStuckReasons(workload, checkedAt, t, {
    problemWithPods: (problem, pods) =>
      t('consumers.follow.problemWithPods', { problem, pods }),
    podsFailed: message => t('consumers.pods.podsFailed', { message }),
    group: (status, held, pods) =>
      t('consumers.pods.group', { status, held, pods }),
  });
}

/** Each workload that is not current, with what keeps it and its controller's conditions. */
function StuckList({ result }: { result: ConsumerVersionsResult }) {
  const t = useKryptonT();
  const classes = useStyles();
  const stuck = result.workloads
    .map(w => ({ w, reasons: stuckReasons(w, result.checkedAt, t) }))
    .filter(s => s.reasons.length > 0);
  if (stuck.length === 0) {
    return (
      <Typography variant="body2">
        {t('consumers.follow.stuckNothingKnown')}
      </Typography>
    );
  }
  return (
    <>
      <Typography variant="body2">{t('consumers.follow.stuck')}</Typography>
      <ul className={classes.list}>
        {stuck.map(({ w, reasons }) => (
          <li key={`${w.kind}/${w.name}`} className={classes.wrap}>
            <Typography variant="body2" component="div">
              <strong>
                {t('consumers.pods.workloadLabel', {
                  kind: w.kind,
                  name: w.name,
                })}
              </strong>
            </Typography>
            <ul className={classes.list}>
              {reasons.map((reason, i) => (
                <li key={i}>
                  <Typography variant="body2">{reason}</Typography>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * The following of a rollout after a restart: in progress with a Stop button, and how it ended:
 * every pod current, the time limit with what is stuck and why, or stopped by the user.
 */
export function FollowStatus(props: {
  follow: FollowState;
  result?: ConsumerVersionsResult;
  onStop: () => void;
}) {
  const { follow, result, onStop } = props;
  const t = useKryptonT();
  const minutes = String(FOLLOW_LIMIT_MS / 60_000);
  switch (follow.phase) {
    case 'following':
      return (
        <Box display="flex" flexDirection="column" style={{ gap: 4 }}>
          <Box
            display="flex"
            alignItems="center"
            flexWrap="wrap"
            style={{ gap: 8 }}
          >
            <CircularProgress size={16} aria-hidden="true" />
            <Typography variant="body2" role="status">
              {t('consumers.follow.following')}
            </Typography>
            <Button
              size="small"
              variant="outlined"
              onClick={onStop}
              aria-label={t('consumers.follow.stopLabel')}
            >
              {t('consumers.follow.stop')}
            </Button>
          </Box>
          <Typography variant="caption" color="textSecondary">
            {t('consumers.follow.followingDetail', {
              seconds: String(FOLLOW_INTERVAL_MS / 1000),
              minutes,
            })}
          </Typography>
          {follow.failure && (
            <Typography variant="caption" color="error">
              {t('consumers.follow.checkFailed', {
                message: follow.failure.message,
              })}
            </Typography>
          )}
        </Box>
      );
    case 'done':
      return (
        <Alert severity="success">
          {follow.version === null
            ? t('consumers.follow.doneUnknownVersion')
            : t('consumers.follow.done', { version: String(follow.version) })}
        </Alert>
      );
    case 'timedOut':
      return (
        <Alert severity="warning">
          <AlertTitle>{t('consumers.follow.timedOut', { minutes })}</AlertTitle>
          {result && <StuckList result={result} />}
        </Alert>
      );
    case 'stopped':
      return (
        <Typography variant="body2" color="textSecondary">
          {t('consumers.follow.stopped')}
        </Typography>
      );
    default:
      return null;
  }
}
