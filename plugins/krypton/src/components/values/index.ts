export { SecretValues } from './SecretValues';
export type { SecretValuesProps } from './SecretValues';
export { ValuePreview } from './ValuePreview';
export type { ValuePreviewProps } from './ValuePreview';
export type { PreviewFormat, PreviewMode } from './formats';
