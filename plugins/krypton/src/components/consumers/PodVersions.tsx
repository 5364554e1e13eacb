import {
  StatusAborted,
  StatusOK,
  StatusPending,
  StatusRunning,
  StatusWarning,
} from '@backstage/core-components';
import {
  ConsumerPod,
  ConsumerWorkloadVersions,
  PodVersionGroup,
  PodVersionStatus,
  WorkloadCondition,
} from '@krypton/core';
import {
  describeContainerRead,
  describeContainerRole,
  describeHeldVersion,
  describeRolloutCounts,
  describeRolloutProblem,
  describeStaleFor,
  describeTime,
  describeVersionStatus,
} from '@krypton/plugin-krypton-react';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableHead from '@material-ui/core/TableHead';
import TableRow from '@material-ui/core/TableRow';
import Tooltip from '@material-ui/core/Tooltip';
import Typography from '@material-ui/core/Typography';
import { makeStyles } from '@material-ui/core/styles';
import Alert from '@material-ui/lab/Alert';
import AlertTitle from '@material-ui/lab/AlertTitle';
import { ReactNode, useId, useState } from 'react';
import { useKryptonT } from '../../translation';
import { NONE, useWholeWordStyles } from '../wholeWordTables';
import { useCellLineStyles } from '../list/cellLines';
import { RelativeTime } from '../time/RelativeTime';

/**
 * Words stay whole (useWholeWordStyles), cells align at their tops, and a name that does not fit
 * its column is cut with an ellipsis, whole on hover.
 */
const useStyles = makeStyles(theme => ({
  top: { '& th, & td': { verticalAlign: 'top' } },
  podColumn: { width: '28%', minWidth: '8rem' },
  messageColumn: { minWidth: '12rem' },
  heading: { minWidth: 0 },
  list: { margin: 0, paddingLeft: theme.spacing(2) },
  groups: { listStyle: 'none', margin: 0, padding: 0 },
  // Only a word longer than its line (a long pod name among many) is broken.
  wrap: { overflowWrap: 'break-word' },
}));

/** A name on one line, cut with an ellipsis where its box is narrower, whole on hover. */
export function OneLineName(props: {
  text: string;
  children?: ReactNode;
  id?: string;
}) {
  const lines = useCellLineStyles();
  return (
    <Tooltip title={props.text}>
      <span id={props.id} className={`${lines.fill} ${lines.oneLine}`}>
        {props.children ?? props.text}
      </span>
    </Tooltip>
  );
}

const STATUS_ICONS: Record<
  PodVersionStatus,
  (props: { children?: ReactNode }) => JSX.Element
> = {
  current: StatusOK,
  stale: StatusWarning,
  converging: StatusRunning,
  uncertain: StatusPending,
  notStarted: StatusPending,
  unaffected: StatusAborted,
};

/**
 * A group's status as its coloured icon, and what it means on hover and focus; the group's text
 * beside it names the status, so the icon does not repeat it.
 */
function GroupStatus({ status }: { status: PodVersionStatus }) {
  const t = useKryptonT();
  const { label, explanation } = describeVersionStatus(status, t);
  const Icon = STATUS_ICONS[status] ?? StatusPending;
  return (
    <Tooltip title={`${label}: ${explanation}`}>
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
      <span tabIndex={0} aria-label={explanation}>
        <Icon />
      </span>
    </Tooltip>
  );
}

/**
 * How long the group has been stale at the server's clock ("stale for 2 hours"), with the exact
 * time its version was replaced on hover, as RelativeTime shows times.
 */
function StaleFor(props: { group: PodVersionGroup; checkedAt: string }) {
  const { group, checkedAt } = props;
  const t = useKryptonT();
  const text = describeStaleFor(group, checkedAt, t);
  if (!text || !group.staleSince) return null;
  const exact = describeTime(group.staleSince, new Date(checkedAt), t)?.exact;
  return (
    <Tooltip title={exact ?? group.staleSince}>
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
      <time dateTime={group.staleSince} tabIndex={0} aria-label={text}>
        {text}
      </time>
    </Tooltip>
  );
}

function podState(pod: ConsumerPod, t: ReturnType<typeof useKryptonT>) {
  const state = pod.ready
    ? t('consumers.pods.podState', { phase: pod.phase })
    : t('consumers.pods.podStateNotReady', { phase: pod.phase });
  return pod.deleting ? t('consumers.pods.deleting', { state }) : state;
}

