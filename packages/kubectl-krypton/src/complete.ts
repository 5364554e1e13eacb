import { FLAGS, GLOBAL_FLAGS } from './cli/args';
import { CliIo } from './cli/io';
import { COMMANDS, commandNamed } from './commands';
import { openSession } from './session';

/** cobra's directive: no file names as a fallback. */
const NO_FILE_COMPLETION = 4;

/** A list of names is read within this; a slow cluster gives no names rather than a stuck shell. */
const NAME_DEADLINE_MS = 3000;

/** The flags that take the next word as their value, long and short. */
const VALUE_FLAGS: ReadonlySet<string> = new Set(
  Object.entries(FLAGS).flatMap(([name, spec]) => {
    const { type, short } = spec as { type: string; short?: string };
    if (type !== 'string') return [];
    return short ? [`--${name}`, `-${short}`] : [`--${name}`];
  }),
);

function flagsOf(commandName: string | undefined): string[] {
  const command = commandName ? commandNamed(commandName) : undefined;
  return [...GLOBAL_FLAGS, ...(command?.flags ?? [])].map(name => `--${name}`);
}

/** The value a flag was given earlier on the line, for names in the right namespace. */
function flagValue(
  words: string[],
  name: keyof typeof FLAGS,
): string | undefined {
  const short = (FLAGS[name] as { short?: string }).short;
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word === `--${name}` || (short && word === `-${short}`))
      return words[i + 1];
    if (word.startsWith(`--${name}=`)) return word.slice(name.length + 3);
  }
  return undefined;
}

/**
 * Candidates for the last word of a command line, one per line and then cobra's `:directive`
 * line, as kubectl expects of a plugin's `kubectl_complete-<plugin>` (kubectl 1.26 and newer) and
 * as the bash and zsh scripts read them. Secret names are listed with the user's credentials;
 * any failure completes nothing.
 */
export async function complete(words: string[], io: CliIo): Promise<void> {
  const current = words[words.length - 1] ?? '';
  const before = words.slice(0, -1);
  const positionals = before.filter(
    (word, i) =>
      !word.startsWith('-') && !(i > 0 && VALUE_FLAGS.has(before[i - 1])),
  );
  let candidates: string[] = [];
  if (current.startsWith('-')) candidates = flagsOf(positionals[0]);
  else if (positionals.length === 0)
    candidates = COMMANDS.map(c => c.name).filter(n => n !== 'completion');
  else if (positionals.length === 1 && positionals[0] === 'completion')
    candidates = ['bash', 'zsh'];
  else if (
    positionals.length === 1 &&
    commandNamed(positionals[0])?.usage.startsWith('NAME')
  ) {
    try {
      const session = openSession(
        {
          kubeconfig: flagValue(before, 'kubeconfig'),
          context: flagValue(before, 'context'),
          namespace: flagValue(before, 'namespace'),
          'request-timeout': `${NAME_DEADLINE_MS}ms`,
        },
        { ...io, stdinIsTerminal: false },
      );
      try {
        const items = await session.krypton.live.listItems(
          session.target.namespace,
          () => true,
          { adoptable: positionals[0] === 'adopt' },
        );
        candidates = items.map(item => item.name);
      } finally {
        session.transport.close();
      }
    } catch {
      candidates = [];
    }
  }
  const shown = candidates.filter(c => c.startsWith(current));
  io.stdout.write(`${[...shown, `:${NO_FILE_COMPLETION}`].join('\n')}\n`);
}
