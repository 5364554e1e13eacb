import {
  EntitySecretLinks,
  SecretRef,
  SecretSelector,
} from '@krypton/plugin-krypton-common';
import { inPool } from '@krypton/core';
import { KryptonApi, SecretLocation } from '../../api/KryptonApi';
import { SecretRow, problemRow, summaryRow } from './secretRows';

/** The server's message of a ResponseError (Krypton's fixed text), or a failure's own message. */
export const errorMessage = (e: unknown): string =>
  e instanceof Error ? e.message : String(e);

/**
 * How many requests per named link (summaries, the card's histories) an entity view has in flight
 * at once: even at the link cap, the viewer's browser and the backend behind it get a steady
 * trickle rather than a burst.
 */
export const REQUESTS_IN_FLIGHT = 4;

export interface SelectorResult {
  selector: SecretSelector;
  /** How many Secrets the selector matched. */
  matched?: number;
  error?: Error;
}

export interface LinkedSecretRows {
  rows: SecretRow[];
  selector?: SelectorResult;
}

async function namedRow(
  api: KryptonApi,
  ref: SecretLocation,
): Promise<SecretRow> {
  try {
    // The summary needs only read rights, so viewers see the row without revealing values.
    return summaryRow(await api.getSecretSummary(ref), ref);
  } catch (e) {
    return problemRow(ref, errorMessage(e));
  }
}

/** One row per named Secret, in the annotation's order, through a small pool of requests. */
export function namedRows(
  api: KryptonApi,
  refs: readonly SecretRef[],
): Promise<SecretRow[]> {
  return inPool(refs, REQUESTS_IN_FLIGHT, ref => namedRow(api, ref));
}

/** The selector's Secrets as rows, from one list request; a failure is the result's error. */
export async function selectedRows(
  api: KryptonApi,
  selector: SecretSelector,
): Promise<{ rows: SecretRow[]; result: SelectorResult }> {
  try {
    const { items } = await api.listSecrets(
      { cluster: selector.cluster, namespace: selector.namespace },
      { labelSelector: selector.labelSelector },
    );
    return {
      rows: items.map(s =>
        summaryRow(s, {
          cluster: selector.cluster,
          namespace: s.namespace,
          name: s.name,
        }),
      ),
      result: { selector, matched: items.length },
    };
  } catch (e) {
    return { rows: [], result: { selector, error: e as Error } };
  }
}

/** The rows in order, each Secret once (a Secret both named and selected is one row). */
export function uniqueRows(rows: readonly SecretRow[]): SecretRow[] {
  const seen = new Set<string>();
  const unique: SecretRow[] = [];
  for (const row of rows) {
    if (seen.has(row.id)) continue;
    seen.add(row.id);
    unique.push(row);
  }
  return unique;
}

/**
 * Resolves an entity's links: one summary per named Secret (a failure becomes a row with the
 * server's reason) and one list for the selector. A Secret both named and selected is listed once.
 */
export async function loadLinkedSecrets(
  api: KryptonApi,
  links: EntitySecretLinks,
): Promise<LinkedSecretRows> {
  const [named, selected] = await Promise.all([
    namedRows(api, links.refs),
    links.selector ? selectedRows(api, links.selector) : undefined,
  ]);
  return {
    rows: uniqueRows([...named, ...(selected?.rows ?? [])]),
    selector: selected?.result,
  };
}

/**
 * The row that stands for the entries of the secrets annotation after the cap: never a Secret,
 * so its id has no "/" and cannot collide with one, and it has no location to link to.
 */
export function notLoadedRow(name: string, problem: string): SecretRow {
  return {
    id: 'not-loaded',
    location: { namespace: '', name: '' },
    cluster: '',
    namespace: '',
    name,
    pending: '',
    owners: '',
    lastChange: '',
    problem,
  };
}
