import { SecretSummary, keySizes } from '@krypton/core';
import { outputFormat } from '../cli/args';
import { EXIT } from '../cli/exitCodes';
import { structured } from '../output/structured';
import { printable } from '../output/table';
import { Command, note, secretTarget, write } from './command';

function sizeText(bytes: number): string {
  return bytes === 1 ? '1 byte' : `${bytes} bytes`;
}

function describeOwner(summary: SecretSummary): string | undefined {
  const { owner } = summary;
  if (!owner) return undefined;
  const what = [
    owner.kind,
    owner.namespace ? `${owner.namespace}/${owner.name ?? ''}` : owner.name,
  ]
    .filter(Boolean)
    .map(part => printable(String(part)))
    .join(' ');
  return `${what ? `${what} ` : ''}(${owner.tool}): an edit here is ${
    owner.outcome
  }; Krypton's edits are ${owner.edits}`;
}

function describe(
  summary: SecretSummary,
  sizes: Record<string, number>,
  values?: { data: Record<string, string> },
): string {
  const rows: Array<[string, string]> = [
    ['Name', printable(summary.name)],
    ['Namespace', summary.namespace],
    ['Type', printable(summary.type)],
    [
      'Version',
      summary.version === null ? 'none yet' : String(summary.version),
    ],
    [
      'Managed',
      summary.managed ? 'yes' : 'no (adopt it with kubectl krypton adopt)',
    ],
    ['Immutable', summary.immutable ? 'yes' : 'no'],
  ];
  const owner = describeOwner(summary);
  if (owner) rows.push(['Owner', owner]);
  if (summary.description)
    rows.push(['Description', printable(summary.description)]);
  const { owners, editors, viewers } = summary.access;
  if (owners.length + editors.length + viewers.length > 0)
    rows.push([
      'Access rules',
      `owners ${owners.join(', ') || '-'}; editors ${
        editors.join(', ') || '-'
      }; viewers ${
        viewers.join(', ') || '-'
      } (advisory here: your RBAC decides)`,
    ]);
  if (summary.deletionTimestamp)
    rows.push(['Deleting', `since ${summary.deletionTimestamp}`]);
  const width = Math.max(...rows.map(([k]) => k.length)) + 2;
  const lines = rows.map(([k, v]) => `${`${k}:`.padEnd(width)}${v}`);
  lines.push('', 'Data');
  const binary = new Set(summary.binaryKeys);
  const keys = [...summary.keys].sort();
  if (keys.length === 0) lines.push('  (no keys)');
  const keyWidth = Math.max(0, ...keys.map(k => printable(k).length)) + 2;
  for (const key of keys) {
    const head = `  ${`${printable(key)}:`.padEnd(keyWidth)}`;
    const size = sizeText(sizes[key] ?? 0);
    if (binary.has(key)) lines.push(`${head}${size}, binary (never shown)`);
    else if (!values) lines.push(`${head}${size}`);
    else {
      const [first, ...rest] = (values.data[key] ?? '')
        .split('\n')
        .map(printable);
      lines.push(
        `${head}${first}`,
        ...rest.map(line => `  ${' '.repeat(keyWidth)}${line}`),
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

export const get: Command = {
  name: 'get',
  usage: 'NAME',
  summary:
    "A live Secret's metadata, owner, rules and keys; values only with --reveal",
  flags: ['output', 'reveal'],
  args: [1, 1],
  async run(context) {
    const format = outputFormat(context.flags.output);
    const reveal = context.flags.reveal === true;
    const { session, namespace, name } = secretTarget(context);
    const { krypton, gate } = session;
    const live = reveal
      ? await krypton.live.get(namespace, name, gate)
      : await krypton.live.loadGated(namespace, name, ['read'], gate);
    const sizes = keySizes(live);
    if (format !== 'table') {
      const view = reveal
        ? krypton.live.toDto(live)
        : krypton.live.toSummary(live);
      write(context, structured(format, { ...view, keySizes: sizes }));
      return EXIT.ok;
    }
    if (reveal && context.io.stdoutIsTerminal)
      note(
        context,
        'Warning: showing Secret values on this terminal; they stay in its scrollback.',
      );
    const dto = reveal ? krypton.live.toDto(live) : undefined;
    write(context, describe(dto ?? krypton.live.toSummary(live), sizes, dto));
    return EXIT.ok;
  },
};
