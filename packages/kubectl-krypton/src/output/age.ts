/**
 * How long ago, as kubectl's AGE column says it (client-go's HumanDuration, shortened): 45s, 12m,
 * 5h, 3d, 2y. A time in the future or unreadable is "<unknown>", like kubectl's.
 */
export function age(iso: string | undefined, now: number): string {
  const at = iso === undefined ? NaN : Date.parse(iso);
  if (Number.isNaN(at)) return '<unknown>';
  const seconds = Math.floor((now - at) / 1000);
  if (seconds < -1) return '<unknown>';
  if (seconds < 120) return `${Math.max(seconds, 0)}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (days < 365 * 2) return `${days}d`;
  return `${Math.floor(days / 365)}y`;
}
