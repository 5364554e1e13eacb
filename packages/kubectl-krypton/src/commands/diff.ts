import {
  DiffSide,
  KeyDiff,
  KeyDiffEntry,
  KryptonError,
  LineChange,
  isMultiLine,
  keyDiff,
  lineDiff,
  lineDiffHunks,
  parseVersionParam,
  versionSide,
} from '@krypton/core';
import { outputFormat } from '../cli/args';
import { EXIT } from '../cli/exitCodes';
import { structured } from '../output/structured';
import { printable } from '../output/table';
import { Session } from '../session';
import { Command, CommandContext, note, secretTarget, write } from './command';
import { changeMark } from './describe';

type Which = number | 'live';

const LINE_MARK: Record<LineChange, string> = {
  same: ' ',
  added: '+',
  removed: '-',
};

function which(raw: string): Which {
  return raw === 'live' ? 'live' : parseVersionParam(raw);
}

function label(side: Which, liveVersion: number | null): string {
  if (side !== 'live') return `version ${side}`;
  return liveVersion === null ? 'live' : `live (version ${liveVersion})`;
}

async function read(
  session: Session,
  namespace: string,
  name: string,
  side: Which,
): Promise<{ side: DiffSide; version: number | null }> {
  const { krypton, gate } = session;
  if (side === 'live') {
    const dto = krypton.live.toDto(
      await krypton.live.get(namespace, name, gate),
    );
    return { version: dto.version, side: versionSide(dto) };
  }
  const version = await krypton.versioned.version(namespace, name, side, gate);
  return { version: version.version, side: versionSide(version) };
}

/** One key's lines of the diff: masked, or with --reveal its text values and line changes. */
function entryLines(entry: KeyDiffEntry, reveal: boolean): string[] {
  const head = `${changeMark(entry.change)} ${printable(entry.key)}${
    entry.kind === 'binary' ? ' (binary)' : ''
  }  ${entry.change}`;
  if (!reveal || entry.kind === 'binary' || entry.change === 'unchanged')
    return [head];
  const { before, after } = entry;
  if (
    entry.change === 'changed' &&
    before !== undefined &&
    after !== undefined
  ) {
    if (isMultiLine(before) || isMultiLine(after)) {
      const lines = lineDiff(before, after);
      if (lines.status === 'tooDifferent')
        return [
          head,
          `    (too different to compare line by line: more than ${
            lines.limit
          } ${lines.reason === 'tooManyLines' ? 'lines' : 'changed lines'})`,
        ];
      const out = [head];
      for (const part of lineDiffHunks(lines.lines)) {
        if (part.kind === 'skipped') {
          out.push(`    ... ${part.count} unchanged lines`);
          continue;
        }
        for (const line of part.lines) {
          out.push(`    ${LINE_MARK[line.change]} ${printable(line.text)}`);
        }
      }
      return out;
    }
    return [head, `    - ${printable(before)}`, `    + ${printable(after)}`];
  }
  if (before !== undefined) return [head, `    - ${printable(before)}`];
  if (after !== undefined) return [head, `    + ${printable(after)}`];
  return [head];
}

function jsonEntries(diff: KeyDiff, reveal: boolean) {
  return diff.entries.map(({ key, change, kind, before, after }) =>
    reveal && kind === 'text'
      ? { key, change, kind, before, after }
      : { key, change, kind },
  );
}

export const diff: Command = {
  name: 'diff',
  usage: 'NAME [A [B]]',
  summary:
    'What changed between two versions, or a version and live (live by default), key by key; values only with --reveal',
  flags: ['output', 'reveal'],
  args: [1, 3],
  async run(context: CommandContext) {
    const format = outputFormat(context.flags.output);
    const reveal = context.flags.reveal === true;
    const { session, namespace, name } = secretTarget(context);
    let from: Which;
    const to: Which =
      context.args[2] !== undefined ? which(context.args[2]) : 'live';
    if (context.args[1] !== undefined) from = which(context.args[1]);
    else {
      const [newest] = await session.krypton.versioned.versions(
        namespace,
        name,
        session.gate,
      );
      if (!newest) {
        note(
          context,
          `Secret ${namespace}/${printable(
            name,
          )} has no kept versions to compare with.`,
        );
        return EXIT.ok;
      }
      from = newest.version;
    }
    if (from === to)
      throw new KryptonError(
        'invalid_request',
        'Compare two different versions.',
      );
    const [a, b] = await Promise.all([
      read(session, namespace, name, from),
      read(session, namespace, name, to),
    ]);
    const result = keyDiff(a.side, b.side);
    if (format !== 'table') {
      write(
        context,
        structured(format, {
          namespace,
          name,
          from:
            from === 'live'
              ? { live: true, version: a.version }
              : { version: from },
          to:
            to === 'live'
              ? { live: true, version: b.version }
              : { version: to },
          entries: jsonEntries(result, reveal),
          counts: result.counts,
        }),
      );
      return EXIT.ok;
    }
    if (reveal && context.io.stdoutIsTerminal)
      note(
        context,
        'Warning: showing Secret values on this terminal; they stay in its scrollback.',
      );
    const lines = [
      `--- ${label(from, a.version)}`,
      `+++ ${label(to, b.version)}`,
    ];
    for (const entry of result.entries)
      lines.push(...entryLines(entry, reveal));
    const { added, removed, changed, unchanged } = result.counts;
    lines.push(
      `${added} added, ${removed} removed, ${changed} changed, ${unchanged} unchanged.`,
    );
    write(context, `${lines.join('\n')}\n`);
    return EXIT.ok;
  },
};
