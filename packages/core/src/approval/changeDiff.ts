import { DiffSide, KeyDiff, KeyDiffEntry, keyDiff } from '../keyDiff';

/**
 * What a waiting change request would do to the live Secret now, key by key: the review's
 * comparison. Its entries carry no text unless the caller revealed those keys.
 *
 * @public
 */
export interface ChangeRequestDiff {
  /** The live revision compared with: the request's base, unless the Secret moved since. */
  resourceVersion: string;
  /**
   * Undefined when the caller cannot know the proposed keys: a restore of a version whose keys
   * were too many to record, for a caller who may not reveal values.
   */
  diff?: KeyDiff;
}

/**
 * The diff of a change that writes no values (its description, access rules, type or
 * immutability): every key stays, and stays the same, whoever looks and whatever they may reveal.
 *
 * @public
 */
export function unchangedDiff(side: DiffSide): KeyDiff {
  const keysOnly: DiffSide = { keys: side.keys, binaryKeys: side.binaryKeys };
  // Keys only on both sides: every key is on both, so each entry is one whose value is kept.
  const entries = keyDiff(keysOnly, keysOnly).entries.map(
    ({ key, kind }): KeyDiffEntry => ({ key, change: 'unchanged', kind }),
  );
  return {
    entries,
    valuesCompared: true,
    counts: {
      added: 0,
      removed: 0,
      changed: 0,
      unchanged: entries.length,
      present: 0,
    },
  };
}

/**
 * The diff without any text but that of the named keys: what a review answers, so that a value
 * leaves Krypton only when someone asked for it by name (and the read was audited as such).
 *
 * @public
 */
export function revealedOnly(diff: KeyDiff, keys: readonly string[]): KeyDiff {
  const named = new Set(keys);
  return {
    ...diff,
    entries: diff.entries.map(({ before, after, ...entry }) => {
      if (!named.has(entry.key)) return entry;
      const out: KeyDiffEntry = { ...entry };
      if (before !== undefined) out.before = before;
      if (after !== undefined) out.after = after;
      return out;
    }),
  };
}
