import {
  ConsumerPod,
  ContainerRead,
  ContainerVersion,
  HeldVersion,
  PodVersionGroup,
  PodVersionStatus,
} from '../dto';
import { VOLUME_SYNC_MS } from '../limits';
import {
  VersionTimeline,
  liveSince,
  staleSince,
  versionAtStart,
} from './versionTimeline';
import { PodLike } from './types';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): Json[] =>
  Array.isArray(v) ? v.filter(isObject) : [];
const text = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : undefined;

const ROLES = [
  ['containers', 'containerStatuses', 'container'],
  ['initContainers', 'initContainerStatuses', 'init'],
  ['ephemeralContainers', 'ephemeralContainerStatuses', 'ephemeral'],
] as const;

/** The volumes of a pod spec that carry the Secret, directly or projected. */
function secretVolumes(
  spec: Json,
  secretName: string,
): Map<string, ContainerRead> {
  const volumes = new Map<string, ContainerRead>();
  for (const volume of list(spec.volumes)) {
    const name = text(volume.name);
    if (name === undefined) continue;
    if (isObject(volume.secret) && volume.secret.secretName === secretName)
      volumes.set(name, 'volume');
    else if (
      isObject(volume.projected) &&
      list(volume.projected.sources).some(
        source => isObject(source.secret) && source.secret.name === secretName,
      )
    )
      volumes.set(name, 'projected');
  }
  return volumes;
}

/**
 * How one container reads the Secret: the same references findSecretUsages looks for, and for
 * volumes, each mount of the container, a `subPath` (or `subPathExpr`) mount being a copy made at
 * its start that the kubelet never updates.
 *
 * @public
 */
export function containerReads(
  container: unknown,
  volumes: ReadonlyMap<string, ContainerRead>,
  secretName: string,
): ContainerRead[] {
  if (!isObject(container)) return [];
  const reads = new Set<ContainerRead>();
  for (const env of list(container.env)) {
    const from = env.valueFrom;
    if (
      isObject(from) &&
      isObject(from.secretKeyRef) &&
      from.secretKeyRef.name === secretName
    )
      reads.add('env');
  }
  for (const envFrom of list(container.envFrom)) {
    if (isObject(envFrom.secretRef) && envFrom.secretRef.name === secretName)
      reads.add('envFrom');
  }
  for (const mount of list(container.volumeMounts)) {
    const kind = volumes.get(text(mount.name) ?? '');
    if (kind === undefined) continue;
    const subPath = text(mount.subPath) || text(mount.subPathExpr);
    reads.add(subPath ? 'subPath' : kind);
  }
  return [...reads].sort();
}

const READS_AT_START: ReadonlySet<ContainerRead> = new Set([
  'env',
  'envFrom',
  'subPath',
]);

/** The start of a container's current instance, or of its last one while it waits. */
function lastStart(status: Json | undefined): {
  startedAt?: string;
  running: boolean;
  waitingReason?: string;
} {
  const state = isObject(status?.state) ? status!.state : {};
  const last = isObject(status?.lastState) ? status!.lastState : {};
  if (isObject(state.running))
    return { startedAt: text(state.running.startedAt), running: true };
  const waitingReason = isObject(state.waiting)
    ? text(state.waiting.reason)
    : undefined;
  // A finished container (an init container) started once; a waiting one, at its last start.
  let terminated: Json | undefined;
  if (isObject(state.terminated)) terminated = state.terminated;
  else if (isObject(last.terminated)) terminated = last.terminated;
  const out: { startedAt?: string; running: boolean; waitingReason?: string } =
    { running: false, startedAt: text(terminated?.startedAt) };
  if (waitingReason !== undefined) out.waitingReason = waitingReason;
  return out;
}

/**
 * What a container holds: a read at its start holds the version live then; a volume that follows
 * the Secret holds the live version once the kubelet has synced it, which is expected, not known.
 */
function heldBy(
  timeline: VersionTimeline,
  reads: readonly ContainerRead[],
  startedAt: string | undefined,
): HeldVersion {
  if (startedAt === undefined) return { state: 'notStarted' };
  const atStart = versionAtStart(timeline, startedAt);
  if (reads.some(read => READS_AT_START.has(read)) || timeline.live === null)
    return atStart;
  if (atStart.state === 'version' && atStart.version === timeline.live)
    return atStart;
  const since = liveSince(timeline);
  const expected: HeldVersion = { state: 'expected', version: timeline.live };
  if (since !== undefined)
    expected.by = new Date(since + VOLUME_SYNC_MS).toISOString();
  return expected;
}

/** Orders claims from the stalest: the lower, the older the version it may hold. */
function rank(holds: HeldVersion, live: number): number {
  switch (holds.state) {
    case 'olderThan':
      return holds.version - 1.5;
    case 'version':
      return holds.version;
    case 'between':
      return holds.from + 0.5;
    case 'unknown':
      return live - 0.2;
    case 'expected':
      return live - 0.1;
    default:
      return live + 1;
  }
}

