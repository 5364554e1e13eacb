import { Entity } from '@backstage/catalog-model';
import {
  isSnapshotName,
  validateNamespace,
  validateSecretName,
} from '@krypton/plugin-krypton-common';

/**
 * The catalog annotation listing an entity's Secrets as namespace/name, comma-separated. It lives
 * under the configured krypton.annotationPrefix so that one Backstage can run next to another
 * Krypton installation without the two reading each other's links.
 */
export function kryptonSecretsAnnotation(prefix: string): string {
  return `${prefix}/secrets`;
}

export interface SecretRef {
  namespace: string;
  name: string;
}

/** Null when the entry is not a namespace/name the backend would serve. */
function parseEntry(entry: string): SecretRef | null {
  const parts = entry.trim().split('/');
  if (parts.length !== 2) return null;
  const [namespace, name] = parts;
  // The backend's own validators, so that a link is shown only for a Secret it can serve;
  // snapshots are reachable through their live Secret's history, never by name.
  try {
    validateNamespace(namespace);
    validateSecretName(name);
  } catch {
    return null;
  }
  return isSnapshotName(name) ? null : { namespace, name };
}

/**
 * Parses the entity's secrets annotation under the given prefix. Malformed entries are skipped
 * rather than guessed at; repeated entries are listed once.
 */
export function linkedSecrets(entity: Entity, prefix: string): SecretRef[] {
  const raw =
    entity.metadata.annotations?.[kryptonSecretsAnnotation(prefix)] ?? '';
  const seen = new Set<string>();
  const refs: SecretRef[] = [];
  for (const entry of raw.split(',')) {
    const ref = parseEntry(entry);
    if (!ref) continue;
    // Neither part may contain "/", so the joined form is unambiguous.
    const key = `${ref.namespace}/${ref.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    refs.push(ref);
  }
  return refs;
}
