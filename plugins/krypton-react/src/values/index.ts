export { ValuesHostProvider } from './host';
export type {
  ActionButtonProps,
  CertificateStatusProps,
  HostTextProps,
  ModePickerProps,
  TableParts,
  TextKind,
  ValueAction,
  ValuesClasses,
  ValuesHost,
} from './host';
export { keyEntries, valueEntries } from './entries';
export type { KeyFacts, ValueEntry, ValueKind } from './entries';
export type { PreviewFormat, PreviewMode } from './formats';
export type { ExpiryStatus } from './host';
export { previewMessages, valuesMessages } from './messages';
export { englishValuesT, valueViewMessages } from './texts';
export type { ValuesT, ValuesTextKey, ValuesTextParams } from './texts';
export { VISUALLY_HIDDEN, valuesStyles } from './styles';
export type { StyleRules, ValuesTheme } from './styles';
export { ValuesTable } from './ValuesTable';
export type { ValuesTableProps } from './ValuesTable';
