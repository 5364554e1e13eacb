import { Entity } from '@backstage/catalog-model';
import {
  Labels,
  matchesLabelSelector,
  MAX_LINKED_SECRET_ENTRIES,
  isKryptonStorageName,
  validateLabelSelector,
  validateNamespace,
  validateSecretName,
} from '@krypton/core';

/**
 * The Backstage Kubernetes plugin's namespace annotation, the selector's fallback namespace.
 *
 * @public
 */
export const KUBERNETES_NAMESPACE_ANNOTATION =
  'backstage.io/kubernetes-namespace';

/**
 * The catalog annotation listing an entity's Secrets as namespace/name (or cluster/namespace/name),
 * comma-separated. It lives under the configured krypton.annotationPrefix so that one Backstage can
 * run next to another Krypton installation without the two reading each other's links.
 *
 * @public
 */
export function kryptonSecretsAnnotation(prefix: string): string {
  return `${prefix}/secrets`;
}

/**
 * Every catalog annotation Krypton reads, under the configured prefix.
 *
 * @public
 */
export interface KryptonLinkAnnotations {
  /** `namespace/name` or `cluster/namespace/name` entries, comma-separated. */
  secrets: string;
  /** A Kubernetes label selector over the Secrets of one namespace. */
  selector: string;
  /** The selector's namespace; `backstage.io/kubernetes-namespace` when absent. */
  namespace: string;
  /** The selector's cluster; the default cluster when absent. */
  cluster: string;
}

/**
 * The names of Krypton's catalog annotations under the given prefix.
 *
 * @public
 */
export function kryptonLinkAnnotations(prefix: string): KryptonLinkAnnotations {
  return {
    secrets: kryptonSecretsAnnotation(prefix),
    selector: `${prefix}/secrets-selector`,
    namespace: `${prefix}/secrets-namespace`,
    cluster: `${prefix}/cluster`,
  };
}

/**
 * One Secret an entity links by name. Without `cluster`, the backend's default cluster serves it.
 *
 * @public
 */
export interface SecretRef {
  /** The configured cluster the entry names; absent for namespace/name entries. */
  cluster?: string;
  namespace: string;
  name: string;
}

/**
 * The Secrets of one namespace that a label selector picks.
 *
 * @public
 */
export interface SecretSelector {
  /** From <prefix>/cluster; absent means the default cluster. */
  cluster?: string;
  namespace: string;
  /** The selector as validated (terms trimmed), ready for the list route. */
  labelSelector: string;
}

/**
 * What an entity's annotations link, and why a selector annotation could not be used.
 *
 * @public
 */
export interface EntitySecretLinks {
  /**
   * The Secrets named in <prefix>/secrets, valid entries only, each once, from the first
   * MAX_LINKED_SECRET_ENTRIES entries.
   */
  refs: SecretRef[];
  /**
   * How many entries of <prefix>/secrets come after the first MAX_LINKED_SECRET_ENTRIES and were
   * not read; absent when there are none. The tab says so instead of dropping them silently.
   */
  notLoaded?: number;
  /** The usable selector link, when the entity has one. */
  selector?: SecretSelector;
  /** Set when the selector annotation is present but unusable; the tab explains it. */
  selectorProblem?: string;
}

/**
 * Cluster names come from Krypton's configuration and are free-form there, so the check only
 * keeps what an annotation entry can carry unambiguously: visible ASCII without "/" or ",".
 */
const CLUSTER_NAME = /^[\x21-\x2b\x2d\x2e\x30-\x7e]{1,253}$/;

const isClusterName = (value: string) => CLUSTER_NAME.test(value);

/** The longest entry that can be valid: a cluster, a namespace and a Secret name at their limits. */
const MAX_ENTRY_LENGTH = 253 + 1 + 63 + 1 + 253;

/** Null when the trimmed entry is not a [cluster/]namespace/name the backend would serve. */
function parseEntry(entry: string): SecretRef | null {
  // Bounds the split below, which a megabyte of "/" would otherwise turn into a huge array.
  if (entry.length > MAX_ENTRY_LENGTH) return null;
  const parts = entry.split('/');
  if (parts.length !== 2 && parts.length !== 3) return null;
  const [namespace, name] = parts.slice(-2);
  const cluster = parts.length === 3 ? parts[0] : undefined;
  if (cluster !== undefined && !isClusterName(cluster)) return null;
  // The backend's own validators, so that a link is shown only for a Secret it can serve;
  // snapshots and proposals are reachable through their live Secret, never by name.
  try {
    validateNamespace(namespace);
    validateSecretName(name);
  } catch {
    return null;
  }
  if (isKryptonStorageName(name)) return null;
  return cluster === undefined
    ? { namespace, name }
    : { cluster, namespace, name };
}

interface ParsedEntries {
  refs: SecretRef[];
  notLoaded: number;
}

/**
 * Reads the first MAX_LINKED_SECRET_ENTRIES non-blank entries and only counts the rest. The value
 * comes from any catalog entity, so it is walked once with indexOf rather than split into one
 * array of every entry, and no entry after the cap is parsed.
 */
