import type {
  ConsumerVersionsResult,
  ConsumerWorkloadVersions,
  ContainerRead,
  ContainerVersion,
  HeldVersion,
  PodVersionGroup,
  PodVersionStatus,
  RolloutProblemReason,
  RolloutState,
  WorkloadCondition,
} from '@krypton/core';
import type { ConsumersT, ConsumersTextKey } from './describe';

/**
 * How describeHeldVersion and describeStaleFor read times.
 *
 * @public
 */
export interface VersionTimeOptions {
  /**
   * The server's clock when the pods were read (ConsumerVersionsResult.checkedAt): an expected
   * update before it is overdue, and durations end there.
   */
  checkedAt?: string;
  /** The user's locale; the browser's by default. */
  locale?: string;
  /** An IANA time zone; the browser's by default. */
  timeZone?: string;
  /** How a moment reads; by default its clock time (formatClockTime). */
  formatTime?: (value: string) => string;
}

const parse = (value: string | undefined): Date | undefined => {
  if (value === undefined) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
};

/**
 * A moment near `reference` as a clock reads it ("10:42:13 AM"), with its date when it falls on
 * another day; a value that is not a date as written.
 *
 * @public
 */
export function formatClockTime(
  value: string,
  reference?: string,
  options: { locale?: string; timeZone?: string } = {},
): string {
  const then = parse(value);
  if (!then) return value;
  const { locale, timeZone } = options;
  const day = (date: Date) =>
    new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone }).format(
      date,
    );
  const ref = parse(reference);
  const sameDay = ref !== undefined && day(ref) === day(then);
  return new Intl.DateTimeFormat(locale, {
    ...(sameDay ? {} : { dateStyle: 'medium' }),
    timeStyle: 'medium',
    timeZone,
  }).format(then);
}

/**
 * Whether an `expected` claim is past its time at `checkedAt`: its volume should have been
 * updated already.
 *
 * @public
 */
export function isOverdue(held: HeldVersion, checkedAt?: string): boolean {
  if (held.state !== 'expected') return false;
  const by = parse(held.by);
  const now = parse(checkedAt);
  return by !== undefined && now !== undefined && by <= now;
}

/**
 * What a pod or a container holds of the Secret, in words: "version 7", "a version older than 3",
 * "expected to hold version 9 by 10:42:13 AM" (or, once that time has passed at `checkedAt`,
 * "should hold version 9 since 10:42:13 AM"), "used only to pull images"...
 *
 * @public
 */
export function describeHeldVersion(
  held: HeldVersion,
  t: ConsumersT,
  options: VersionTimeOptions = {},
): string {
  switch (held.state) {
    case 'version':
      return t('consumers.versions.held.version', { version: held.version });
    case 'between':
      return t('consumers.versions.held.between', {
        from: held.from,
        to: held.to,
      });
    case 'olderThan':
      return t('consumers.versions.held.olderThan', { version: held.version });
    case 'expected': {
      if (held.by === undefined) {
        return t('consumers.versions.held.expectedUndated', {
          version: held.version,
        });
      }
      const time = options.formatTime
        ? options.formatTime(held.by)
        : formatClockTime(held.by, options.checkedAt, options);
      return isOverdue(held, options.checkedAt)
        ? t('consumers.versions.held.overdue', { version: held.version, time })
        : t('consumers.versions.held.expected', {
            version: held.version,
            time,
          });
    }
    case 'notStarted':
      return t('consumers.versions.held.notStarted');
    case 'unknown':
      return t('consumers.versions.held.unknown');
    case 'imagePullOnly':
      return t('consumers.versions.held.imagePullOnly');
    case 'unused':
      return t('consumers.versions.held.unused');
    default:
      // A claim from a newer core is still worth naming.
      return (held as { state: string }).state;
  }
}

/**
 * A group status's short name and what it means.
 *
 * @public
 */
export interface VersionStatusDescription {
  /** "Stale". */
  label: string;
  /** "holds an older version until its pods are replaced". */
  explanation: string;
}

const STATUSES: readonly PodVersionStatus[] = [
  'current',
  'stale',
  'converging',
  'uncertain',
  'notStarted',
  'unaffected',
];

/**
 * Where a group of pods stands against the live Secret, in words.
 *
 * @public
 */
export function describeVersionStatus(
  status: PodVersionStatus,
  t: ConsumersT,
): VersionStatusDescription {
  if (!STATUSES.includes(status)) {
    // A status from a newer core is named as it is.
    return { label: status, explanation: '' };
  }
  return {
    label: t(`consumers.versions.status.${status}`),
    explanation: t(`consumers.versions.status.${status}Explanation`),
  };
}

const PROBLEM_KEYS: Record<RolloutProblemReason, ConsumersTextKey> = {
  paused: 'consumers.versions.problems.paused',
  'on-delete': 'consumers.versions.problems.onDelete',
  'progress-deadline': 'consumers.versions.problems.progressDeadline',
  'replica-failure': 'consumers.versions.problems.replicaFailure',
  'not-observed': 'consumers.versions.problems.notObserved',
  'crash-loop': 'consumers.versions.problems.crashLoop',
  'image-pull': 'consumers.versions.problems.imagePull',
  pending: 'consumers.versions.problems.pending',
  'not-ready': 'consumers.versions.problems.notReady',
};

