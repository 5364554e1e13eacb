import { keyDiff, parseVersionParam, versionSide } from '@krypton/core';
import { CliError } from '../cli/errors';
import { EXIT } from '../cli/exitCodes';
import { confirm } from '../cli/io';
import { printable } from '../output/table';
import { Command, note, secretTarget, write } from './command';
import { archivedText, changeLines } from './changeSummary';
import { refuseBeforeAsking } from './refusals';

export const restore: Command = {
  name: 'restore',
  usage: 'NAME VERSION',
  summary:
    'Roll a Secret back to a version: the live state is kept as a new version first, and nothing is written if the Secret changed meanwhile',
  flags: ['yes'],
  args: [2, 2],
  async run(context) {
    const version = parseVersionParam(context.args[1]);
    const { session, namespace, name } = secretTarget(context);
    const { krypton, gate } = session;
    // Not live.get, which refuses a service-account token's values before restore's own refusal.
    const live = await krypton.live.loadGated(
      namespace,
      name,
      ['read', 'restore'],
      gate,
    );
    refuseBeforeAsking(session, live, 'restore');
    const target = await krypton.versioned.version(
      namespace,
      name,
      version,
      gate,
    );
    const diff = keyDiff(
      versionSide(krypton.live.toDto(live)),
      versionSide(target),
    );
    const ref = `${namespace}/${printable(name)}`;
    note(
      context,
      [
        `Restoring ${ref} to version ${version} changes:`,
        ...changeLines(diff),
      ].join('\n'),
    );
    if (!context.flags.yes) {
      if (!context.io.stdinIsTerminal)
        throw new CliError(
          'cancelled',
          'No terminal to confirm on: pass --yes to restore without asking.',
        );
      if (!(await confirm(context.io, `Restore ${ref} to version ${version}?`)))
        throw new CliError('cancelled', 'Not restored: nothing was changed.');
    }
    // The revision the diff was read from: the engine writes only if the Secret is still it.
    const result = await krypton.versioned.restore(
      namespace,
      name,
      { version, resourceVersion: live.metadata.resourceVersion! },
      gate,
    );
    if (!result.dataChanged) {
      write(
        context,
        `Version ${version} holds the live values already: nothing was written.\n`,
      );
      return EXIT.ok;
    }
    const now = krypton.live.toSummary(result.secret).version;
    write(
      context,
      `Restored ${ref} to version ${version}; live is now version ${
        now ?? 'unknown'
      }.${archivedText(result.archive)}\n`,
    );
    return EXIT.ok;
  },
};