function parseEntries(raw: string): ParsedEntries {
  const seen = new Set<string>();
  const refs: SecretRef[] = [];
  let read = 0;
  let notLoaded = 0;
  let start = 0;
  while (start <= raw.length) {
    const comma = raw.indexOf(',', start);
    const end = comma === -1 ? raw.length : comma;
    const entry = raw.slice(start, end).trim();
    start = end + 1;
    if (entry === '') continue;
    if (read === MAX_LINKED_SECRET_ENTRIES) {
      notLoaded++;
      continue;
    }
    read++;
    const ref = parseEntry(entry);
    if (!ref) continue;
    // No part may contain "/", so the joined form is unambiguous.
    const key = `${ref.cluster ?? ''}/${ref.namespace}/${ref.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    refs.push(ref);
  }
  return { refs, notLoaded };
}

const secretEntries = (entity: Entity, prefix: string): ParsedEntries =>
  parseEntries(
    entity.metadata.annotations?.[kryptonSecretsAnnotation(prefix)] ?? '',
  );

/**
 * Parses the entity's secrets annotation under the given prefix, up to its first
 * MAX_LINKED_SECRET_ENTRIES entries. Malformed entries are skipped rather than guessed at;
 * repeated entries are listed once.
 *
 * @public
 */
export function linkedSecrets(entity: Entity, prefix: string): SecretRef[] {
  return secretEntries(entity, prefix).refs;
}

/** A present, non-blank annotation value, trimmed. */
function annotation(entity: Entity, key: string): string | undefined {
  const value = entity.metadata.annotations?.[key]?.trim();
  return value ? value : undefined;
}

/**
 * The selector form that users of the Backstage Kubernetes plugin know: a label selector, the
 * namespace from <prefix>/secrets-namespace or backstage.io/kubernetes-namespace, and the cluster
 * from <prefix>/cluster. Krypton lists one namespace at a time, so a selector without a namespace
 * is a problem to show rather than a query over every namespace.
 */
function parseSelector(
  entity: Entity,
  names: KryptonLinkAnnotations,
): Pick<EntitySecretLinks, 'selector' | 'selectorProblem'> {
  const raw = annotation(entity, names.selector);
  if (raw === undefined) return {};
  let labelSelector: string;
  try {
    labelSelector = validateLabelSelector(raw);
  } catch (e) {
    return { selectorProblem: `${names.selector}: ${(e as Error).message}` };
  }
  const namespace =
    annotation(entity, names.namespace) ??
    annotation(entity, KUBERNETES_NAMESPACE_ANNOTATION);
  if (namespace === undefined) {
    return {
      selectorProblem: `${names.selector} needs a namespace: add ${names.namespace} or ${KUBERNETES_NAMESPACE_ANNOTATION}.`,
    };
  }
  try {
    validateNamespace(namespace);
  } catch (e) {
    return { selectorProblem: `${namespace}: ${(e as Error).message}` };
  }
  const cluster = annotation(entity, names.cluster);
  if (cluster !== undefined && !isClusterName(cluster)) {
    return { selectorProblem: `${names.cluster} is not a cluster name.` };
  }
  return {
    selector:
      cluster === undefined
        ? { namespace, labelSelector }
        : { cluster, namespace, labelSelector },
  };
}

/**
 * Every link of an entity: named Secrets and the selector, under the given prefix.
 *
 * @public
 */
export function entitySecretLinks(
  entity: Entity,
  prefix: string,
): EntitySecretLinks {
  const { refs, notLoaded } = secretEntries(entity, prefix);
  return {
    refs,
    ...(notLoaded > 0 ? { notLoaded } : {}),
    ...parseSelector(entity, kryptonLinkAnnotations(prefix)),
  };
}

/**
 * Whether the entity links any Secret: a valid named entry, or a selector annotation (an unusable
 * one too, so that its problem is shown on the tab instead of the tab silently disappearing), or
 * entries beyond the cap, which the tab reports.
 *
 * @public
 */
export function hasLinkedSecrets(entity: Entity, prefix: string): boolean {
  return hasAnyLink(entitySecretLinks(entity, prefix));
}

/**
 * Whether the links hold anything: a named Secret, entries beyond the cap, or a selector
 * annotation, usable or not.
 *
 * @public
 */
export function hasAnyLink(links: EntitySecretLinks): boolean {
  return (
    links.refs.length > 0 ||
    links.notLoaded !== undefined ||
    links.selector !== undefined ||
    links.selectorProblem !== undefined
  );
}

/**
 * What a link is matched against: where a live Secret is, and its labels.
 *
 * @public
 */
export interface LinkedSecretFacts {
  cluster: string;
  namespace: string;
  name: string;
  labels: Labels;
}

/**
 * Whether an entity's links reach this live Secret: a named entry of its cluster, namespace and
 * name, or the selector of its cluster and namespace matching its labels. An entry or selector
 * without a cluster means the default cluster, as the entity tab reads it.
 *
 * @public
 */
export function linksSecret(
  links: EntitySecretLinks,
  secret: LinkedSecretFacts,
  defaultCluster: string,
): boolean {
  const sameCluster = (cluster: string | undefined) =>
    (cluster ?? defaultCluster) === secret.cluster;
  if (
    links.refs.some(
      ref =>
        sameCluster(ref.cluster) &&
        ref.namespace === secret.namespace &&
        ref.name === secret.name,
    )
  ) {
    return true;
  }
  const selector = links.selector;
  return (
    selector !== undefined &&
    sameCluster(selector.cluster) &&
    selector.namespace === secret.namespace &&
    matchesLabelSelector(selector.labelSelector, secret.labels)
  );
}
