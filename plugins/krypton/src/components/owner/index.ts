export { CommandLine } from './CommandLine';
export { OwnedEditReasonField } from './OwnedEditReasonField';
export { OwnershipBanner } from './OwnershipBanner';
export type { OwnershipBannerProps } from './OwnershipBanner';
export { OwnerChip } from './OwnerChip';
export { useOwnedEditReason } from './useOwnedEditReason';
export type { OwnedEditReasonState } from './useOwnedEditReason';
