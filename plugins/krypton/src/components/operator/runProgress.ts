import { StorageRewriteRunStatus } from '@krypton/core';

/**
 * How far a run has come, from 0 to 100, where the progress says: a cluster-wide run by its
 * namespaces (once they are listed), a one-namespace run by the objects seen against those the
 * API server said remain after the page just handled. Undefined when neither is known, so the bar
 * shows that work goes on without claiming how much is left.
 */
export function progressPercent(
  run: Pick<StorageRewriteRunStatus, 'scope' | 'progress'>,
): number | undefined {
  const p = run.progress;
  if (run.scope === '*') {
    if (p.namespacesTotal === undefined || p.namespacesTotal <= 0) {
      return undefined;
    }
    return percent(p.namespacesDone, p.namespacesTotal);
  }
  if (p.remaining === undefined) return undefined;
  const total = p.seen + p.remaining;
  return total > 0 ? percent(p.seen, total) : undefined;
}

// The counts come from another process mid-run: never draw a bar past either end.
function percent(done: number, total: number): number {
  return Math.min(100, Math.max(0, (done / total) * 100));
}