/** The pods of one group, a row per container: how it reads the Secret and what it holds. */
function PodTable(props: {
  id: string;
  pods: ConsumerPod[];
  label: string;
  checkedAt: string;
}) {
  const { pods, checkedAt } = props;
  const t = useKryptonT();
  const classes = useStyles();
  const whole = useWholeWordStyles();
  const now = new Date(checkedAt);
  return (
    <Box id={props.id} className={whole.scroll} mt={1}>
      <Table
        size="small"
        className={`${whole.table} ${classes.top}`}
        aria-label={props.label}
      >
        <TableHead>
          <TableRow>
            <TableCell className={classes.podColumn}>
              {t('consumers.pods.pod')}
            </TableCell>
            <TableCell>{t('consumers.pods.container')}</TableCell>
            <TableCell>{t('consumers.pods.reads')}</TableCell>
            <TableCell>{t('consumers.pods.holds')}</TableCell>
            <TableCell>{t('consumers.pods.started')}</TableCell>
            <TableCell>{t('consumers.pods.restarts')}</TableCell>
            <TableCell>{t('consumers.pods.waiting')}</TableCell>
          </TableRow>
        </TableHead>
        {pods.map(pod => {
          const containers = pod.containers.length > 0 ? pod.containers : [];
          const span = Math.max(containers.length, 1);
          const podCell = (
            <TableCell
              component="th"
              scope="rowgroup"
              role="rowheader"
              rowSpan={span}
              className={classes.podColumn}
            >
              <OneLineName text={pod.name} />
              <Typography
                variant="caption"
                color="textSecondary"
                component="div"
              >
                {podState(pod, t)}
              </Typography>
            </TableCell>
          );
          return (
            // One body per pod, so that its name heads each of its containers' rows.
            <TableBody key={pod.name}>
              {containers.length === 0 && (
                <TableRow>
                  {podCell}
                  <TableCell colSpan={6}>
                    {describeHeldVersion(pod.holds, t, { checkedAt })}
                  </TableCell>
                </TableRow>
              )}
              {containers.map((c, i) => (
                <TableRow key={`${c.role}/${c.name}`}>
                  {i === 0 && podCell}
                  <TableCell className={whole.oneLine}>
                    {c.name}
                    {c.role !== 'container' && (
                      <Typography
                        variant="caption"
                        color="textSecondary"
                        component="div"
                      >
                        {describeContainerRole(c.role, t)}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell>
                    {c.reads.length > 0
                      ? c.reads.map(r => describeContainerRead(r, t)).join(', ')
                      : NONE}
                  </TableCell>
                  <TableCell>
                    {describeHeldVersion(c.holds, t, { checkedAt })}
                  </TableCell>
                  <TableCell className={whole.oneLine}>
                    {c.startedAt ? (
                      <RelativeTime value={c.startedAt} now={now} />
                    ) : (
                      t('consumers.pods.notStarted')
                    )}
                  </TableCell>
                  <TableCell>{c.restarts}</TableCell>
                  <TableCell className={whole.oneLine}>
                    {c.waitingReason ??
                      (c.running ? NONE : t('consumers.pods.stoppedContainer'))}
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
  const t = useKryptonT();
  const [open, setOpen] = useState(false);
  const tableId = useId();
  const textId = useId();
  const held = describeHeldVersion(group.holds, t, { checkedAt });
  const status = describeVersionStatus(group.status, t).label;
  const names = new Set(group.pods);
  const pods = workload.pods.filter(p => names.has(p.name));
  return (
    <li>
      <Box
        display="flex"
        alignItems="center"
        flexWrap="wrap"
        style={{ gap: 8 }}
      >
        <GroupStatus status={group.status} />
        <Typography variant="body2" component="span" id={textId}>
          {t('consumers.pods.group', {
            status,
            held,
            pods: t('consumers.versions.podCount', {
              count: group.pods.length,
            }),
          })}
        </Typography>
        <Typography variant="body2" component="span" color="textSecondary">
          <StaleFor group={group} checkedAt={checkedAt} />
        </Typography>
        {pods.length > 0 && (
          <Button
            size="small"
            aria-expanded={open}
            aria-controls={open ? tableId : undefined}
            aria-describedby={textId}
            onClick={() => setOpen(o => !o)}
          >
            {open ? t('consumers.pods.hidePods') : t('consumers.pods.showPods')}
          </Button>
        )}
      </Box>
      {open && (
        <PodTable
          id={tableId}
          pods={pods}
          checkedAt={checkedAt}
          label={t('consumers.pods.tableLabel', {
            workload: workloadLabel,
            held,
          })}
        />
      )}
    </li>
  );
}

/** A workload's own conditions, as its controller reports them. */
export function ConditionTable(props: {
  conditions: WorkloadCondition[];
  label: string;
}) {
  const t = useKryptonT();
  const classes = useStyles();
  const whole = useWholeWordStyles();
  return (
    <Box className={whole.scroll}>
      <Table
        size="small"
        className={`${whole.table} ${classes.top}`}
        aria-label={props.label}
      >
        <TableHead>
          <TableRow>
            <TableCell>{t('consumers.pods.conditionType')}</TableCell>
            <TableCell>{t('consumers.pods.conditionStatus')}</TableCell>
            <TableCell>{t('consumers.pods.conditionReason')}</TableCell>
            <TableCell className={classes.messageColumn}>
              {t('consumers.pods.conditionMessage')}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {props.conditions.map(c => (
            <TableRow key={c.type}>
              <TableCell
                component="th"
                scope="row"
                role="rowheader"
                className={whole.oneLine}
              >
                {c.type}
              </TableCell>
              <TableCell className={whole.oneLine}>{c.status}</TableCell>
              <TableCell className={whole.oneLine}>
                {c.reason ?? NONE}
              </TableCell>
              <TableCell className={classes.wrap}>
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
export function WorkloadProblems(props: {
  workload: ConsumerWorkloadVersions;
  workloadLabel: string;
}) {
  const { workload, workloadLabel } = props;
  const t = useKryptonT();
  const classes = useStyles();
  if (workload.problems.length === 0) return null;
  return (
    <Alert severity="warning">
      <AlertTitle>{t('consumers.pods.problemsTitle')}</AlertTitle>
      <ul className={classes.list}>
        {workload.problems.map(problem => (
          <li key={problem.reason}>
            <Typography variant="body2">
              {describeRolloutProblem(problem.reason, t)}
            </Typography>
            {problem.pods && problem.pods.length > 0 && (
              <Typography
                variant="caption"
                component="div"
                className={classes.wrap}
              >
                {t('consumers.pods.problemPods', {
                  pods: problem.pods.join(', '),
                })}
              </Typography>
            )}
          </li>
        ))}
      </ul>
      {workload.rollout.conditions.length > 0 && (
        <Box mt={1}>
          <ConditionTable
            conditions={workload.rollout.conditions}
            label={t('consumers.pods.conditionsLabel', {
              workload: workloadLabel,
            })}
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
  const t = useKryptonT();
  const classes = useStyles();
  const headingId = useId();
  const workloadLabel = t('consumers.pods.workloadLabel', {
    kind: workload.kind,
    name: workload.name,
  });
  const failure = workload.podsFailure;
  return (
    <Box
      component="section"
      aria-labelledby={headingId}
      display="flex"
      flexDirection="column"
      style={{ gap: 8 }}
    >
      <Typography
        variant="subtitle1"
        component="h3"
        className={classes.heading}
      >
        <OneLineName text={workloadLabel} id={headingId} />
      </Typography>
      <Typography variant="body2">
        {t('consumers.pods.rollout', {
          counts: describeRolloutCounts(workload.rollout, t),
        })}
      </Typography>
      <WorkloadProblems workload={workload} workloadLabel={workloadLabel} />
      {failure && (
        <Alert severity="error">
          <Typography variant="body2">
            {t('consumers.pods.podsFailed', { message: failure.message })}
          </Typography>
          <Typography variant="caption">
            {failure.httpStatus !== undefined
              ? t('consumers.pods.podsFailedCode', {
                  code: failure.code,
                  status: String(failure.httpStatus),
                })
              : t('consumers.pods.podsFailedCodeOnly', { code: failure.code })}
          </Typography>
        </Alert>
      )}
      {!failure && workload.groups.length === 0 && (
        <Typography variant="body2">{t('consumers.pods.noPods')}</Typography>
      )}
      {!failure && workload.groups.length > 0 && (
        <ul className={classes.groups}>
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
