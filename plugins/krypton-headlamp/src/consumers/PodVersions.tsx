import {
  ConsumerPod,
  ConsumerVersionsResult,
  ConsumerWorkloadVersions,
  PodVersionGroup,
  PodVersionStatus,
  WorkloadCondition,
} from '@krypton/core';
import { StatusLabel } from '@kinvolk/headlamp-plugin/lib/CommonComponents';
import {
  describeContainerRead,
  describeContainerRole,
  describeHeldVersion,
  describeRolloutCounts,
  describeRolloutProblem,
  describeStaleFor,
  describeStuckReasons,
  describeTime,
  describeVersionStatus,
  describeVersionsSummary,
  englishConsumersT,
  englishTimeT,
} from '@krypton/plugin-krypton-react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { Failure } from '../history/failure';
import { text } from '../messages';
import { RelativeTime } from '../time/RelativeTime';
import {
  FOLLOW_INTERVAL_MS,
  FOLLOW_LIMIT_MS,
  FollowState,
} from './useConsumerVersions';

const t = englishConsumersT;
const words = text.consumers.pods;
const followWords = text.consumers.follow;
const NONE = text.consumers.none;

/** The summary's state as an Alert's colour: never a success colour for an incomplete answer. */
const SUMMARY_SEVERITY = {
  current: 'success',
  stale: 'warning',
  incomplete: 'info',
} as const;

/** A group's status as Headlamp's StatusLabel colours a pod's: only current and stale have one. */
const STATUS_COLOUR: Record<PodVersionStatus, 'success' | 'warning' | ''> = {
  current: 'success',
  stale: 'warning',
  converging: '',
  uncertain: '',
  notStarted: '',
  unaffected: '',
};

/**
 * The line people read first, with its notes and when the pods were read. It is a live status,
 * so that a followed rollout's progress is announced as it changes.
 */
export function VersionsSummary(props: {
  result: ConsumerVersionsResult;
  /** A re-read that failed: the shown answer is the last one that came. */
  rereadFailure?: Failure;
  checking: boolean;
  onCheckAgain: () => void;
}) {
  const { result, rereadFailure } = props;
  const described = describeVersionsSummary(result, t);
  return (
    <Alert
      severity={SUMMARY_SEVERITY[described.state]}
      role="status"
      aria-label={words.summaryLabel}
      action={
        <Button
          color="inherit"
          size="small"
          disabled={props.checking}
          aria-label={words.checkAgainLabel}
          onClick={props.onCheckAgain}
        >
          {words.checkAgain}
        </Button>
      }
    >
      <AlertTitle>{described.line}</AlertTitle>
      {described.notes.length > 0 && (
        <ul style={{ margin: 0, paddingLeft: 16 }}>
          {described.notes.map(note => (
            <li key={note}>
              <Typography variant="body2">{note}</Typography>
            </li>
          ))}
        </ul>
      )}
      <Typography variant="caption" component="div">
        {rereadFailure
          ? words.rereadFailed(rereadFailure.message)
          : words.checked}{' '}
        <RelativeTime value={result.checkedAt} />
      </Typography>
    </Alert>
  );
}

/**
 * Reading the pods failed before any answer came: the part says so with Retry; the list of
 * workloads and the restart above it do not depend on it.
 */
export function VersionsFailure(props: {
  failure: Failure;
  retrying: boolean;
  onRetry: () => void;
}) {
  const denied = props.failure.kind === 'denied';
  return (
    <Alert
      severity={denied ? 'warning' : 'error'}
      action={
        <Button
          color="inherit"
          disabled={props.retrying}
          aria-label={words.retryLabel}
          onClick={props.onRetry}
        >
          {words.retry}
        </Button>
      }
    >
      <AlertTitle>
        {denied ? words.deniedTitle : words.loadFailedTitle}
      </AlertTitle>
      {denied ? words.denied : words.loadFailed(props.failure.message)}
    </Alert>
  );
}

