/**
 * The path without its trailing "/"s. A loop from the end rather than `replace(/\/+$/, '')`:
 * that regex is retried from every "/" of a run that does not end the string, so a navigation
 * target of many slashes (any link or address a user follows) costs quadratic time.
 */
export function trimTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 0x2f) end--;
  return path.slice(0, end);
}
