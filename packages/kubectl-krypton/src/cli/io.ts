import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** The process's terminal and environment, passed in so that tests run the CLI in-process. */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  stdin: NodeJS.ReadableStream;
  stdinIsTerminal: boolean;
  stdoutIsTerminal: boolean;
  env: NodeJS.ProcessEnv;
  /** Runs the user's editor on a file; resolves with its exit code. */
  edit(path: string): Promise<number>;
}

/** The real process's. */
export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    stdinIsTerminal: process.stdin.isTTY === true,
    stdoutIsTerminal: process.stdout.isTTY === true,
    env: process.env,
    edit: path => runEditor(path, process.env),
  };
}

/**
 * kubectl edit's editor: KUBE_EDITOR, then EDITOR, then vi, run through the shell so that an
 * editor with flags ("code --wait") works; the file's path is passed as an argument, never
 * spliced into the command.
 */
export function runEditor(
  path: string,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const editor = env.KUBE_EDITOR || env.EDITOR || 'vi';
  return new Promise(resolve => {
    const child = spawn('sh', ['-c', `${editor} "$1"`, 'sh', path], {
      stdio: 'inherit',
      env,
    });
    child.on('error', () => resolve(127));
    child.on('close', code => resolve(code ?? 1));
  });
}

/** Asks a yes/no question on the terminal; anything but y or yes is no. */
export async function confirm(io: CliIo, question: string): Promise<boolean> {
  io.stderr.write(`${question} [y/N] `);
  const lines = createInterface({ input: io.stdin, terminal: false });
  try {
    for await (const line of lines) {
      return /^(y|yes)$/i.test(line.trim());
    }
    return false;
  } finally {
    lines.close();
  }
}
