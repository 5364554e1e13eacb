export { SecretValues } from './SecretValues';
export type { SecretValuesProps } from './SecretValues';
