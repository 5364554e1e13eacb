import { FLAGS, FlagName, GLOBAL_FLAGS, parseCommandLine } from './cli/args';
import { CliError, describeFailure } from './cli/errors';
import { EXIT, ExitCode } from './cli/exitCodes';
import { CliIo } from './cli/io';
import { COMMANDS, commandNamed } from './commands';
import { Command } from './commands/command';
import { complete } from './complete';
import { Session, openSession } from './session';
import { VERSION } from './version';

const FLAG_HELP: Record<FlagName, string> = {
  kubeconfig:
    'Path to the kubeconfig file (as kubectl: else KUBECONFIG, else ~/.kube/config)',
  context: 'The kubeconfig context to use',
  cluster: 'The kubeconfig cluster to use',
  user: 'The kubeconfig user to use',
  namespace: "The namespace (else the context's, else default)",
  'request-timeout':
    'How long each request may take, such as 30s (default 30s)',
  help: 'Help for the command',
  output: 'json or yaml, for scripts',
  reveal: 'Show values (text only; binary values are never shown)',
  yes: 'Do not ask for confirmation',
  description: "The Secret's description in Krypton",
};

function flagLine(name: FlagName): string {
  const spec = FLAGS[name] as { type: string; short?: string };
  const flag = `${spec.short ? `-${spec.short}, ` : '    '}--${name}${
    spec.type === 'string' ? ' VALUE' : ''
  }`;
  return `  ${flag.padEnd(32)}${FLAG_HELP[name]}`;
}

function mainHelp(): string {
  const width = Math.max(...COMMANDS.map(c => c.name.length)) + 3;
  return [
    "kubectl krypton: Krypton's Secret history from the terminal, with your kubeconfig and your RBAC.",
    '',
    'Usage: kubectl krypton COMMAND [flags]',
    '',
    'Commands:',
    ...COMMANDS.map(c => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'Flags of every command:',
    ...GLOBAL_FLAGS.map(flagLine),
    '',
    "Krypton's access rules are advisory here: your Kubernetes RBAC is the only gate.",
    "Each command: kubectl krypton COMMAND --help. Exit codes: docs/cli.md in Krypton's repository.",
    '',
  ].join('\n');
}

function commandHelp(command: Command): string {
  return [
    `${command.summary}.`,
    '',
    `Usage: kubectl krypton ${command.name}${
      command.usage ? ` ${command.usage}` : ''
    } [flags]`,
    '',
    ...(command.flags.length > 0
      ? ['Flags:', ...command.flags.map(flagLine), '']
      : []),
    'Flags of every command:',
    ...GLOBAL_FLAGS.map(flagLine),
    '',
  ].join('\n');
}

/**
 * Runs one command line and answers its exit code. Every failure is one line on stderr, never a
 * stack trace and never a value.
 */
export async function run(
  argv: readonly string[],
  io: CliIo,
): Promise<ExitCode> {
  let session: Session | undefined;
  let name: string | undefined;
  try {
    if (argv[0] === '__complete') {
      await complete(argv.slice(1), io);
      return EXIT.ok;
    }
    const parsed = parseCommandLine(argv);
    if (parsed.command === undefined || parsed.command === 'help') {
      io.stdout.write(mainHelp());
      return parsed.command === undefined && !parsed.flags.help
        ? EXIT.usage
        : EXIT.ok;
    }
    if (parsed.command === 'version') {
      io.stdout.write(`kubectl-krypton ${VERSION}\n`);
      return EXIT.ok;
    }
    const command = commandNamed(parsed.command);
    if (!command)
      throw new CliError(
        'usage',
        `Unknown command "${parsed.command.slice(
          0,
          40,
        )}". Run kubectl krypton --help for the commands.`,
      );
    if (parsed.flags.help) {
      io.stdout.write(commandHelp(command));
      return EXIT.ok;
    }
    for (const flag of parsed.given) {
      if (!GLOBAL_FLAGS.includes(flag) && !command.flags.includes(flag))
        throw new CliError(
          'usage',
          `${command.name} takes no --${flag}. Run kubectl krypton ${command.name} --help.`,
        );
    }
    const [min, max] = command.args;
    if (parsed.positionals.length < min || parsed.positionals.length > max)
      throw new CliError(
        'usage',
        `${`Usage: kubectl krypton ${command.name} ${command.usage}`.trimEnd()}.`,
      );
    name = parsed.positionals[0];
    return await command.run({
      io,
      flags: parsed.flags,
      args: parsed.positionals,
      session: () => (session ??= openSession(parsed.flags, io)),
      now: () => Date.now(),
    });
  } catch (err) {
    const failure =
      session?.transport.credentialFailure ??
      describeFailure(
        err,
        session?.context(name) ?? { namespace: 'default', name },
      );
    io.stderr.write(`error: ${failure.message}\n`);
    return failure.exit;
  } finally {
    session?.transport.close();
  }
}
