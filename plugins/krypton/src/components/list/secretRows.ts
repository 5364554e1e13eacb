import { SecretSummary } from '@krypton/plugin-krypton-common';
import { SecretLocation } from '../../api/KryptonApi';

/**
 * One line of a Secret table, flattened to text so that the table's search matches what the
 * user reads. A row with a `problem` stands for a link that did not resolve to a readable Secret.
 */
export interface SecretRow {
  /** Unique within one table. */
  id: string;
  /** Where the detail link goes: the cluster as the annotation or the picker named it. */
  location: SecretLocation;
  cluster: string;
  namespace: string;
  name: string;
  version: string;
  managed: string;
  immutable: string;
  /** The deletionTimestamp while Kubernetes deletes the Secret; empty otherwise. */
  pending: string;
  binaryKeys: string;
  owners: string;
  /**
   * When the Secret last changed (the newest managedFields time), else when it was created, as
   * RFC 3339 so that it sorts; empty when neither is known.
   */
  lastChange: string;
  status: string;
  problem?: string;
  /** The live Secret the row shows; absent on a problem row. */
  summary?: SecretSummary;
}

const NONE = '—';
const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

/** The version counter as the user should read it; null is a counter an operator must repair. */
export function formatVersion(version: number | null): string {
  return version === null ? 'invalid counter' : String(version);
}

export function summaryRow(
  summary: SecretSummary,
  location: SecretLocation,
): SecretRow {
  return {
    id: `${summary.cluster}/${summary.namespace}/${summary.name}`,
    location,
    cluster: summary.cluster,
    namespace: summary.namespace,
    name: summary.name,
    version: formatVersion(summary.version),
    managed: yesNo(summary.managed),
    immutable: yesNo(summary.immutable),
    pending: summary.deletionTimestamp ?? '',
    binaryKeys: String(summary.binaryKeys.length),
    owners: summary.access.owners.join(', ') || NONE,
    lastChange: summary.lastChange?.time ?? summary.creationTimestamp ?? '',
    status: 'Readable',
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
    version: NONE,
    managed: NONE,
    immutable: NONE,
    pending: '',
    binaryKeys: NONE,
    owners: NONE,
    lastChange: '',
    status: problem,
    problem,
  };
}
