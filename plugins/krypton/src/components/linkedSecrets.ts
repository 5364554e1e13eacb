import { Entity } from '@backstage/catalog-model';

/** Catalog annotation listing the Secrets of an entity as namespace/name, comma-separated. */
export const KRYPTON_SECRETS_ANNOTATION = 'krypton.io/secrets';

export interface SecretRef {
  namespace: string;
  name: string;
}

/** Parses the annotation; malformed entries are skipped rather than guessed at. */
export function linkedSecrets(entity: Entity): SecretRef[] {
  const raw = entity.metadata.annotations?.[KRYPTON_SECRETS_ANNOTATION] ?? '';
  const refs: SecretRef[] = [];
  for (const part of raw.split(',')) {
    const m =
      /^\s*([a-z0-9]([-a-z0-9]*[a-z0-9])?)\/([a-z0-9]([-a-z0-9.]*[a-z0-9])?)\s*$/.exec(
        part,
      );
    if (m) refs.push({ namespace: m[1], name: m[3] });
  }
  return refs;
}
