import { RestartStatus } from '@krypton/core';
import { outputFormat } from '../cli/args';
import { EXIT, ExitCode } from '../cli/exitCodes';
import { structured } from '../output/structured';
import { printable } from '../output/table';
import { Command, secretTarget, write } from './command';
import { discoveryLines } from './consumers';

/** The spec's four outcomes, each its own exit code, so that scripts need not read the output. */
const EXIT_OF: Record<RestartStatus, ExitCode> = {
  requested: EXIT.ok,
  no_targets: EXIT.restartNoTargets,
  partial: EXIT.restartPartial,
  failed: EXIT.failed,
};

export const restart: Command = {
  name: 'restart',
  usage: 'NAME',
  summary:
    "Request a rollout of every Deployment, StatefulSet and DaemonSet that uses a Secret (restart-consumers); the exit code is the result's status",
  flags: ['output'],
  args: [1, 1],
  async run(context) {
    const format = outputFormat(context.flags.output);
    const { session, namespace, name } = secretTarget(context);
    const { krypton, gate } = session;
    // The same gates as updating the Secret, on the live object, before any workload is touched.
    await krypton.live.gateRestart(namespace, name, gate);
    const result = await krypton.restart.restart(namespace, name);
    if (format !== 'table') {
      write(context, structured(format, result));
      return EXIT_OF[result.status];
    }
    const lines = [`${result.status}: ${result.message}`];
    for (const w of result.requested)
      lines.push(`  requested  ${w.kind}/${printable(w.name)}`);
    for (const f of result.failures)
      lines.push(`  failed     ${f.kind}/${printable(f.name)}: ${f.message}`);
    lines.push(...discoveryLines(result.discoveryFailures));
    if (result.status !== 'no_targets') lines.push(result.note);
    write(context, `${lines.join('\n')}\n`);
    return EXIT_OF[result.status];
  },
};
