import { parseEntityRef, stringifyEntityRef } from '@backstage/catalog-model';

/** The kinds of entity that access rules and krypton.admins may name. */
export type PrincipalKind = 'user' | 'group';

const MAX_REF_LENGTH = 512;

/**
 * The one normal form of an entity ref for comparisons: kind, namespace and name in lowercase,
 * with the namespace filled in (`user:alice` is `user:default/alice`). Backstage compares entity
 * refs case-insensitively, so every place that stores or compares refs goes through this.
 * Undefined for anything that is not a ref of one of the given kinds.
 */
export function tryNormalizeEntityRef(
  ref: string,
  kinds: readonly PrincipalKind[] = ['user', 'group'],
): string | undefined {
  if (ref.length > MAX_REF_LENGTH) return undefined;
  let parsed;
  try {
    parsed = parseEntityRef(ref.trim());
  } catch {
    return undefined;
  }
  // toLowerCase, not Backstage's toLocaleLowerCase('en-US'): English has no case rules of its
  // own, so the two agree on every code point, and the locale's path through ICU took about 5 µs
  // a call against 0.1 µs; the gates normalize the caller's refs dozens of times per request.
  const kind = parsed.kind.toLowerCase();
  if (!(kinds as readonly string[]).includes(kind)) return undefined;
  return stringifyEntityRef({ ...parsed, kind }).toLowerCase();
}

/** The kind of a normalized ref. */
export function kindOfRef(normalizedRef: string): string {
  return normalizedRef.slice(0, normalizedRef.indexOf(':'));
}
