import { KryptonError, messages } from '@krypton/core';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CliError } from '../cli/errors';
import { EXIT } from '../cli/exitCodes';
import { printable } from '../output/table';
import { Command, CommandContext, note, secretTarget, write } from './command';
import { archivedText } from './changeSummary';
import { editText, readEdit } from './editFile';
import { refuseBeforeAsking } from './refusals';

function sameData(
  a: Record<string, string>,
  b: Record<string, string>,
): boolean {
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every(
      key => Object.prototype.hasOwnProperty.call(b, key) && b[key] === a[key],
    )
  );
}

/**
 * Opens the text in the user's editor until it reads as the Secret's text values, as kubectl edit
 * does: a file that does not is opened again with the problem on top, and saving that same file
 * again gives up. The file lives in a directory only the user can read, and is removed at once.
 */
async function editUntilValid(
  context: CommandContext,
  first: string,
  render: (problem: string) => string,
  binaryKeys: readonly string[],
): Promise<Record<string, string> | undefined> {
  const dir = mkdtempSync(join(tmpdir(), 'kubectl-krypton-edit-'));
  const file = join(dir, 'secret.yaml');
  try {
    let shown = first;
    for (;;) {
      writeFileSync(file, shown, { mode: 0o600 });
      const code = await context.io.edit(file);
      if (code !== 0)
        throw new CliError(
          'cancelled',
          `The editor exited with code ${code}: nothing was changed.`,
        );
      const edited = readFileSync(file, 'utf8');
      if (edited !== first && edited === shown) return undefined;
      const read = readEdit(edited, binaryKeys);
      if ('data' in read) return read.data;
      shown = render(printable(read.problem));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const edit: Command = {
  name: 'edit',
  usage: 'NAME',
  summary:
    "Edit a Secret's text values in your editor (KUBE_EDITOR, EDITOR or vi); the replaced state is kept as a version first",
  flags: [],
  args: [1, 1],
  async run(context) {
    const { session, namespace, name } = secretTarget(context);
    const { krypton, gate } = session;
    const live = await krypton.live.get(namespace, name, gate);
    refuseBeforeAsking(session, live, 'update');
    const dto = krypton.live.toDto(live);
    const ref = `${namespace}/${printable(name)}`;
    const render = (problem?: string) =>
      editText(
        ref,
        dto.version,
        dto.data,
        dto.binaryKeys.map(printable),
        problem,
      );
    const first = render();
    const data = await editUntilValid(
      context,
      first,
      problem => render(problem),
      dto.binaryKeys,
    );
    if (data === undefined || sameData(data, dto.data)) {
      note(context, 'Edit cancelled: no changes made.');
      return EXIT.ok;
    }
    let result;
    try {
      result = await krypton.versioned.update(
        namespace,
        name,
        { resourceVersion: live.metadata.resourceVersion!, data },
        gate,
      );
    } catch (err) {
      if (err instanceof KryptonError && err.message === messages.staleRevision)
        throw new CliError(
          'conflict',
          `${ref} changed while you edited it, so your edit was not applied. See what changed with kubectl krypton diff ${printable(
            name,
          )}, then edit again.`,
        );
      throw err;
    }
    const now = krypton.live.toSummary(result.secret).version;
    write(
      context,
      `Saved ${ref}: live is now version ${now ?? 'unknown'}.${archivedText(
        result.archive,
      )}\n`,
    );
    return EXIT.ok;
  },
};