/** What keeps a workload from being current, or nothing when it is, in Headlamp's words. */
function stuckReasons(
  workload: ConsumerWorkloadVersions,
  checkedAt: string,
): string[] {
  return describeStuckReasons(workload, checkedAt, t, {
    problemWithPods: followWords.problemWithPods,
    podsFailed: words.podsFailed,
    group: words.group,
  });
}

/** Each workload that is not current, with what keeps it and its controller's conditions. */
function StuckList({ result }: { result: ConsumerVersionsResult }) {
  const stuck = result.workloads
    .map(w => ({ w, reasons: stuckReasons(w, result.checkedAt) }))
    .filter(s => s.reasons.length > 0);
  if (stuck.length === 0)
    return (
      <Typography variant="body2">{followWords.stuckNothingKnown}</Typography>
    );
  return (
    <>
      <Typography variant="body2">{followWords.stuck}</Typography>
      <ul style={{ margin: 0, paddingLeft: 16 }}>
        {stuck.map(({ w, reasons }) => (
          <li key={`${w.kind}/${w.name}`}>
            <Typography variant="body2" component="div">
              <strong>{words.workloadLabel(w.kind, w.name)}</strong>
            </Typography>
            <ul style={{ margin: 0, paddingLeft: 16 }}>
              {reasons.map((reason, i) => (
                <li key={i}>
                  <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                    {reason}
                  </Typography>
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
  const minutes = FOLLOW_LIMIT_MS / 60_000;
  switch (follow.phase) {
    case 'following':
      return (
        <Box display="flex" flexDirection="column" gap={0.5}>
          <Box display="flex" alignItems="center" flexWrap="wrap" gap={1}>
            <CircularProgress size={16} aria-hidden="true" />
            <Typography variant="body2" role="status">
              {followWords.following}
            </Typography>
            <Button
              size="small"
              variant="outlined"
              onClick={onStop}
              aria-label={followWords.stopLabel}
            >
              {followWords.stop}
            </Button>
          </Box>
          <Typography variant="caption" color="text.secondary">
            {followWords.followingDetail(FOLLOW_INTERVAL_MS / 1000, minutes)}
          </Typography>
          {follow.failure && (
            <Typography variant="caption" color="error">
              {followWords.checkFailed(follow.failure.message)}
            </Typography>
          )}
        </Box>
      );
    case 'done':
      return (
        <Alert severity="success">{followWords.done(follow.version)}</Alert>
      );
    case 'timedOut':
      return (
        <Alert severity="warning">
          <AlertTitle>{followWords.timedOut(minutes)}</AlertTitle>
          {result && <StuckList result={result} />}
        </Alert>
      );
    case 'stopped':
      return (
        <Typography variant="body2" color="text.secondary">
          {followWords.stopped}
        </Typography>
      );
    default:
      return null;
  }
}

/**
 * How long the group has been stale at the engine's clock ("stale for 2 hours"), with the exact
 * time its version was replaced on hover.
 */
function StaleFor(props: { group: PodVersionGroup; checkedAt: string }) {
  const { group, checkedAt } = props;
  const staleFor = describeStaleFor(group, checkedAt, t);
  if (!staleFor || !group.staleSince) return null;
  const exact = describeTime(
    group.staleSince,
    new Date(checkedAt),
    englishTimeT,
  )?.exact;
  return (
    <Tooltip title={exact ?? group.staleSince} describeChild>
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
      <time dateTime={group.staleSince} tabIndex={0} aria-label={staleFor}>
        {staleFor}
      </time>
    </Tooltip>
  );
}

/** The pods of one group, a row per container: how it reads the Secret and what it holds. */
function PodTable(props: {
  id: string;
  pods: ConsumerPod[];
  label: string;
  checkedAt: string;
}) {
  const { pods, checkedAt } = props;
  const now = new Date(checkedAt);
  const cell = { verticalAlign: 'top' } as const;
  const oneLine = { ...cell, whiteSpace: 'nowrap' } as const;
  return (
    <Box id={props.id} mt={1} sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={props.label}>
        <TableHead>
          <TableRow>
            <TableCell>{words.pod}</TableCell>
            <TableCell>{words.container}</TableCell>
            <TableCell>{words.reads}</TableCell>
            <TableCell>{words.holds}</TableCell>
            <TableCell>{words.started}</TableCell>
            <TableCell>{words.restarts}</TableCell>
            <TableCell>{words.waiting}</TableCell>
          </TableRow>
        </TableHead>
        {pods.map(pod => {
          const span = Math.max(pod.containers.length, 1);
          const podCell = (
            <TableCell
              component="th"
              scope="rowgroup"
              role="rowheader"
              rowSpan={span}
              sx={cell}
            >
              {pod.name}
              <Typography
                variant="caption"
                color="text.secondary"
                component="div"
              >
                {words.podState(pod.phase, pod.ready, pod.deleting)}
              </Typography>
            </TableCell>
          );
          return (
            // One body per pod, so that its name heads each of its containers' rows.
            <TableBody key={pod.name}>
              {pod.containers.length === 0 && (
                <TableRow>
                  {podCell}
                  <TableCell colSpan={6} sx={cell}>
                    {describeHeldVersion(pod.holds, t, { checkedAt })}
                  </TableCell>
                </TableRow>
              )}
              {pod.containers.map((c, i) => (
                <TableRow key={`${c.role}/${c.name}`}>
                  {i === 0 && podCell}
                  <TableCell sx={oneLine}>
                    {c.name}
                    {c.role !== 'container' && (
                      <Typography
                        variant="caption"
                        color="text.secondary"
                        component="div"
                      >
                        {describeContainerRole(c.role, t)}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell sx={cell}>
                    {c.reads.length > 0
                      ? c.reads.map(r => describeContainerRead(r, t)).join(', ')
                      : NONE}
                  </TableCell>
                  <TableCell sx={cell}>
                    {describeHeldVersion(c.holds, t, { checkedAt })}
                  </TableCell>
                  <TableCell sx={oneLine}>
                    {c.startedAt ? (
                      <RelativeTime value={c.startedAt} now={now} />
                    ) : (
                      words.notStarted
                    )}
                  </TableCell>
                  <TableCell sx={cell}>{c.restarts}</TableCell>
                  <TableCell sx={oneLine}>
                    {c.waitingReason ??
                      (c.running ? NONE : words.stoppedContainer)}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          );
        })}
      </Table>
    </Box>
  );
}

/** One group of pods: its status, what it holds, how many, how long stale; its pods on request. */
function GroupItem(props: {
  group: PodVersionGroup;
  workload: ConsumerWorkloadVersions;
  workloadLabel: string;
  checkedAt: string;
}) {
  const { group, workload, workloadLabel, checkedAt } = props;
  const [open, setOpen] = useState(false);
  const tableId = useId();
  const labelId = useId();
  const textId = useId();
  const held = describeHeldVersion(group.holds, t, { checkedAt });
  const status = describeVersionStatus(group.status, t);
  const names = new Set(group.pods);
  const pods = workload.pods.filter(p => names.has(p.name));
  return (
    <li>
      <Box display="flex" alignItems="center" flexWrap="wrap" gap={1}>
        {/* The label is the status; what it means is on hover and focus. */}
        <Tooltip title={status.explanation} describeChild>
          <StatusLabel
            status={STATUS_COLOUR[group.status] ?? ''}
            id={labelId}
            tabIndex={0}
          >
            {status.label}
          </StatusLabel>
        </Tooltip>
        <Typography variant="body2" component="span" id={textId}>
          {words.groupDetail(
            held,
            t('consumers.versions.podCount', { count: group.pods.length }),
          )}
        </Typography>
        <Typography variant="body2" component="span" color="text.secondary">
          <StaleFor group={group} checkedAt={checkedAt} />
        </Typography>
        {pods.length > 0 && (
          <Button
            size="small"
            aria-expanded={open}
            aria-controls={open ? tableId : undefined}
            aria-describedby={`${labelId} ${textId}`}
            onClick={() => setOpen(o => !o)}
          >
            {open ? words.hidePods : words.showPods}
          </Button>
        )}
      </Box>
      {open && (
        <PodTable
          id={tableId}
          pods={pods}
          checkedAt={checkedAt}
          label={words.tableLabel(workloadLabel, held)}
        />
      )}
    </li>
  );
}

/** A workload's own conditions, as its controller reports them. */
function ConditionTable(props: {
  conditions: WorkloadCondition[];
  label: string;
}) {
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={props.label}>
        <TableHead>
          <TableRow>
            <TableCell>{words.conditionType}</TableCell>
            <TableCell>{words.conditionStatus}</TableCell>
            <TableCell>{words.conditionReason}</TableCell>
            <TableCell>{words.conditionMessage}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {props.conditions.map(c => (
            <TableRow key={c.type}>
              <TableCell component="th" scope="row">
                {c.type}
              </TableCell>
              <TableCell>{c.status}</TableCell>
              <TableCell>{c.reason ?? NONE}</TableCell>
              <TableCell sx={{ overflowWrap: 'anywhere' }}>
                {c.message ?? NONE}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

/** Why the rollout may not reach every pod, with the pods concerned and the controller's words. */
function WorkloadProblems(props: {
  workload: ConsumerWorkloadVersions;
  workloadLabel: string;
}) {
  const { workload, workloadLabel } = props;
  if (workload.problems.length === 0) return null;
  return (
    <Alert severity="warning">
      <AlertTitle>{words.problemsTitle}</AlertTitle>
      <ul style={{ margin: 0, paddingLeft: 16 }}>
        {workload.problems.map(problem => (
          <li key={problem.reason}>
            <Typography variant="body2">
              {describeRolloutProblem(problem.reason, t)}
            </Typography>
            {problem.pods && problem.pods.length > 0 && (
              <Typography
                variant="caption"
                component="div"
                sx={{ overflowWrap: 'anywhere' }}
              >
                {words.problemPods(problem.pods.join(', '))}
              </Typography>
            )}
          </li>
        ))}
      </ul>
      {workload.rollout.conditions.length > 0 && (
        <Box mt={1}>
          <ConditionTable
            conditions={workload.rollout.conditions}
            label={words.conditionsLabel(workloadLabel)}
          />
        </Box>
      )}
    </Alert>
  );
}

/**
 * One consuming workload: its rollout's counts, its problems with its conditions, and its pods
 * grouped by the version they hold. Pods that could not be read are unknown, never "no pods".
 */
export function WorkloadVersions(props: {
  workload: ConsumerWorkloadVersions;
  checkedAt: string;
}) {
  const { workload, checkedAt } = props;
  const headingId = useId();
  const workloadLabel = words.workloadLabel(workload.kind, workload.name);
  const failure = workload.podsFailure;
  return (
    <Box
      component="section"
      aria-labelledby={headingId}
      display="flex"
      flexDirection="column"
      gap={1}
    >
      <Typography
        variant="subtitle1"
        component="h5"
        id={headingId}
        sx={{ fontWeight: 'bold', overflowWrap: 'anywhere' }}
      >
        {workloadLabel}
      </Typography>
      <Typography variant="body2">
        {words.rollout(describeRolloutCounts(workload.rollout, t))}
      </Typography>
      <WorkloadProblems workload={workload} workloadLabel={workloadLabel} />
      {failure && (
        <Alert severity={failure.code === 'forbidden' ? 'warning' : 'error'}>
          <Typography variant="body2">
            {words.podsFailed(failure.message)}
          </Typography>
          <Typography variant="caption">
            {words.podsFailedCode(failure.code, failure.httpStatus)}
          </Typography>
        </Alert>
      )}
      {!failure && workload.groups.length === 0 && (
        <Typography variant="body2">{words.noPods}</Typography>
      )}
      {!failure && workload.groups.length > 0 && (
        <ul
          aria-label={words.groupsLabel(workloadLabel)}
          style={{ listStyle: 'none', margin: 0, padding: 0 }}
        >
          {workload.groups.map(group => (
            <GroupItem
              key={`${group.status}/${JSON.stringify(group.holds)}`}
              group={group}
              workload={workload}
              workloadLabel={workloadLabel}
              checkedAt={checkedAt}
            />
          ))}
        </ul>
      )}
    </Box>
  );
}
