export {
  measure,
  formatTable,
  toRow,
  median,
  formatColumns,
  mib,
  withMemorySampling,
  collectGarbage,
  sampleMemory,
} from './measure';
export type { Sample, Row, MemoryPeak } from './measure';
export { send, sendJson, bounded, runProgram, kubectl } from './clients';
