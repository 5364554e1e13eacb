export { HistoryTab } from './HistoryTab';
export type { HistoryTabProps } from './HistoryTab';
