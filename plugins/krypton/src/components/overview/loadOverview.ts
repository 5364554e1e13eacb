import { EntitySecretLinks } from '@krypton/plugin-krypton-common';
import { KryptonApi, SecretLocation } from '../../api/KryptonApi';
import {
  SelectorResult,
  errorMessage,
  loadLinkedSecrets,
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

/**
 * The entity's linked Secrets as the entity tab resolves them, the first OVERVIEW_LIMIT with
 * their last change. Failures stay per row, so one unreadable Secret never hides the others.
 */
export async function loadOverview(
  api: KryptonApi,
  links: EntitySecretLinks,
): Promise<Overview> {
  const linked = await loadLinkedSecrets(api, links);
  const shown = linked.rows.slice(0, OVERVIEW_LIMIT);
  const rows = await Promise.all(
    shown.map(
      async (row): Promise<OverviewRow> =>
        row.problem
          ? { row }
          : { row, lastChange: await lastChangeOf(api, row.location) },
    ),
  );
  return {
    rows,
    more: linked.rows.length - shown.length,
    selector: linked.selector,
  };
}
