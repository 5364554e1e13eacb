export { versionMessages, workloadMessages } from './messages';
export {
  consumerViewMessages,
  describeUsage,
  englishConsumersT,
  workloadFlags,
} from './describe';
export type {
  ConsumersT,
  ConsumersTextKey,
  ConsumersTextParams,
  WorkloadFlag,
} from './describe';
export {
  describeCondition,
  describeContainerRead,
  describeContainerRole,
  describeHeldVersion,
  describeRolloutCounts,
  describeRolloutProblem,
  describeStaleFor,
  describeStuckReasons,
  describeVersionStatus,
  describeVersionsSummary,
  formatClockTime,
  formatDuration,
  isOverdue,
} from './versions';
export type {
  StuckReasonWords,
  VersionStatusDescription,
  VersionTimeOptions,
  VersionsSummaryDescription,
  VersionsSummaryState,
} from './versions';
export {
  FOLLOW_INTERVAL_MS,
  FOLLOW_LIMIT_MS,
  useFollowedVersions,
} from './useFollowedVersions';
export type { FollowState, FollowedVersions } from './useFollowedVersions';
