import { AuthService } from '@backstage/backend-plugin-api';
import { CATALOG_FILTER_EXISTS } from '@backstage/catalog-client';
import {
  Entity,
  parseEntityRef,
  stringifyEntityRef,
} from '@backstage/catalog-model';
import { CatalogService } from '@backstage/plugin-catalog-node';
import {
  LinkedSecretFacts,
  entitySecretLinks,
  kryptonLinkAnnotations,
  linksSecret,
} from '@krypton/plugin-krypton-common';

export interface OwnerLookupOptions {
  catalog: CatalogService;
  auth: AuthService;
  annotationPrefix: string;
  /** The first configured cluster, which link entries without a cluster name. */
  defaultCluster: string;
}

/** What the link rules and the owner need of an entity; nothing else is fetched. */
const FIELDS = [
  'kind',
  'metadata.name',
  'metadata.namespace',
  'metadata.annotations',
  'spec.owner',
  'relations',
];

/**
 * The entity ref of an entity's owner, lowercase as Krypton compares refs; undefined when there is
 * none or it is not a ref. The catalog's own `ownedBy` relation is the owner as the catalog
 * resolved it; without one, `spec.owner` is read as the catalog reads it: a group by default, in
 * the entity's own namespace.
 */
export function ownerRefOf(entity: Entity): string | undefined {
  const related = entity.relations?.find(r => r.type === 'ownedBy');
  const owner = related?.targetRef ?? entity.spec?.owner;
  if (typeof owner !== 'string' || owner.trim() === '') return undefined;
  try {
    const ref = parseEntityRef(owner.trim(), {
      defaultKind: 'group',
      defaultNamespace: entity.metadata.namespace ?? 'default',
    });
    return stringifyEntityRef(ref).toLocaleLowerCase('en-US');
  } catch {
    return undefined;
  }
}

/**
 * The owners of the catalog entities that link this Secret, each once. The catalog is asked with
 * Krypton's own credentials for the entities that carry either link annotation; which of them
 * link this Secret is decided by common's link rules, the same that the entity tab follows.
 */
export async function linkingOwners(
  options: OwnerLookupOptions,
  secret: LinkedSecretFacts,
): Promise<string[]> {
  const { catalog, auth, annotationPrefix, defaultCluster } = options;
  const names = kryptonLinkAnnotations(annotationPrefix);
  const credentials = await auth.getOwnServiceCredentials();
  const owners = new Set<string>();
  const pages = catalog.streamEntities(
    {
      // Entries of an array are alternatives: entities with either annotation.
      filter: [
        { [`metadata.annotations.${names.secrets}`]: CATALOG_FILTER_EXISTS },
        { [`metadata.annotations.${names.selector}`]: CATALOG_FILTER_EXISTS },
      ],
      fields: FIELDS,
    },
    { credentials },
  );
  for await (const page of pages) {
    for (const entity of page) {
      const links = entitySecretLinks(entity, annotationPrefix);
      if (!linksSecret(links, secret, defaultCluster)) continue;
      const owner = ownerRefOf(entity);
      if (owner) owners.add(owner);
    }
  }
  return [...owners];
}
