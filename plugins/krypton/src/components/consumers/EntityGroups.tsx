import { Entity, parseEntityRef } from '@backstage/catalog-model';
import { EntityRefLink } from '@backstage/plugin-catalog-react';
import { Labels } from '@krypton/core';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { ReactNode, useMemo } from 'react';
import { useKryptonT } from '../../translation';
import { groupByEntity, humanizeRef, normalizeRef } from './groupByEntity';

export interface EntityGroupsProps<T> {
  items: readonly T[];
  /** The catalog's Kubernetes-annotated entities; undefined shows one ungrouped list. */
  entities?: readonly Entity[];
  namespace: string;
  currentEntityRef?: string;
  labelsOf?: (item: T) => Labels | undefined;
  /** One group's items; `title` names the group for the table's accessible name. */
  render: (items: T[], title?: string) => ReactNode;
}

/**
 * Items under a heading per catalog entity, the current entity's first; each heading links to
 * its entity's page.
 */
export function EntityGroups<T>(props: EntityGroupsProps<T>) {
  const { items, entities, namespace, currentEntityRef, labelsOf, render } =
    props;
  const t = useKryptonT();
  const groups = useMemo(
    () =>
      entities
        ? groupByEntity(items, {
            entities,
            namespace,
            currentEntityRef,
            labelsOf,
          })
        : undefined,
    [items, entities, namespace, currentEntityRef, labelsOf],
  );
  if (!groups) return <>{render([...items])}</>;
  const current = normalizeRef(currentEntityRef);
  // The ref under a custom title, so that two entities with one title can be told apart.
  const refCaption = (ref: string, title: string) =>
    humanizeRef(parseEntityRef(ref)).toLocaleLowerCase('en-US') ===
    title.toLocaleLowerCase('en-US')
      ? undefined
      : ref;
  return (
    <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
      {groups.map(group => {
        // The workloads of no entity: the grouping's title in the user's words.
        const title =
          group.entityRef === undefined
            ? t('consumers.groups.notInCatalog')
            : group.title;
        return (
          <Box component="section" key={group.entityRef ?? ''}>
            <Typography variant="subtitle1" component="h3">
              {group.entityRef !== undefined ? (
                // The entity's page, under the title the grouping gave it.
                <EntityRefLink entityRef={group.entityRef}>
                  {title}
                </EntityRefLink>
              ) : (
                title
              )}
              {group.entityRef !== undefined && group.entityRef === current && (
                <Typography
                  component="span"
                  variant="body2"
                  color="textSecondary"
                >
                  {` ${t('consumers.groups.thisEntity')}`}
                </Typography>
              )}
            </Typography>
            {group.entityRef && refCaption(group.entityRef, group.title) && (
              <Typography variant="caption" color="textSecondary">
                {group.entityRef}
              </Typography>
            )}
            {render(group.workloads, title)}
          </Box>
        );
      })}
    </Box>
  );
}
