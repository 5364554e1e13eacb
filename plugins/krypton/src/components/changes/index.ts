export { ApprovalNotice } from './ApprovalNotice';
export { ChangeReasonInput } from './ChangeReasonInput';
export { ChangesTab } from './ChangesTab';
export { WaitingRequests } from './WaitingRequests';
export {
  ChangeRequestedProvider,
  requestOf,
  useChangeRequested,
} from './changeRequested';
export type { OnChangeRequested } from './changeRequested';
export { useChangeReason } from './useChangeReason';
export type { ChangeReasonState } from './useChangeReason';
