/**
 * Whether two Secrets' data maps hold the same keys with the same base64 strings. Absent data is
 * an empty map, as the API server treats it.
 */
export function sameData(
  a: Record<string, string> | undefined,
  b: Record<string, string> | undefined,
): boolean {
  const ak = Object.keys(a ?? {});
  if (ak.length !== Object.keys(b ?? {}).length) return false;
  return ak.every(
    k => Object.prototype.hasOwnProperty.call(b ?? {}, k) && a![k] === b![k],
  );
}
