/**
 * The kinds of entity that access rules and krypton.admins may name.
 *
 * @public
 */
export type PrincipalKind = 'user' | 'group';

const MAX_REF_LENGTH = 512;

/**
 * The one normal form of an entity ref for comparisons: kind, namespace and name in lowercase,
 * with the namespace filled in (`user:alice` is `user:default/alice`). Backstage compares entity
 * refs case-insensitively, so every place that stores or compares refs goes through this.
 * Undefined for anything that is not a ref of one of the given kinds.
 *
 * @public
 */
export function tryNormalizeEntityRef(
  ref: string,
  kinds: readonly PrincipalKind[] = ['user', 'group'],
): string | undefined {
  if (ref.length > MAX_REF_LENGTH) return undefined;
  const parts = splitEntityRef(ref.trim());
  if (!parts) return undefined;
  // toLowerCase, not Backstage's toLocaleLowerCase('en-US'): English has no case rules of its
  // own, so the two agree on every code point, and the locale's path through ICU took about 5 µs
  // a call against 0.1 µs; the gates normalize the caller's refs dozens of times per request.
  const kind = parts.kind.toLowerCase();
  if (!(kinds as readonly string[]).includes(kind)) return undefined;
  return `${kind}:${parts.namespace}/${parts.name}`.toLowerCase();
}

/**
 * `[kind:][namespace/]name` as `@backstage/catalog-model`'s `parseEntityRef` reads it without a
 * default kind: a colon after the first slash is part of the name, no part may be empty, and the
 * namespace defaults to `default`. Written here so that the core carries no Backstage package;
 * `@krypton/plugin-krypton-common` checks the two agree on generated refs.
 */
function splitEntityRef(
  ref: string,
): { kind: string; namespace: string; name: string } | undefined {
  let colon = ref.indexOf(':');
  const slash = ref.indexOf('/');
  if (slash !== -1 && slash < colon) colon = -1;
  if (colon < 1) return undefined;
  const namespace = slash === -1 ? 'default' : ref.slice(colon + 1, slash);
  const name = ref.slice(Math.max(colon + 1, slash + 1));
  if (namespace === '' || name === '') return undefined;
  return { kind: ref.slice(0, colon), namespace, name };
}

/**
 * The kind of a normalized ref.
 *
 * @public
 */
export function kindOfRef(normalizedRef: string): string {
  return normalizedRef.slice(0, normalizedRef.indexOf(':'));
}
