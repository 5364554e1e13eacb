export { run } from './main';
export type { CliIo } from './cli/io';
export { EXIT } from './cli/exitCodes';
export type { ExitCode } from './cli/exitCodes';
export { runCaptured } from './runCaptured';
export type { CapturedRun, CaptureOptions } from './runCaptured';