/**
 * Why a rollout may not reach every pod, in words; the pods it concerns are the host's to show.
 *
 * @public
 */
export function describeRolloutProblem(
  reason: RolloutProblemReason,
  t: ConsumersT,
): string {
  const key = Object.prototype.hasOwnProperty.call(PROBLEM_KEYS, reason)
    ? PROBLEM_KEYS[reason]
    : undefined;
  // A reason from a newer core is named as it is.
  return key ? t(key) : reason;
}

/**
 * A rollout's counts as its controller reports them: "2 of 3 updated, 2 ready, 1 available", with
 * a count the controller has not reported as "?", and a status it has not written at all said so.
 *
 * @public
 */
export function describeRolloutCounts(
  rollout: RolloutState,
  t: ConsumersT,
): string {
  if (
    rollout.updated === null &&
    rollout.ready === null &&
    rollout.available === null
  ) {
    return t('consumers.versions.rollout.notReported');
  }
  const count = (value: number | null) =>
    value === null ? t('consumers.versions.rollout.unknownCount') : value;
  return t('consumers.versions.rollout.counts', {
    desired: count(rollout.desired),
    updated: count(rollout.updated),
    ready: count(rollout.ready),
    available: count(rollout.available),
  });
}

/**
 * A controller's condition as one line: "Progressing: False (ProgressDeadlineExceeded): ReplicaSet
 * api-5d has timed out progressing."
 *
 * @public
 */
export function describeCondition(
  condition: WorkloadCondition,
  t: ConsumersT,
): string {
  const head = condition.reason
    ? t('consumers.versions.condition.statusReason', {
        type: condition.type,
        status: condition.status,
        reason: condition.reason,
      })
    : t('consumers.versions.condition.status', {
        type: condition.type,
        status: condition.status,
      });
  return condition.message
    ? t('consumers.versions.condition.withMessage', {
        condition: head,
        message: condition.message,
      })
    : head;
}

const READS: readonly ContainerRead[] = [
  'env',
  'envFrom',
  'subPath',
  'volume',
  'projected',
];

/**
 * How a container reads the Secret, in the manifest's terms.
 *
 * @public
 */
export function describeContainerRead(
  read: ContainerRead,
  t: ConsumersT,
): string {
  return READS.includes(read) ? t(`consumers.versions.reads.${read}`) : read;
}

/**
 * A container's role: "container", "init container", "ephemeral container".
 *
 * @public
 */
export function describeContainerRole(
  role: ContainerVersion['role'],
  t: ConsumersT,
): string {
  return role === 'container' || role === 'init' || role === 'ephemeral'
    ? t(`consumers.versions.roles.${role}`)
    : role;
}

