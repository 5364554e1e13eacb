import {
  ConsumerPod,
  RolloutProblem,
  RolloutProblemReason,
  RolloutState,
  WorkloadCondition,
  WorkloadKind,
} from '../dto';
import { CONDITION_MESSAGE_MAX } from '../limits';
import { Workload } from './types';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const count = (v: unknown): number | null =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : null;
const text = (v: unknown, max = 256): string | undefined =>
  typeof v === 'string' ? v.slice(0, max) : undefined;

/** A controller keeps a handful of conditions; more is not a controller's status. */
const MAX_CONDITIONS = 16;

/**
 * A workload's rollout as its controller reports it: Deployments and StatefulSets count replicas
 * against spec.replicas (1 when unset), DaemonSets count scheduled nodes.
 *
 * @public
 */
export function rolloutState(
  kind: WorkloadKind,
  workload: Workload,
): RolloutState {
  const spec = isObject(workload.spec) ? workload.spec : {};
  const status = isObject(workload.status) ? workload.status : {};
  const conditions: WorkloadCondition[] = [];
  for (const raw of Array.isArray(status.conditions)
    ? status.conditions.slice(0, MAX_CONDITIONS)
    : []) {
    if (!isObject(raw)) continue;
    const type = text(raw.type);
    const state = text(raw.status);
    if (type === undefined || state === undefined) continue;
    const condition: WorkloadCondition = { type, status: state };
    const reason = text(raw.reason);
    const message = text(raw.message, CONDITION_MESSAGE_MAX);
    const at = text(raw.lastTransitionTime, 64);
    if (reason) condition.reason = reason;
    if (message) condition.message = message;
    if (at) condition.lastTransitionTime = at;
    conditions.push(condition);
  }
  const generation = workload.metadata.generation;
  const observedGeneration = count(status.observedGeneration);
  const observed =
    observedGeneration !== null &&
    (typeof generation !== 'number' || observedGeneration >= generation);
  if (kind === 'DaemonSet') {
    return {
      desired: count(status.desiredNumberScheduled),
      updated: count(status.updatedNumberScheduled),
      ready: count(status.numberReady),
      available: count(status.numberAvailable),
      observed,
      conditions,
    };
  }
  return {
    desired: spec.replicas === undefined ? 1 : count(spec.replicas),
    updated: count(status.updatedReplicas),
    ready: count(status.readyReplicas),
    available: count(status.availableReplicas),
    observed,
    conditions,
  };
}

const PULL_FAILURES = new Set([
  'ErrImagePull',
  'ImagePullBackOff',
  'InvalidImageName',
]);

/** Why a pod holds its rollout back, if it does. */
function podProblem(pod: ConsumerPod): RolloutProblemReason | undefined {
  if (pod.deleting) return undefined;
  const reasons = pod.containers.map(c => c.waitingReason);
  if (reasons.includes('CrashLoopBackOff')) return 'crash-loop';
  if (reasons.some(r => r !== undefined && PULL_FAILURES.has(r)))
    return 'image-pull';
  if (pod.phase === 'Pending') return 'pending';
  if (pod.phase === 'Running' && !pod.ready) return 'not-ready';
  return undefined;
}

const condition = (rollout: RolloutState, type: string) =>
  rollout.conditions.find(c => c.type === type);

/**
 * What may keep a rollout from reaching every pod: the workload's settings and conditions, and its
 * pods that crash, cannot pull, wait to be scheduled or are not ready.
 *
 * @public
 */
export function rolloutProblems(
  kind: WorkloadKind,
  workload: Workload,
  rollout: RolloutState,
  pods: readonly ConsumerPod[],
): RolloutProblem[] {
  const spec = isObject(workload.spec) ? workload.spec : {};
  const problems: RolloutProblem[] = [];
  if (kind === 'Deployment' && spec.paused === true)
    problems.push({ reason: 'paused' });
  const strategy = isObject(spec.updateStrategy) ? spec.updateStrategy : {};
  if (kind !== 'Deployment' && strategy.type === 'OnDelete')
    problems.push({ reason: 'on-delete' });
  if (!rollout.observed) problems.push({ reason: 'not-observed' });
  const progressing = condition(rollout, 'Progressing');
  if (
    progressing?.status === 'False' &&
    progressing.reason === 'ProgressDeadlineExceeded'
  )
    problems.push({ reason: 'progress-deadline' });
  if (condition(rollout, 'ReplicaFailure')?.status === 'True')
    problems.push({ reason: 'replica-failure' });
  const byReason = new Map<RolloutProblemReason, string[]>();
  for (const pod of pods) {
    const reason = podProblem(pod);
    if (reason === undefined) continue;
    const names = byReason.get(reason);
    if (names) names.push(pod.name);
    else byReason.set(reason, [pod.name]);
  }
  for (const reason of [
    'crash-loop',
    'image-pull',
    'pending',
    'not-ready',
  ] as const) {
    const names = byReason.get(reason);
    if (names) problems.push({ reason, pods: names.sort() });
  }
  return problems;
}
