export { workloadMessages } from './messages';
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
