import { KryptonKeys } from '../annotations';
import { NativeSecret } from './types';

/**
 * How long after Krypton marked a Secret for a delete with history cleanup the recorder trusts
 * the mark, either way of its own clock: long enough for the conditional DELETE that follows at
 * once and for clocks kept by NTP, short enough that a mark left by a delete that never happened
 * (Krypton stopped between the two requests) soon stops excusing a later delete from recording.
 */
export const HISTORY_CLEANED_MARK_TTL_MS = 60_000;

/**
 * The merge patch that marks a live Secret as having had its history cleaned by Krypton's delete,
 * conditional on the UID and revision that the delete loaded and checked.
 *
 * Why a mark: the recorder keeps the final state of every recorded Secret that is deleted, but a
 * delete through Krypton with history cleanup must end with no snapshot of that UID (the spec's
 * delete contract). In impersonation mode both deletes arrive as the same user, so only the
 * object itself can tell them apart. Whoever may write this mark may also delete the Secret, and
 * Krypton's cleaned delete already lets that right remove the history, so the mark grants nothing
 * more.
 */
export function historyCleanedMark(
  keys: KryptonKeys,
  preconditions: { uid: string; resourceVersion: string },
  now: Date,
): Record<string, unknown> {
  return {
    metadata: {
      uid: preconditions.uid,
      resourceVersion: preconditions.resourceVersion,
      annotations: { [keys.historyCleanedAt]: now.toISOString() },
    },
  };
}

/**
 * Whether a Secret being deleted carries a fresh mark of Krypton's cleaned delete, so that the
 * recorder keeps no final state. A stale, future or unreadable mark counts as none.
 */
export function markedHistoryCleaned(
  secret: NativeSecret,
  keys: KryptonKeys,
  now: Date,
): boolean {
  const raw = secret.metadata.annotations?.[keys.historyCleanedAt];
  // Date.parse of an arbitrary string is linear, but a bound keeps a forged value cheap.
  if (raw === undefined || raw.length > 40) return false;
  const at = Date.parse(raw);
  return (
    Number.isFinite(at) &&
    Math.abs(now.getTime() - at) <= HISTORY_CLEANED_MARK_TTL_MS
  );
}
