import {
  DEFAULT_NAMESPACE,
  Entity,
  parseEntityRef,
  stringifyEntityRef,
} from '@backstage/catalog-model';
import { KUBERNETES_NAMESPACE_ANNOTATION } from '@krypton/plugin-krypton-common';
import {
  LabelRequirement,
  Labels,
  WorkloadRef,
  matchesRequirements,
  tryParseLabelSelector,
} from '@krypton/core';

/** The Backstage Kubernetes plugin's annotations that tie cluster objects to an entity. */
export const KUBERNETES_ID_ANNOTATION = 'backstage.io/kubernetes-id';
export const KUBERNETES_LABEL_SELECTOR_ANNOTATION =
  'backstage.io/kubernetes-label-selector';

/**
 * The title of the last group (no entity) in the grouping's data; the UI shows the group under
 * its translated name (consumers.groups.notInCatalog) instead.
 */
export const NOT_IN_CATALOG_TITLE = 'Not in the catalog';

export interface EntityGroup<T> {
  /** The entity's ref (lowercase, as stringifyEntityRef writes it); absent for the last group. */
  entityRef?: string;
  title: string;
  workloads: T[];
}

export interface GroupByEntityOptions<T> {
  /** Catalog entities; those without either Kubernetes annotation own nothing. */
  entities: readonly Entity[];
  /** The namespace of the workloads: the Secret's, since consumers live next to it. */
  namespace: string;
  /** Whose group comes first: the entity page's entity. */
  currentEntityRef?: string;
  /**
   * The labels of an item, or undefined when they are unknown (the item then belongs to no
   * entity). Defaults to the item's own `labels`.
   */
  labelsOf?: (item: T) => Labels | undefined;
}

/** How one entity claims cluster objects, as the Kubernetes plugin's backend queries them. */
interface EntityMatcher {
  ref: string;
  title: string;
  namespace?: string;
  requirements: LabelRequirement[];
}

function annotation(entity: Entity, key: string): string | undefined {
  return entity.metadata.annotations?.[key];
}

/**
 * The Kubernetes plugin asks for `kubernetes-label-selector || backstage.io/kubernetes-id=<id ||
 * name>` in `kubernetes-namespace` when set, so the selector wins over the id, and an empty
 * selector falls back to it. A blank one is treated as empty rather than as Kubernetes' "select
 * everything", which would put every workload under one entity by accident.
 */
function matcherOf(entity: Entity): EntityMatcher | undefined {
  const selector = annotation(entity, KUBERNETES_LABEL_SELECTOR_ANNOTATION);
  const id = annotation(entity, KUBERNETES_ID_ANNOTATION);
  let requirements: LabelRequirement[] | undefined;
  if (selector?.trim()) {
    requirements = tryParseLabelSelector(selector);
  } else if (selector !== undefined || id !== undefined) {
    requirements = [
      {
        key: KUBERNETES_ID_ANNOTATION,
        op: 'equals',
        value: id || entity.metadata.name,
      },
    ];
  }
  if (!requirements) return undefined;
  const namespace = annotation(entity, KUBERNETES_NAMESPACE_ANNOTATION)?.trim();
  return {
    ref: stringifyEntityRef(entity),
    title: entityTitle(entity),
    namespace: namespace || undefined,
    requirements,
  };
}

/** A ref without the default namespace, as Backstage shows refs. */
export function humanizeRef(ref: {
  kind: string;
  namespace?: string;
  name: string;
}): string {
  const namespace = ref.namespace ?? DEFAULT_NAMESPACE;
  const kind = ref.kind.toLocaleLowerCase('en-US');
  return namespace === DEFAULT_NAMESPACE
    ? `${kind}:${ref.name}`
    : `${kind}:${namespace}/${ref.name}`;
}

/** The entity's title, else its humanized ref. */
export function entityTitle(entity: Entity): string {
  return (
    entity.metadata.title ||
    humanizeRef({
      kind: entity.kind,
      namespace: entity.metadata.namespace,
      name: entity.metadata.name,
    })
  );
}

/** Entity refs compare case-insensitively; an unparsable one matches no entity. */
export function normalizeRef(ref: string | undefined): string | undefined {
  if (!ref) return undefined;
  try {
    return stringifyEntityRef(parseEntityRef(ref));
  } catch {
    return undefined;
  }
}

function defaultLabels<T>(item: T): Labels | undefined {
  const labels = (item as { labels?: unknown }).labels;
  return typeof labels === 'object' && labels !== null
    ? (labels as Labels)
    : undefined;
}

const workloadKey = (ref: WorkloadRef) => `${ref.kind}/${ref.name}`;

/**
 * The labels of the consumers list, by kind and name: restart results carry only kind/name, and
 * a workload that the list did not show has unknown labels.
 */
export function labelsFromConsumers(
  workloads: readonly (WorkloadRef & { labels: Labels })[],
): (ref: WorkloadRef) => Labels | undefined {
  const byKey = new Map(workloads.map(w => [workloadKey(w), w.labels]));
  return ref => byKey.get(workloadKey(ref));
}

/**
 * Groups workloads (or anything naming one) under the catalog entities that own them the way the
 * Backstage Kubernetes plugin decides it. A workload owned by two entities is listed under both,
 * since either team may need to know; one owned by none goes to a last "Not in the catalog"
 * group. The current entity's group comes first, then the others by title; empty groups are left
 * out.
 */
export function groupByEntity<T>(
  items: readonly T[],
  options: GroupByEntityOptions<T>,
): EntityGroup<T>[] {
  const labelsOf = options.labelsOf ?? defaultLabels;
  const current = normalizeRef(options.currentEntityRef);
  const matchers = new Map<string, EntityMatcher>();
  for (const entity of options.entities) {
    const matcher = matcherOf(entity);
    // A catalog answer may list an entity twice (paging); one group each.
    if (matcher && !matchers.has(matcher.ref)) {
      matchers.set(matcher.ref, matcher);
    }
  }

  const groups = new Map<string, EntityGroup<T>>();
  const unmatched: T[] = [];
  for (const item of items) {
    const labels = labelsOf(item);
    let matched = false;
    if (labels) {
      for (const matcher of matchers.values()) {
        if (matcher.namespace && matcher.namespace !== options.namespace) {
          continue;
        }
        if (!matchesRequirements(matcher.requirements, labels)) continue;
        matched = true;
        let group = groups.get(matcher.ref);
        if (!group) {
          group = {
            entityRef: matcher.ref,
            title: matcher.title,
            workloads: [],
          };
          groups.set(matcher.ref, group);
        }
        group.workloads.push(item);
      }
    }
    if (!matched) unmatched.push(item);
  }

  const ordered = [...groups.values()].sort((a, b) => {
    if (a.entityRef === current) return -1;
    if (b.entityRef === current) return 1;
    return (
      a.title.localeCompare(b.title, 'en-US') ||
      (a.entityRef ?? '').localeCompare(b.entityRef ?? '', 'en-US')
    );
  });
  if (unmatched.length > 0) {
    ordered.push({ title: NOT_IN_CATALOG_TITLE, workloads: unmatched });
  }
  return ordered;
}
