import { SecretListItem, SecretSummary, isSecretSummary } from '@krypton/core';
import { SecretLocation } from '../../api/KryptonApi';
import { KryptonT } from '../../translation';

/**
 * One line of a Secret table, as data: the table words it (SecretTable's `shownRow`), so that its
 * search matches what the user reads in their language. A row with a `problem` stands for a link
 * that did not resolve to a readable Secret.
 */
export interface SecretRow {
  /** Unique within one table. */
  id: string;
  /** Where the detail link goes: the cluster as the annotation or the picker named it. */
  location: SecretLocation;
  cluster: string;
  namespace: string;
  name: string;
  /** The deletionTimestamp while Kubernetes deletes the Secret; empty otherwise. */
  pending: string;
  /** The owners' refs, comma-separated; empty when there are none. */
  owners: string;
  /**
   * When the Secret last changed (the newest managedFields time), else when it was created, as
   * RFC 3339 so that it sorts; empty when neither is known.
   */
  lastChange: string;
  /** The server's fixed message for a link that did not resolve. */
  problem?: string;
  /**
   * The live Secret the row shows; absent on a problem row. A named ref's row has its summary; a
   * list's row has a list item, which knows the key count only, not the key names, the binary keys
   * or immutability.
   */
  summary?: RowSecret;
}

/** What a readable row knows of its Secret: a summary, or a list item. */
export type RowSecret = SecretSummary | SecretListItem;

/** How many keys the Secret has, from either view. */
export function keyCountOf(secret: RowSecret): number {
  return isSecretSummary(secret) ? secret.keys.length : secret.keyCount;
}

/** The version counter as the user should read it; null is a counter an operator must repair. */
export function formatVersion(t: KryptonT, version: number | null): string {
  return version === null ? t('list.invalidCounter') : String(version);
}

export function summaryRow(
  summary: RowSecret,
  location: SecretLocation,
): SecretRow {
  return {
    id: `${summary.cluster}/${summary.namespace}/${summary.name}`,
    location,
    cluster: summary.cluster,
    namespace: summary.namespace,
    name: summary.name,
    pending: summary.deletionTimestamp ?? '',
    owners: summary.access.owners.join(', '),
    lastChange: summary.lastChange?.time ?? summary.creationTimestamp ?? '',
    summary,
  };
}

/** A link that the backend refused or could not find, with its message as the reason. */
export function problemRow(
  location: SecretLocation,
  problem: string,
): SecretRow {
  return {
    id: `${location.cluster ?? ''}/${location.namespace}/${location.name}`,
    location,
    cluster: location.cluster ?? '',
    namespace: location.namespace,
    name: location.name,
    pending: '',
    owners: '',
    lastChange: '',
    problem,
  };
}

const NONE = '—';

/** A row with the words the table shows and searches, in the user's language. */
export interface ShownSecretRow extends SecretRow {
  version: string;
  status: string;
  ownersText: string;
}

export function shownRow(t: KryptonT, row: SecretRow): ShownSecretRow {
  const { summary } = row;
  if (!summary) {
    return {
      ...row,
      version: NONE,
      status: row.problem ?? '',
      ownersText: NONE,
    };
  }
  return {
    ...row,
    version: formatVersion(t, summary.version),
    status: row.pending ? t('list.status.deleting') : t('list.status.readable'),
    ownersText: row.owners || NONE,
  };
}
