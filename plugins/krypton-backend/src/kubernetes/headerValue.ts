/**
 * Whether a name reaches Kubernetes unchanged in an Impersonate-* header: not empty, printable
 * ASCII only (control characters end or fold a header, and Node sends other characters as Latin-1
 * bytes that Go reads as different text), and no blanks at either end (which the API server's HTTP
 * stack trims away).
 */
export function isHeaderExact(name: string): boolean {
  if (name.length === 0 || name.trim() !== name) return false;
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (code < 0x20 || code > 0x7e) return false;
  }
  return true;
}
