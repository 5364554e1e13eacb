import { KeyChange, KeyDiffEntry, VersionSummary } from '@krypton/core';
import { printable } from '../output/table';

/** How a version was replaced: through a Krypton host, or a write that the recorder caught. */
export type ReplacedHow = 'krypton' | 'recorded' | 'recorded-delete';

/** The recorder writes snapshot-by as kubernetes:<username>; no Krypton host uses that prefix. */
const RECORDED_PREFIX = 'kubernetes:';

export function replacedHow(version: VersionSummary): ReplacedHow {
  if (version.finalState) return 'recorded-delete';
  return version.snapshotBy.startsWith(RECORDED_PREFIX)
    ? 'recorded'
    : 'krypton';
}

/** The HOW column: "Krypton", "recorded (kubectl-edit)", "recorded delete". */
export function howText(version: VersionSummary): string {
  const how = replacedHow(version);
  if (how === 'krypton') return 'Krypton';
  const via = version.snapshotVia ? ` (${printable(version.snapshotVia)})` : '';
  return how === 'recorded-delete' ? `recorded delete${via}` : `recorded${via}`;
}

const MARK: Record<KeyChange, string> = {
  added: '+',
  removed: '-',
  changed: '~',
  unchanged: ' ',
  present: '?',
};

/** The CHANGES column: +added ~changed -removed, binary keys marked. */
export function changesText(
  changes: ReadonlyArray<Pick<KeyDiffEntry, 'key' | 'change' | 'kind'>>,
): string {
  if (changes.length === 0) return '(no key changed)';
  return changes
    .map(
      ({ key, change, kind }) =>
        `${MARK[change]}${printable(key)}${
          kind === 'binary' ? ' (binary)' : ''
        }`,
    )
    .join(' ');
}

export function changeMark(change: KeyChange): string {
  return MARK[change];
}