const UNITS: ReadonlyArray<[Intl.NumberFormatOptions['unit'], number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/**
 * The time from one moment to a later one in its largest whole unit ("2 hours", "3 days"), as
 * formatRelativeTime rounds; a negative span reads as none ("0 seconds").
 *
 * @public
 */
export function formatDuration(from: Date, to: Date, locale?: string): string {
  const seconds = Math.max(
    0,
    Math.floor((to.getTime() - from.getTime()) / 1000),
  );
  for (const [unit, size] of UNITS) {
    if (seconds >= size || unit === 'second') {
      return new Intl.NumberFormat(locale, {
        style: 'unit',
        unit,
        unitDisplay: 'long',
      }).format(Math.floor(seconds / size));
    }
  }
  return '';
}

/**
 * How long a stale group has been stale at `checkedAt`: "stale for 2 hours", or "stale for at
 * least 2 hours" for pods that hold a version older than the history tells; undefined for a group
 * that is not stale or whose start is not known.
 *
 * @public
 */
export function describeStaleFor(
  group: PodVersionGroup,
  checkedAt: string,
  t: ConsumersT,
  locale?: string,
): string | undefined {
  const since = parse(group.staleSince);
  const now = parse(checkedAt);
  if (group.status !== 'stale' || !since || !now) return undefined;
  const duration = formatDuration(since, now, locale);
  return group.holds.state === 'olderThan'
    ? t('consumers.versions.staleForAtLeast', { duration })
    : t('consumers.versions.staleFor', { duration });
}

/**
 * How the summary stands: `current` (every pod that reads the Secret holds the live version, and
 * everything could be read), `stale` (some pods hold older versions), `incomplete` (none is stale,
 * but some cannot be told, wait, have not started, or could not be read).
 *
 * @public
 */
export type VersionsSummaryState = 'current' | 'stale' | 'incomplete';

/**
 * The summary of the pods' versions in words: one line and the notes that qualify it.
 *
 * @public
 */
export interface VersionsSummaryDescription {
  state: VersionsSummaryState;
  /** "3 of 7 pods still hold version 7; the live Secret is version 9". */
  line: string;
  /** "2 pods wait for the kubelet to update their mounted volumes."... */
  notes: string[];
}

/**
 * The line people read first: "All 7 pods hold version 9, the live version", "3 of 7 pods still
 * hold version 7; the live Secret is version 9", "3 of 7 pods still hold older versions (7, 8);
 * the live Secret is version 9"; and notes for the pods that converge, cannot be told, have not
 * started or do not read the Secret, and for the workloads and kinds that could not be read. Pods
 * that do not read the Secret (imagePullSecrets only) are not counted among the pods of the line.
 *
 * @public
 */
export function describeVersionsSummary(
  result: Pick<
    ConsumerVersionsResult,
    'live' | 'summary' | 'workloads' | 'discoveryFailures'
  >,
  t: ConsumersT,
): VersionsSummaryDescription {
  const { summary: s, live } = result;
  const version = live.version;
  const readers = s.pods - s.unaffected;
  const incomplete =
    s.unreadWorkloads > 0 || result.discoveryFailures.length > 0;
  let state: VersionsSummaryState =
    s.allCurrent && version !== null ? 'current' : 'incomplete';
  let line: string;
  if (version === null) {
    line = t('consumers.versions.summary.liveUnknown');
  } else if (s.stale > 0) {
    state = 'stale';
    const counts = { count: s.stale, pods: readers, version };
    if (s.staleVersions.length === 0) {
      line = t('consumers.versions.summary.staleOlder', counts);
    } else if (s.staleVersions.length === 1 && s.olderThanHistory === 0) {
      line = t('consumers.versions.summary.staleOne', {
        ...counts,
        stale: s.staleVersions[0],
      });
    } else {
      const listed = s.staleVersions.join(', ');
      line = t('consumers.versions.summary.staleMany', {
        ...counts,
        versions:
          s.olderThanHistory > 0
            ? t('consumers.versions.summary.andOlder', { versions: listed })
            : listed,
      });
    }
  } else if (result.workloads.length === 0 && !incomplete) {
    line = t('consumers.versions.summary.noWorkloads');
  } else if (readers === 0) {
    line =
      s.unreadWorkloads > 0
        ? t('consumers.versions.summary.unread')
        : t('consumers.versions.summary.noReaders', { version });
  } else if (state === 'current') {
    line = t('consumers.versions.summary.allCurrent', {
      count: readers,
      version,
    });
  } else {
    line = t('consumers.versions.summary.current', {
      count: s.current,
      pods: readers,
      version,
    });
  }

  const notes: string[] = [];
  // Converging pods past their expected time count as current: the line already says so.
  if (s.converging > 0 && state !== 'current') {
    notes.push(
      t('consumers.versions.notes.converging', { count: s.converging }),
    );
  }
  if (s.uncertain > 0) {
    notes.push(t('consumers.versions.notes.uncertain', { count: s.uncertain }));
  }
  if (s.notStarted > 0) {
    notes.push(
      t('consumers.versions.notes.notStarted', { count: s.notStarted }),
    );
  }
  if (s.unaffected > 0) {
    notes.push(
      t('consumers.versions.notes.unaffected', { count: s.unaffected }),
    );
  }
  if (s.unreadWorkloads > 0) {
    notes.push(
      t('consumers.versions.notes.unreadWorkloads', {
        count: s.unreadWorkloads,
      }),
    );
  }
  if (result.discoveryFailures.length > 0) {
    notes.push(t('consumers.versions.notes.discoveryFailures'));
  }
  return { state, line, notes };
}

/**
 * The host's own words that place the shared ones in a stuck workload's reasons: a problem with
 * the pods it concerns, a pod list that could not be read, and a group of pods.
 *
 * @public
 */
export interface StuckReasonWords {
  problemWithPods(problem: string, pods: string): string;
  podsFailed(message: string): string;
  group(status: string, held: string, pods: string): string;
}

/**
 * What keeps a workload from being current, or nothing when it is: its problems (with their
 * pods), a pod list that could not be read, each group that is not current, and then its
 * controller's conditions, whose own words explain the problems best.
 *
 * @public
 */
export function describeStuckReasons(
  workload: ConsumerWorkloadVersions,
  checkedAt: string,
  t: ConsumersT,
  words: StuckReasonWords,
): string[] {
  const reasons = workload.problems.map(problem =>
    problem.pods?.length
      ? words.problemWithPods(
          describeRolloutProblem(problem.reason, t),
          problem.pods.join(', '),
        )
      : describeRolloutProblem(problem.reason, t),
  );
  if (workload.podsFailure)
    reasons.push(words.podsFailed(workload.podsFailure.message));
  for (const group of workload.groups) {
    if (group.status === 'current' || group.status === 'unaffected') continue;
    reasons.push(
      words.group(
        describeVersionStatus(group.status, t).label,
        describeHeldVersion(group.holds, t, { checkedAt }),
        t('consumers.versions.podCount', { count: group.pods.length }),
      ),
    );
  }
  if (reasons.length === 0) return reasons;
  return [
    ...reasons,
    ...workload.rollout.conditions.map(c => describeCondition(c, t)),
  ];
}
