/**
 * What retention does to this history on the next change of the Secret's values (an edit or a
 * restore; a metadata-only edit saves no version), as the engine applies it: it saves the live
 * state as version `liveVersion`, then removes the oldest other snapshots, by app counter, until
 * at most `limit` remain. A snapshot already in that slot (a retried write) is reused, not added.
 *
 * @public
 */
export interface RetentionOutlook {
  limit: number;
  /** Versions the next change removes, oldest first; empty when none. */
  removes: number[];
  /** How many more versions fit before changes start removing the oldest; 0 when full. */
  room: number;
}

/**
 * Undefined when the next change cannot be foretold: the counter is unreadable, or retained
 * history is newer than the live counter (the write would be refused).
 *
 * @public
 */
export function retentionOutlook(
  items: readonly { version: number }[],
  liveVersion: number | null | undefined,
  limit: number,
): RetentionOutlook | undefined {
  if (liveVersion === null || liveVersion === undefined) return undefined;
  if (items.some(item => item.version > liveVersion)) return undefined;
  const reused = items.some(item => item.version === liveVersion);
  const after = items.length + (reused ? 0 : 1);
  const excess = Math.max(0, after - limit);
  const removes = items
    .map(item => item.version)
    .filter(version => version !== liveVersion)
    .sort((a, b) => a - b)
    .slice(0, excess);
  return { limit, removes, room: Math.max(0, limit - items.length) };
}
