import { outputFormat } from '../cli/args';
import { EXIT } from '../cli/exitCodes';
import { age } from '../output/age';
import { structured } from '../output/structured';
import { printable, table } from '../output/table';
import { Command, secretTarget, write } from './command';
import { changesText, howText, replacedHow } from './describe';

export const history: Command = {
  name: 'history',
  usage: 'NAME',
  summary:
    'The versions of a Secret, newest first: when each was replaced, by whom, how, and which keys that write changed',
  flags: ['output'],
  args: [1, 1],
  async run(context) {
    const format = outputFormat(context.flags.output);
    const { session, namespace, name } = secretTarget(context);
    const { live, versions } = await session.krypton.versioned.changes(
      namespace,
      name,
      session.gate,
    );
    if (format !== 'table') {
      write(
        context,
        structured(format, {
          namespace,
          name,
          live: {
            uid: live.uid,
            resourceVersion: live.resourceVersion,
            version: live.version,
            keys: live.keys,
          },
          versions: versions.map(v => ({
            ...v,
            how: replacedHow(v),
          })),
        }),
      );
      return EXIT.ok;
    }
    const now = context.now();
    const kept =
      versions.length === 1
        ? '1 version kept'
        : `${versions.length} versions kept`;
    write(
      context,
      `Secret ${namespace}/${printable(name)}: live version ${
        live.version ?? 'unknown'
      }, ${kept}.\n`,
    );
    if (versions.length === 0) return EXIT.ok;
    write(
      context,
      table(
        ['version', 'replaced', 'by', 'how', 'changes'],
        versions.map(v => [
          String(v.version),
          age(v.snapshotAt, now),
          printable(v.snapshotBy),
          howText(v),
          changesText(v.changes),
        ]),
      ),
    );
    return EXIT.ok;
  },
};
