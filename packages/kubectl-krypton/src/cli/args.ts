import { parseArgs } from 'node:util';
import { CliError } from './errors';

/** Every flag the CLI knows; each command accepts the global ones and its own. */
export const FLAGS = {
  kubeconfig: { type: 'string' },
  context: { type: 'string' },
  cluster: { type: 'string' },
  user: { type: 'string' },
  namespace: { type: 'string', short: 'n' },
  'request-timeout': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  output: { type: 'string', short: 'o' },
  reveal: { type: 'boolean' },
  yes: { type: 'boolean', short: 'y' },
  description: { type: 'string' },
} as const;

export type FlagName = keyof typeof FLAGS;

/** The flags every command takes: kubectl's own connection flags. */
export const GLOBAL_FLAGS: readonly FlagName[] = [
  'kubeconfig',
  'context',
  'cluster',
  'user',
  'namespace',
  'request-timeout',
  'help',
];

export interface ParsedFlags {
  kubeconfig?: string;
  context?: string;
  cluster?: string;
  user?: string;
  namespace?: string;
  'request-timeout'?: string;
  help?: boolean;
  output?: string;
  reveal?: boolean;
  yes?: boolean;
  description?: string;
}

export interface ParsedArgs {
  command?: string;
  positionals: string[];
  flags: ParsedFlags;
  /** The flags as given, to refuse one that the command does not take. */
  given: FlagName[];
}

/** No argument of a command is longer: names are at most 253 characters, values come from files. */
const MAX_ARG_LENGTH = 4096;

export function parseCommandLine(argv: readonly string[]): ParsedArgs {
  for (const arg of argv) {
    if (arg.length > MAX_ARG_LENGTH)
      throw new CliError(
        'usage',
        'An argument is longer than 4,096 characters.',
      );
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: FLAGS,
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
  } catch (err) {
    const code = (err as { code?: string }).code;
    // Node's messages name the flag and say what is wrong, without any value of the user's.
    const detail =
      code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ||
      code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE'
        ? (err as Error).message.split('\n')[0]
        : 'The command line could not be read.';
    throw new CliError(
      'usage',
      `${detail} Run kubectl krypton --help for the flags.`,
    );
  }
  const given = new Set<FlagName>();
  for (const token of parsed.tokens ?? []) {
    if (token.kind === 'option') given.add(token.name as FlagName);
  }
  const [command, ...positionals] = parsed.positionals;
  return {
    command,
    positionals,
    flags: parsed.values as ParsedFlags,
    given: [...given],
  };
}

/** kubectl's --request-timeout: a number of seconds, or a duration such as 30s, 1m or 500ms. */
export function parseTimeout(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '0') return undefined;
  const match = /^([0-9]{1,6})(ms|s|m|h)?$/.exec(raw);
  if (!match)
    throw new CliError(
      'usage',
      '--request-timeout must be a duration such as 30s, 2m or 500ms.',
    );
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] ?? 's']!;
  const ms = Number(match[1]) * unit;
  if (ms === 0) return undefined;
  return ms;
}

export type OutputFormat = 'table' | 'json' | 'yaml';

export function outputFormat(raw: string | undefined): OutputFormat {
  if (raw === undefined) return 'table';
  if (raw === 'json' || raw === 'yaml') return raw;
  throw new CliError('usage', '-o must be json or yaml.');
}