/**
 * One pod as the Consumers view shows it: each container that reads the Secret with the version it
 * holds, and the pod's claim, its stalest container's. Containers that have not started are not
 * stale: they will read the live version when they start.
 *
 * @public
 */
export function podVersion(
  pod: PodLike,
  secretName: string,
  timeline: VersionTimeline,
): ConsumerPod {
  const spec = isObject(pod.spec) ? pod.spec : {};
  const status = isObject(pod.status) ? pod.status : {};
  const volumes = secretVolumes(spec, secretName);
  const containers: ContainerVersion[] = [];
  for (const [specField, statusField, role] of ROLES) {
    const statuses = new Map<string, Json>();
    for (const s of list(status[statusField])) {
      const name = text(s.name);
      if (name !== undefined) statuses.set(name, s);
    }
    for (const container of list(spec[specField])) {
      const reads = containerReads(container, volumes, secretName);
      if (reads.length === 0) continue;
      const name = text(container.name) ?? '';
      const own = statuses.get(name);
      const start = lastStart(own);
      const restarts = own?.restartCount;
      const entry: ContainerVersion = {
        name,
        role,
        reads,
        running: start.running,
        restarts:
          typeof restarts === 'number' && Number.isSafeInteger(restarts)
            ? Math.max(0, restarts)
            : 0,
        holds: heldBy(timeline, reads, start.startedAt),
      };
      if (start.startedAt !== undefined) entry.startedAt = start.startedAt;
      if (start.waitingReason !== undefined)
        entry.waitingReason = start.waitingReason;
      containers.push(entry);
    }
  }
  const conditions = list(status.conditions);
  const out: ConsumerPod = {
    name: pod.metadata.name ?? '',
    phase: text(status.phase) ?? 'Unknown',
    ready: conditions.some(c => c.type === 'Ready' && c.status === 'True'),
    deleting: pod.metadata.deletionTimestamp !== undefined,
    holds: podClaim(spec, containers, secretName, timeline.live),
    containers,
  };
  if (pod.metadata.creationTimestamp)
    out.creationTimestamp = pod.metadata.creationTimestamp;
  return out;
}

function podClaim(
  spec: Json,
  containers: readonly ContainerVersion[],
  secretName: string,
  live: number | null,
): HeldVersion {
  if (containers.length === 0) {
    const pulls = list(spec.imagePullSecrets).some(
      ref => ref.name === secretName,
    );
    return pulls ? { state: 'imagePullOnly' } : { state: 'unused' };
  }
  const started = containers.filter(c => c.holds.state !== 'notStarted');
  if (started.length === 0) return { state: 'notStarted' };
  if (live === null) return { state: 'unknown' };
  return started.reduce((worst, c) =>
    rank(c.holds, live) < rank(worst.holds, live) ? c : worst,
  ).holds;
}

/**
 * Where a claim stands against the live version.
 *
 * @public
 */
export function heldStatus(
  holds: HeldVersion,
  live: number | null,
): PodVersionStatus {
  switch (holds.state) {
    case 'version':
      return holds.version === live ? 'current' : 'stale';
    case 'between':
      return holds.to === live ? 'uncertain' : 'stale';
    case 'olderThan':
      return 'stale';
    case 'expected':
      return 'converging';
    case 'notStarted':
      return 'notStarted';
    case 'unknown':
      return 'uncertain';
    default:
      return 'unaffected';
  }
}

const STATUS_ORDER: PodVersionStatus[] = [
  'stale',
  'uncertain',
  'converging',
  'notStarted',
  'current',
  'unaffected',
];

const claimKey = (holds: HeldVersion) => JSON.stringify(holds);

/**
 * Pods grouped by the claim they make, stale groups first and the stalest of them first.
 *
 * @public
 */
export function groupPods(
  pods: readonly ConsumerPod[],
  timeline: VersionTimeline,
): PodVersionGroup[] {
  const groups = new Map<string, PodVersionGroup>();
  for (const pod of pods) {
    const key = claimKey(pod.holds);
    let group = groups.get(key);
    if (!group) {
      group = {
        holds: pod.holds,
        status: heldStatus(pod.holds, timeline.live),
        pods: [],
      };
      const since = staleSince(timeline, pod.holds);
      if (since !== undefined) group.staleSince = new Date(since).toISOString();
      groups.set(key, group);
    }
    group.pods.push(pod.name);
  }
  const live = timeline.live ?? 0;
  return [...groups.values()]
    .map(group => ({ ...group, pods: group.pods.sort() }))
    .sort(
      (a, b) =>
        STATUS_ORDER.indexOf(a.status) - STATUS_ORDER.indexOf(b.status) ||
        rank(a.holds, live) - rank(b.holds, live),
    );
}
