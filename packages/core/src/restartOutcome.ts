import {
  ConsumerWorkload,
  RestartFailure,
  RestartStatus,
  WorkloadRef,
} from './dto';

/**
 * How loudly each restart status is shown. Even "requested" is not a success colour: only the
 * pod-template patches were acknowledged, and the rollouts themselves may still fail.
 *
 * @public
 */
export const RESTART_STATUS_SEVERITY: Record<
  RestartStatus,
  'info' | 'warning' | 'error'
> = {
  requested: 'info',
  no_targets: 'info',
  partial: 'warning',
  failed: 'error',
};

/**
 * Whether a pod-template patch leaves the workload's pods as they are until someone acts: a paused
 * Deployment, or an OnDelete update strategy. Both hosts warn about these before a restart.
 *
 * @public
 */
export const awaitsManualRollout = (
  workload: Pick<ConsumerWorkload, 'paused' | 'onDelete'>,
): boolean => workload.paused || workload.onDelete;

/**
 * A workload as the result contract names it: `Kind/name`.
 *
 * @public
 */
export const workloadLabel = (ref: WorkloadRef): string =>
  `${ref.kind}/${ref.name}`;

/**
 * What happened to one matched workload of a restart: its patch was acknowledged (`requested`);
 * it was never patched because its listed identity was incomplete (`skipped`: the contract's
 * `incomplete_list`, never patched by name alone); RBAC refused the patch (`forbidden`); or the
 * patch failed otherwise, possibly after reaching the API server (`failed`).
 *
 * @public
 */
export type RestartOutcome = 'requested' | 'skipped' | 'forbidden' | 'failed';

/** @public */
export function restartOutcomeOf(
  failure?: Pick<RestartFailure, 'code'>,
): RestartOutcome {
  if (!failure) return 'requested';
  if (failure.code === 'incomplete_list') return 'skipped';
  if (failure.code === 'forbidden') return 'forbidden';
  return 'failed';
}
