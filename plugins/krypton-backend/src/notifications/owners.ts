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

/** An entity that links Secrets, as far as notifications need it: its links and its owner. */
interface LinkingEntity {
  links: ReturnType<typeof entitySecretLinks>;
  owner: string;
}

/**
 * The catalog entities that carry either link annotation and have an owner. The catalog is asked
 * with Krypton's own credentials, for the few fields that the link rules and the owner need.
 */
async function readLinkingEntities(
  options: OwnerLookupOptions,
): Promise<LinkingEntity[]> {
  const { catalog, auth, annotationPrefix } = options;
  const names = kryptonLinkAnnotations(annotationPrefix);
  const credentials = await auth.getOwnServiceCredentials();
  const out: LinkingEntity[] = [];
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
      const owner = ownerRefOf(entity);
      if (owner)
        out.push({ links: entitySecretLinks(entity, annotationPrefix), owner });
    }
  }
  return out;
}

/**
 * Which of the entities link this Secret, by common's link rules (the same that the entity tab
 * follows), as their owners, each once.
 */
function ownersLinking(
  entities: LinkingEntity[],
  secret: LinkedSecretFacts,
  defaultCluster: string,
): string[] {
  const owners = new Set<string>();
  for (const { links, owner } of entities) {
    if (linksSecret(links, secret, defaultCluster)) owners.add(owner);
  }
  return [...owners];
}

/** The owners of the catalog entities that link this Secret, each once, read from the catalog now. */
export async function linkingOwners(
  options: OwnerLookupOptions,
  secret: LinkedSecretFacts,
): Promise<string[]> {
  return ownersLinking(
    await readLinkingEntities(options),
    secret,
    options.defaultCluster,
  );
}

/** How long one read of the catalog's linking entities serves later changes. */
export const LINKING_ENTITIES_TTL_MS = 10_000;

/**
 * `linkingOwners` for a stream of changes: the catalog's linking entities are read at most once
 * per `ttlMs` and shared by every change meanwhile, so a burst of updates costs the catalog one
 * query instead of one each. The catalog itself takes longer than that to take in an edited
 * entity, so the owners are no staler than the catalog is. A failed read is not kept.
 */
export function cachedOwnerLookup(
  options: OwnerLookupOptions,
  ttlMs: number = LINKING_ENTITIES_TTL_MS,
  now: () => number = Date.now,
): (secret: LinkedSecretFacts) => Promise<string[]> {
  let cached: { at: number; entities: Promise<LinkingEntity[]> } | undefined;
  return async secret => {
    const at = now();
    if (!cached || at - cached.at >= ttlMs) {
      const entities = readLinkingEntities(options);
      const entry = { at, entities };
      cached = entry;
      entities.catch(() => {
        if (cached === entry) cached = undefined;
      });
    }
    return ownersLinking(await cached.entities, secret, options.defaultCluster);
  };
}
