import { parseAdoptRequest } from '@krypton/core';
import { EXIT } from '../cli/exitCodes';
import { printable } from '../output/table';
import { Command, secretTarget, write } from './command';

export const adopt: Command = {
  name: 'adopt',
  usage: 'NAME',
  summary:
    'Let Krypton manage an existing Secret: from then on every change through Krypton keeps a version',
  flags: ['description'],
  args: [1, 1],
  async run(context) {
    const { session, namespace, name } = secretTarget(context);
    const { krypton, gate } = session;
    // Adopt reads the Secret whether or not Krypton manages it; only its revision is needed.
    const live = await krypton.live.loadGated(
      namespace,
      name,
      ['update', 'manageAccess'],
      gate,
      { managedOnly: false, metadataOnly: true },
    );
    // The API's own validation of the request, so that the terminal accepts what it accepts.
    const request = parseAdoptRequest({
      resourceVersion: live.metadata.resourceVersion,
      description: context.flags.description,
    });
    await krypton.live.adopt(namespace, name, request, gate);
    write(
      context,
      `Krypton now manages ${namespace}/${printable(
        name,
      )}: its changes through Krypton keep versions.\n`,
    );
    return EXIT.ok;
  },
};
