import { deletedSecretSummary, validateNamespace } from '@krypton/core';
import { outputFormat } from '../cli/args';
import { EXIT } from '../cli/exitCodes';
import { age } from '../output/age';
import { structured } from '../output/structured';
import { printable, table } from '../output/table';
import { Command, write } from './command';

export const deleted: Command = {
  name: 'deleted',
  usage: '',
  summary:
    "The namespace's deleted Secrets whose history is kept: who deleted each and when, and its versions",
  flags: ['output'],
  args: [0, 0],
  async run(context) {
    const format = outputFormat(context.flags.output);
    const session = context.session();
    const namespace = validateNamespace(session.target.namespace);
    const items = (await session.krypton.deleted.list(namespace)).map(
      deletedSecretSummary,
    );
    if (format !== 'table') {
      write(context, structured(format, { namespace, items }));
      return EXIT.ok;
    }
    if (items.length === 0) {
      write(context, `No deleted Secret of ${namespace} has history kept.\n`);
      return EXIT.ok;
    }
    const now = context.now();
    write(
      context,
      table(
        ['name', 'uid', 'deleted', 'by', 'versions', 'name now'],
        items.map(item => [
          printable(item.name),
          item.uid,
          item.deletedAt ? age(item.deletedAt, now) : 'unknown',
          item.deletedBy ? printable(item.deletedBy) : 'unknown',
          item.versions.map(v => v.version).join(','),
          item.nameTaken ? 'taken' : 'free',
        ]),
      ),
    );
    return EXIT.ok;
  },
};
