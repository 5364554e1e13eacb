import {
  EntitySecretLinks,
  SecretSelector,
} from '@krypton/plugin-krypton-common';
import { KryptonApi, SecretLocation } from '../../api/KryptonApi';
import { SecretRow, problemRow, summaryRow } from './secretRows';

/** The server's message of a ResponseError (Krypton's fixed text), or a failure's own message. */
export const errorMessage = (e: unknown): string =>
  e instanceof Error ? e.message : String(e);

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

async function selectedRows(
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

/**
 * Resolves an entity's links: one summary per named Secret (a failure becomes a row with the
 * server's reason) and one list for the selector. A Secret both named and selected is listed once.
 */
export async function loadLinkedSecrets(
  api: KryptonApi,
  links: EntitySecretLinks,
): Promise<LinkedSecretRows> {
  const [named, selected] = await Promise.all([
    Promise.all(links.refs.map(ref => namedRow(api, ref))),
    links.selector ? selectedRows(api, links.selector) : undefined,
  ]);
  const seen = new Set<string>();
  const rows: SecretRow[] = [];
  for (const row of [...named, ...(selected?.rows ?? [])]) {
    if (seen.has(row.id)) continue;
    seen.add(row.id);
    rows.push(row);
  }
  return { rows, selector: selected?.result };
}
