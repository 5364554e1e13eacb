export { SecretForm } from './SecretForm';
export { DiscardDraftDialog, useBeforeUnload } from './DiscardDraftDialog';
export type { SecretFormProps, SecretFormScope } from './SecretForm';
export { useDraft } from './useDraft';
export type { PinnedDraft } from './useDraft';
export { SizeMeter, formatSize } from './SizeMeter';
export type { SizeMeterProps } from './SizeMeter';
export { parseBulk, planBulk } from './bulkParse';
export type {
  BulkIssue,
  BulkMode,
  BulkParseResult,
  BulkPlan,
} from './bulkParse';
export type { Draft, TextRow } from './draft';
