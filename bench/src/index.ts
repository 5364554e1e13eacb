export { measure, formatTable, toRow } from './measure';
export type { Sample, Row } from './measure';
