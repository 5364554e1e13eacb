import { AccessRules } from './dto';
import { tryNormalizeEntityRef } from './entityRefs';

/**
 * Names of Krypton's labels and annotations under a configurable prefix.
 *
 * @public
 */
export interface KryptonKeys {
  version: string;
  description: string;
  owners: string;
  editors: string;
  viewers: string;
  managedBy: string;
  kind: string;
  /** History snapshots: the binding format and what they were taken from. */
  historyFormat: string;
  sourceUid: string;
  sourceResourceVersion: string;
  historyOf: string;
  sourceType: string;
  snapshotAt: string;
  snapshotBy: string;
  /** The field manager of a write from outside Krypton that replaced the state (kubectl-edit). */
  snapshotVia: string;
  /** The approvers of the change request whose write replaced the state (snapshot-by asked). */
  snapshotApprovedBy: string;
  /** On a snapshot, `true`: the Secret was deleted in this state (kept by the recorder). */
  finalState: string;
  /** The snapshot's data keys, so that version lists need no values. */
  keys: string;
  /** On a namespace, `true`: the recorder records every Secret of it. */
  recordSecrets: string;
  /**
   * On a live Secret, the time Krypton's delete cleaned its history, set just before its
   * conditional live DELETE: the recorder then keeps no final state (see deleteMarker.ts).
   */
  historyCleanedAt: string;
  /**
   * On a live Secret, set by its owners: how many approvals a change needs (1 to 5). It tightens
   * the configured approval rules, never loosens them.
   */
  requiredApprovals: string;
  /** On a change request's proposal Secret: the name of the live Secret it proposes values for. */
  proposalOf: string;
  /** On a proposal Secret: who asked for the change, and when. */
  proposedBy: string;
  proposedAt: string;
}

/** @public */
export function kryptonKeys(prefix: string): KryptonKeys {
  return {
    historyFormat: `${prefix}/history-format`,
    sourceUid: `${prefix}/source-uid`,
    sourceResourceVersion: `${prefix}/source-resource-version`,
    historyOf: `${prefix}/history-of`,
    sourceType: `${prefix}/source-type`,
    snapshotAt: `${prefix}/snapshot-at`,
    snapshotBy: `${prefix}/snapshot-by`,
    snapshotVia: `${prefix}/snapshot-via`,
    snapshotApprovedBy: `${prefix}/approved-by`,
    finalState: `${prefix}/final-state`,
    keys: `${prefix}/keys`,
    version: `${prefix}/version`,
    description: `${prefix}/description`,
    owners: `${prefix}/owners`,
    editors: `${prefix}/editors`,
    viewers: `${prefix}/viewers`,
    managedBy: `${prefix}/managed-by`,
    kind: `${prefix}/kind`,
    recordSecrets: `${prefix}/record-secrets`,
    historyCleanedAt: `${prefix}/history-cleaned-at`,
    requiredApprovals: `${prefix}/required-approvals`,
    proposalOf: `${prefix}/proposal-of`,
    proposedBy: `${prefix}/proposed-by`,
    proposedAt: `${prefix}/proposed-at`,
  };
}

/** @public */
export const MANAGED_BY_VALUE = 'krypton';

/**
 * Reads the app version counter. Absent or the old "0" is logically 1; anything other than a
 * canonical positive decimal integer that is still safe to increment is invalid.
 *
 * @public
 */
export function parseVersionCounter(
  raw: string | undefined,
): { ok: true; version: number } | { ok: false } {
  if (raw === undefined || raw === '0') return { ok: true, version: 1 };
  if (!/^[1-9][0-9]{0,15}$/.test(raw)) return { ok: false };
  const version = Number(raw);
  if (!Number.isSafeInteger(version + 1)) return { ok: false };
  return { ok: true, version };
}

/**
 * Reads a hand-editable ref list. Entries are normalized, so `user:alice` matches
 * `user:default/alice`; an entry that is not a user or group ref is kept as written (it matches
 * nobody), so that a list of only bad entries still counts as rules and never opens the Secret.
 */
function parseRefList(raw: string | undefined): string[] {
  if (!raw) return [];
  const refs = raw
    .split(',')
    .map(s => s.trim())
    .filter(s => s.length > 0)
    .map(s => tryNormalizeEntityRef(s) ?? s);
  return [...new Set(refs)];
}

/** @public */
export function readAccessRules(
  annotations: Record<string, string> | undefined,
  keys: KryptonKeys,
): AccessRules {
  return {
    owners: parseRefList(annotations?.[keys.owners]),
    editors: parseRefList(annotations?.[keys.editors]),
    viewers: parseRefList(annotations?.[keys.viewers]),
  };
}

/** @public */
export function hasAccessRules(rules: AccessRules): boolean {
  return rules.owners.length + rules.editors.length + rules.viewers.length > 0;
}

/**
 * Writes rules into annotations; an empty list removes its annotation.
 *
 * @public
 */
export function writeAccessRules(
  annotations: Record<string, string>,
  rules: AccessRules,
  keys: KryptonKeys,
): void {
  for (const role of ['owners', 'editors', 'viewers'] as const) {
    if (rules[role].length > 0) annotations[keys[role]] = rules[role].join(',');
    else delete annotations[keys[role]];
  }
}
