import { KeyDiff } from '@krypton/core';
import { printable } from '../output/table';
import { changeMark } from './describe';

/** The masked key diff a confirmation shows: each key that changes, never a value. */
export function changeLines(diff: KeyDiff): string[] {
  const changed = diff.entries.filter(e => e.change !== 'unchanged');
  if (changed.length === 0) return ['  (no key changes)'];
  return changed.map(
    e =>
      `  ${changeMark(e.change)} ${printable(e.key)}${
        e.kind === 'binary' ? ' (binary)' : ''
      }  ${e.change}`,
  );
}

/** What a write did to history, in one sentence. */
export function archivedText(
  archive: { archivedVersion: number; pruned: number } | undefined,
): string {
  if (!archive) return '';
  const pruned =
    archive.pruned === 0
      ? ''
      : `; retention removed ${archive.pruned} older version${
          archive.pruned === 1 ? '' : 's'
        }`;
  return ` The replaced state is kept as version ${archive.archivedVersion}${pruned}.`;
}
