import { HeldVersion } from '../dto';
import { CHANGE_PROPAGATION_MS, START_SLACK_MS } from '../limits';

/**
 * When each version of a Secret was live, as far as its history can tell. Version v was live from
 * the snapshot-at of version v-1 (the moment it was replaced) to its own snapshot-at; version 1
 * from the Secret's creation; the live version until now.
 *
 * @public
 */
export interface VersionTimeline {
  /** The live version; null when its counter is unreadable, and then nothing can be told. */
  live: number | null;
  /**
   * The oldest version whose end is known, from which the versions up to the live one form an
   * unbroken chain. Versions before it are pruned, or were never recorded.
   */
  oldest: number;
  /** Milliseconds since the epoch at which each version from `oldest` began; absent when unknown. */
  starts: ReadonlyMap<number, number>;
  /** At which each version from `oldest` up to the one before the live was replaced. */
  ends: ReadonlyMap<number, number>;
}

const parseTime = (value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
};

/**
 * The timeline of a live Secret from its version counter, its creation and its history records.
 * A record that would break the order of time (a version replaced before the one before it) ends
 * the chain there: what lies before it is treated as unknown, never trusted.
 *
 * @public
 */
export function versionTimeline(input: {
  live: number | null;
  creationTimestamp?: string;
  records: ReadonlyArray<{ version: number; snapshotAt: string }>;
}): VersionTimeline {
  const live = input.live;
  const starts = new Map<number, number>();
  const ends = new Map<number, number>();
  if (live === null) return { live, oldest: 1, starts, ends };
  const replacedAt = new Map<number, number>();
  for (const record of input.records) {
    const at = parseTime(record.snapshotAt);
    if (at === undefined || record.version >= live || record.version < 1)
      continue;
    // The first snapshot of a state is the moment it was replaced.
    const known = replacedAt.get(record.version);
    if (known === undefined || at < known) replacedAt.set(record.version, at);
  }
  let oldest = live;
  let bound = Infinity;
  while (oldest > 1) {
    const end = replacedAt.get(oldest - 1);
    if (end === undefined || end > bound) break;
    ends.set(oldest - 1, end);
    starts.set(oldest, end);
    bound = end;
    oldest--;
  }
  const created = parseTime(input.creationTimestamp);
  // Version 1 began when the Secret was created; other versions' starts are their predecessors'
  // ends, and before the chain nothing is known.
  if (oldest === 1 && created !== undefined && created <= bound)
    starts.set(1, created);
  return { live, oldest, starts, ends };
}

/**
 * When the live version began; undefined when the history cannot tell.
 *
 * @public
 */
export function liveSince(timeline: VersionTimeline): number | undefined {
  return timeline.live === null
    ? undefined
    : timeline.starts.get(timeline.live);
}

/**
 * The version a container read when it started at `startedAt` (the kubelet's report, to the
 * second). A start within seconds of a change could have read either side, so it gets the range;
 * a start before the oldest version whose start is known gets "older than", never a guess.
 *
 * @public
 */
export function versionAtStart(
  timeline: VersionTimeline,
  startedAt: string | undefined,
): HeldVersion {
  const { live, oldest, starts, ends } = timeline;
  const t = parseTime(startedAt);
  if (live === null || t === undefined) return { state: 'unknown' };
  // The newest version it could have read: the last that began before the start, allowing for
  // the start being reported to the second.
  let newest: number | undefined;
  for (let v = live; v >= oldest; v--) {
    const start = starts.get(v);
    if (start === undefined || t + START_SLACK_MS > start) {
      newest = v;
      break;
    }
  }
  // It started before the Secret existed (clocks apart, or an optional reference).
  if (newest === undefined) return { state: 'unknown' };
  let first = newest;
  for (let v = oldest; v <= newest; v++) {
    const end = v === live ? Infinity : ends.get(v)!;
    if (t < end + CHANGE_PROPAGATION_MS) {
      first = v;
      break;
    }
  }
  if (first === oldest && !starts.has(oldest)) {
    // Any version before the chain could be the one: only the bound is known.
    return newest === live
      ? { state: 'unknown' }
      : { state: 'olderThan', version: newest + 1 };
  }
  return first === newest
    ? { state: 'version', version: first }
    : { state: 'between', from: first, to: newest };
}

/**
 * Since when a claim has been stale: the moment the newest version it may hold was replaced;
 * undefined for a claim that holds (or may hold) the live version.
 *
 * @public
 */
export function staleSince(
  timeline: VersionTimeline,
  holds: HeldVersion,
): number | undefined {
  const { live, ends } = timeline;
  if (live === null) return undefined;
  switch (holds.state) {
    case 'version':
      return holds.version < live ? ends.get(holds.version) : undefined;
    case 'between':
      return holds.to < live ? ends.get(holds.to) : undefined;
    case 'olderThan':
      return ends.get(holds.version - 1);
    default:
      return undefined;
  }
}
