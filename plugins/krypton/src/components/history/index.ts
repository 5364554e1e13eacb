export { HistoryTab } from './HistoryTab';
export type { HistoryTabProps } from './HistoryTab';
export { keyDiff } from './keyDiff';
export type {
  DiffKind,
  DiffSide,
  DiffValues,
  KeyChange,
  KeyDiff,
  KeyDiffEntry,
} from './keyDiff';
