import { PassThrough } from 'node:stream';
import { CliIo } from './cli/io';
import { run } from './main';

/** What one in-memory run printed, and its exit code. */
export interface CapturedRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The terminal and environment of an in-memory run. */
export interface CaptureOptions {
  /** Lines typed at the terminal; stdin is a terminal when given, and empty otherwise. */
  typed?: string;
  /** The whole environment; only PATH is inherited when absent. */
  env?: NodeJS.ProcessEnv;
  /** Stands in for the user's editor: changes the file, answers the editor's exit code. */
  edit?: (path: string) => Promise<number>;
  stdoutIsTerminal?: boolean;
}

/**
 * Runs kubectl krypton in this process with its output captured: for programs that embed it and
 * for tests, which then need no built bundle.
 */
export async function runCaptured(
  argv: string[],
  options: CaptureOptions = {},
): Promise<CapturedRun> {
  let stdout = '';
  let stderr = '';
  const stdin = new PassThrough();
  stdin.end(options.typed);
  const io: CliIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    stdin,
    stdinIsTerminal: options.typed !== undefined,
    stdoutIsTerminal: options.stdoutIsTerminal ?? false,
    env: options.env ?? { PATH: process.env.PATH },
    edit: options.edit ?? (async () => 1),
  };
  const code = await run(argv, io);
  return { code, stdout, stderr };
}
