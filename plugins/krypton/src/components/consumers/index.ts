export { ConsumersTab } from './ConsumersTab';
export type { ConsumersTabProps } from './ConsumersTab';
