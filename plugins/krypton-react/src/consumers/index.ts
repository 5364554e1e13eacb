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
  describeVersionStatus,
  describeVersionsSummary,
  formatClockTime,
  formatDuration,
  isOverdue,
} from './versions';
export type {
  VersionStatusDescription,
  VersionTimeOptions,
  VersionsSummaryDescription,
  VersionsSummaryState,
} from './versions';
