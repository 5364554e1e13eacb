import { validateNamespace, validateSecretName } from '@krypton/core';
import { FlagName, ParsedFlags } from '../cli/args';
import { ExitCode } from '../cli/exitCodes';
import { CliIo } from '../cli/io';
import { Session } from '../session';

/** What a command gets: its arguments and flags, the terminal, and the session it opens. */
export interface CommandContext {
  io: CliIo;
  flags: ParsedFlags;
  args: string[];
  /** Opens the connection and the engines on first use; commands that need none never do. */
  session(): Session;
  now(): number;
}

export interface Command {
  name: string;
  /** The arguments, as the help shows them: NAME [A [B]]. */
  usage: string;
  summary: string;
  /** Its own flags, beside the global ones. */
  flags: readonly FlagName[];
  /** How many positional arguments it takes, at least and at most. */
  args: readonly [number, number];
  run(context: CommandContext): Promise<ExitCode>;
}

/** A Secret's name and the session's namespace, both checked before any request. */
export function secretTarget(context: CommandContext): {
  session: Session;
  namespace: string;
  name: string;
} {
  const name = validateSecretName(context.args[0]);
  const session = context.session();
  return {
    session,
    namespace: validateNamespace(session.target.namespace),
    name,
  };
}

export function write(context: CommandContext, text: string): void {
  context.io.stdout.write(text);
}

export function note(context: CommandContext, text: string): void {
  context.io.stderr.write(`${text}\n`);
}
