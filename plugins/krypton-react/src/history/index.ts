export {
  describeOutsideChange,
  englishHistoryT,
  historyViewMessages,
  outsideChangeMessages,
} from './describeChange';
export type { HistoryT, HistoryTextKey } from './describeChange';
