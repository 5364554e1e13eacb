import { EntitySecretLinks } from '@krypton/plugin-krypton-common';
import { inPool } from '@krypton/core';
import { KryptonApi, SecretLocation } from '../../api/KryptonApi';
import {
  REQUESTS_IN_FLIGHT,
  SelectorResult,
  errorMessage,
  namedRows,
  selectedRows,
  uniqueRows,
} from '../list/loadLinkedSecrets';
import { SecretRow } from '../list/secretRows';

/**
 * How many linked Secrets the card shows, each costing one history request: an entity that
 * links many Secrets must not make its overview page fan out into a request storm.
 */
export const OVERVIEW_LIMIT = 10;

/** The last change of values through Krypton, as its newest history version recorded it. */
export type LastChange =
  | { kind: 'change'; by: string; at: string; version: number }
  /** No version yet: Krypton has not changed the values since the history began. */
  | { kind: 'none' }
  /** The history route refused or failed; the message says why. */
  | { kind: 'unknown'; reason: string };

export interface OverviewRow {
  row: SecretRow;
  /** Absent for a link that did not resolve (the row's problem says why). */
  lastChange?: LastChange;
}

export interface Overview {
  rows: OverviewRow[];
  /** Linked Secrets beyond the limit, not shown. */
  more: number;
  selector?: SelectorResult;
}

async function lastChangeOf(
  api: KryptonApi,
  location: SecretLocation,
): Promise<LastChange> {
  try {
    // Newest first: the newest version holds the state the last change replaced, and records
    // who made that change and when.
    const [newest] = (await api.listVersions(location)).items;
    return newest
      ? {
          kind: 'change',
          by: newest.snapshotBy,
          at: newest.snapshotAt,
          version: newest.version,
        }
      : { kind: 'none' };
  } catch (e) {
    return { kind: 'unknown', reason: errorMessage(e) };
  }
}

/** A link as the annotation wrote it; only the loaded rows know the default cluster's name. */
const locationKey = ({ cluster, namespace, name }: SecretLocation) =>
  `${cluster ?? ''}/${namespace}/${name}`;

/**
 * The entity's linked Secrets in the entity tab's order, the first OVERVIEW_LIMIT with their last
 * change. Only the named Secrets the card shows are requested: the others are counted from the
 * annotation. Failures stay per row, so one unreadable Secret never hides the others.
 */
export async function loadOverview(
  api: KryptonApi,
  links: EntitySecretLinks,
): Promise<Overview> {
  const named = links.refs.slice(0, OVERVIEW_LIMIT);
  const [requested, selected] = await Promise.all([
    namedRows(api, named),
    links.selector ? selectedRows(api, links.selector) : undefined,
  ]);
  // A selected Secret that an unrequested entry names is counted once, with that entry. Matched by
  // how the entry wrote it, a Secret named with its cluster and selected without it (or the other
  // way round) is counted twice: "more" is a hint, and knowing better would cost the requests
  // this card exists to avoid.
  const unrequested = new Set(links.refs.slice(named.length).map(locationKey));
  const candidates = uniqueRows([
    ...requested,
    ...(selected?.rows ?? []).filter(
      row => !unrequested.has(locationKey(row.location)),
    ),
  ]);
  const shown = candidates.slice(0, OVERVIEW_LIMIT);
  const rows = await inPool(
    shown,
    REQUESTS_IN_FLIGHT,
    async (row): Promise<OverviewRow> =>
      row.problem
        ? { row }
        : { row, lastChange: await lastChangeOf(api, row.location) },
  );
  return {
    rows,
    more: unrequested.size + candidates.length - shown.length,
    selector: selected?.result,
  };
}
