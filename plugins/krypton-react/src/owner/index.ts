export { ownedSecretMessages } from './messages';
export {
  describeOwnership,
  describeReasonProblem,
  englishOwnerT,
  ownedEditRefusal,
  ownedEditsOf,
  ownerToolName,
  ownerViewMessages,
  ownershipLasts,
} from './describe';
export type {
  OwnerT,
  OwnerTextKey,
  OwnershipDescription,
  OwnershipFacts,
  OwnershipInstead,
} from './describe';
export {
  describeOwnerSyncRefusal,
  describeOwnerSyncResult,
  ownerSyncTargetName,
} from './sync';
export { useOwnerSyncRequest } from './useOwnerSyncRequest';
export type { OwnerSyncRequestState } from './useOwnerSyncRequest';
