import {
  AccessRules,
  CreateSecretRequest,
  MAX_ACCESS_REFS,
  MAX_DESCRIPTION_LENGTH,
  SERVICE_ACCOUNT_TOKEN_TYPE,
  PROPOSAL_NAME_PREFIX,
  SNAPSHOT_NAME_PREFIX,
  SecretWriteAnswer,
  UpdateSecretRequest,
  emptyMap,
  isProposalName,
  isSnapshotName,
  isWellFormedText,
  tryNormalizeEntityRef,
  validateDataKey,
  validateSecretName,
} from '@krypton/core';
import { KryptonT } from '../../translation';
import { carriesValues } from '../writeAnswer';
import { BulkMode, BulkPlan } from './bulkParse';

/** One of the lists of a Secret's access rules, as the forms edit them (owners, editors, viewers). */
export type AccessRuleList = keyof AccessRules;
export const ACCESS_RULE_LISTS: readonly AccessRuleList[] = [
  'owners',
  'editors',
  'viewers',
];

/** One text key and its value, as the user edits them. */
export interface TextRow {
  /** Stable identity for React and visibility; a key can be renamed while it is edited. */
  id: string;
  key: string;
  value: string;
}

/**
 * A binary value read from a file, only while creating a Secret (an edit never sends binary
 * data). The bytes stay as the canonical base64 the API takes; they are never shown.
 */
export interface BinaryRow {
  id: string;
  key: string;
  base64: string;
  /** The file it was read from, for the user's reference. */
  fileName: string;
  /** Decoded bytes. */
  size: number;
}

/** Every field of the form. It lives in React state only, never in browser storage. */
export interface Draft {
  name: string;
  type: string;
  description: string;
  rows: TextRow[];
  /** Binary values from files; create only. */
  binaryRows: BinaryRow[];
  immutable: boolean;
  /** Comma-separated entity refs, as typed. */
  access: Record<AccessRuleList, string>;
  /** Pasted `.env` text not yet applied. */
  bulkText: string;
  bulkMode: BulkMode;
  /** Ids of rows whose value is shown; everything else is masked. */
  revealed: string[];
}

export const DEFAULT_TYPE = 'Opaque';

let rowCounter = 0;
export function newRowId(): string {
  rowCounter += 1;
  return `row-${rowCounter}`;
}

const has = (map: Record<string, string>, key: string) =>
  Object.prototype.hasOwnProperty.call(map, key);

export const formatRefs = (refs: readonly string[]) => refs.join(', ');

export function emptyDraft(): Draft {
  return {
    name: '',
    type: DEFAULT_TYPE,
    description: '',
    rows: [{ id: newRowId(), key: '', value: '' }],
    binaryRows: [],
    immutable: false,
    access: { owners: '', editors: '', viewers: '' },
    bulkText: '',
    bulkMode: 'merge',
    revealed: [],
  };
}

/**
 * A fresh draft of a loaded Secret: every value masked, no pending paste. A Secret without values
 * (the user may not reveal them) gets no rows at all: an empty value would be a value invented
 * here, and buildUpdateRequest never sends data for such a baseline.
 */
export function draftFromSecret(secret: SecretWriteAnswer): Draft {
  const data = carriesValues(secret) ? secret.data : {};
  return {
    name: secret.name,
    type: secret.type,
    description: secret.description ?? '',
    rows: Object.keys(data).map(key => ({
      id: newRowId(),
      key,
      value: data[key],
    })),
    binaryRows: [],
    immutable: secret.immutable,
    access: {
      owners: formatRefs(secret.access.owners),
      editors: formatRefs(secret.access.editors),
      viewers: formatRefs(secret.access.viewers),
    },
    bulkText: '',
    bulkMode: 'merge',
    revealed: [],
  };
}

/** A row left completely empty is a spare input, not a key. */
export const isBlankRow = (row: TextRow) => row.key === '' && row.value === '';

/** Whether a create draft holds anything the user typed, which closing it would lose. */
export function createDraftHasInput(draft: Draft): boolean {
  return (
    draft.name !== '' ||
    draft.type !== DEFAULT_TYPE ||
    draft.description !== '' ||
    draft.immutable ||
    draft.bulkText.trim() !== '' ||
    draft.rows.some(row => !isBlankRow(row)) ||
    draft.binaryRows.length > 0 ||
    Object.values(draft.access).some(refs => refs.trim() !== '')
  );
}

/** The text values of the draft. Rows with problems are reported by validateDraft. */
export function draftTextData(draft: Draft): Record<string, string> {
  const data = emptyMap<string>();
  for (const row of draft.rows) {
    if (!isBlankRow(row)) data[row.key] = row.value;
  }
  return data;
}

/** The binary values of the draft, as canonical base64 by key. */
export function draftBinaryData(draft: Draft): Record<string, string> {
  const data = emptyMap<string>();
  for (const row of draft.binaryRows) {
    if (row.key !== '') data[row.key] = row.base64;
  }
  return data;
}

/**
 * Browsers turn CR and CRLF into LF in text areas and drop line breaks from single-line inputs.
 * A value with a CR is therefore shown but not editable here, so an edit never rewrites it.
 */
export const isBrowserEditable = (value: string) => !value.includes('\r');

/** Splits comma-separated refs; empty items (a trailing comma) are ignored. */
export function splitRefs(text: string): string[] {
  return text
    .split(',')
    .map(ref => ref.trim())
    .filter(ref => ref !== '');
}

function normalizedRefs(text: string): string[] | undefined {
  const out: string[] = [];
  for (const ref of splitRefs(text)) {
    const normal = tryNormalizeEntityRef(ref);
    if (normal === undefined) return undefined;
    if (!out.includes(normal)) out.push(normal);
  }
  return out;
}

function sameRefs(a: readonly string[], b: readonly string[]): boolean {
  const normalB = b.map(ref => tryNormalizeEntityRef(ref) ?? ref);
  return a.length === normalB.length && a.every(ref => normalB.includes(ref));
}

export function sameTextData(
  a: Record<string, string>,
  b: Record<string, string>,
): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every(key => has(b, key) && b[key] === a[key]);
}

export interface DraftErrors {
  name?: string;
  type?: string;
  description?: string;
  /** By row id, for text and binary rows. */
  rows: Record<string, string>;
  access: Partial<Record<AccessRuleList, string>>;
}

export interface DraftContext {
  mode: 'create' | 'edit';
  /** Keys of binary values, which text rows may not take. */
  binaryKeys: readonly string[];
  canEditAccess: boolean;
}

/** A rule's own text from the core (the API answers with the same), or the fallback. */
function message(e: unknown, fallback: string): string {
  return e instanceof Error ? e.message : fallback;
}

export function validateDraft(
  draft: Draft,
  ctx: DraftContext,
  t: KryptonT,
): DraftErrors {
  const errors: DraftErrors = { rows: {}, access: {} };
  if (ctx.mode === 'create') {
    if (draft.name === '') errors.name = t('edit.validation.enterName');
    else {
      try {
        validateSecretName(draft.name);
        if (isSnapshotName(draft.name)) {
          errors.name = t('edit.validation.reservedName', {
            prefix: SNAPSHOT_NAME_PREFIX,
          });
        } else if (isProposalName(draft.name)) {
          errors.name = t('edit.validation.reservedProposalName', {
            prefix: PROPOSAL_NAME_PREFIX,
          });
        }
      } catch (e) {
        errors.name = message(e, t('edit.validation.invalidName'));
      }
    }
    if (draft.type.trim() === '') errors.type = t('edit.validation.enterType');
    else if (draft.type.trim() === SERVICE_ACCOUNT_TOKEN_TYPE) {
      errors.type = t('edit.validation.serviceAccountToken');
    }
  }
  if (draft.description.length > MAX_DESCRIPTION_LENGTH) {
    errors.description = t('edit.validation.descriptionTooLong', {
      max: String(MAX_DESCRIPTION_LENGTH),
    });
  } else if (!isWellFormedText(draft.description)) {
    errors.description = t('edit.validation.descriptionNotText');
  }

  const seen = new Set<string>();
  /** The problem of a row's key, or undefined; records the key as seen. */
  const keyProblem = (key: string): string | undefined => {
    if (key === '') return t('edit.validation.enterKey');
    try {
      validateDataKey(key);
    } catch (e) {
      return message(e, t('edit.validation.invalidKey'));
    }
    if (seen.has(key)) return t('edit.validation.duplicateKey');
    seen.add(key);
    return undefined;
  };
  for (const row of draft.rows) {
    if (isBlankRow(row)) continue;
    const problem = keyProblem(row.key);
    if (problem !== undefined) {
      errors.rows[row.id] = problem;
    } else if (ctx.binaryKeys.includes(row.key)) {
      errors.rows[row.id] = t('edit.validation.binaryKey');
    } else if (!isWellFormedText(row.value)) {
      errors.rows[row.id] = t('edit.validation.valueNotText');
    }
  }
  for (const row of draft.binaryRows) {
    const problem =
      ctx.mode === 'create'
        ? keyProblem(row.key)
        : t('edit.validation.binaryOnCreateOnly');
    if (problem !== undefined) errors.rows[row.id] = problem;
  }

  if (ctx.canEditAccess) {
    for (const role of ACCESS_RULE_LISTS) {
      const refs = splitRefs(draft.access[role]);
      const bad = refs.find(ref => tryNormalizeEntityRef(ref) === undefined);
      if (bad !== undefined) {
        errors.access[role] = t('edit.validation.notARef', {
          ref: bad.slice(0, 64),
        });
      } else if (refs.length > MAX_ACCESS_REFS) {
        errors.access[role] = t('edit.validation.tooManyRefs', {
          max: String(MAX_ACCESS_REFS),
        });
      }
    }
  }
  return errors;
}

export function hasErrors(errors: DraftErrors): boolean {
  return (
    errors.name !== undefined ||
    errors.type !== undefined ||
    errors.description !== undefined ||
    Object.keys(errors.rows).length > 0 ||
    Object.keys(errors.access).length > 0
  );
}

/**
 * The PUT body: the pinned revision plus only what the draft changed. Text values go as `data`
 * and `binaryData` is never sent, so the backend keeps every binary value; unchanged data is
 * omitted, which makes the edit metadata-only and keeps the raw map byte for byte. A baseline
 * without values never sends data: the draft has nothing to compare with, and sending its (empty)
 * rows would erase the Secret's values.
 */
export function buildUpdateRequest(
  draft: Draft,
  baseline: SecretWriteAnswer,
  canEditAccess: boolean,
): UpdateSecretRequest {
  const request: UpdateSecretRequest = {
    resourceVersion: baseline.resourceVersion,
  };
  // A binary-containing Secret's values are read-only in the form (the spec leaves its bytes to
  // Kubernetes tooling), so its edit never sends data.
  if (carriesValues(baseline) && baseline.binaryKeys.length === 0) {
    const data = draftTextData(draft);
    if (!sameTextData(data, baseline.data)) request.data = data;
  }
  if (draft.description !== (baseline.description ?? '')) {
    request.description = draft.description;
  }
  // Kubernetes cannot make an immutable Secret mutable again, so only the switch on is sent, and
  // only by an owner: the backend asks for manageAccess then, and an editor's ordinary edit must
  // never carry the field and so need owner rights.
  if (canEditAccess && draft.immutable && !baseline.immutable) {
    request.immutable = true;
  }
  if (canEditAccess) {
    const access: Partial<AccessRules> = {};
    for (const role of ACCESS_RULE_LISTS) {
      const refs = normalizedRefs(draft.access[role]);
      if (refs !== undefined && !sameRefs(refs, baseline.access[role])) {
        access[role] = refs;
      }
    }
    if (Object.keys(access).length > 0) request.access = access;
  }
  return request;
}

/** Whether an update request would change anything beyond naming the revision. */
export const updateChangesSomething = (request: UpdateSecretRequest) =>
  Object.keys(request).some(key => key !== 'resourceVersion');

export function buildCreateRequest(
  draft: Draft,
  canEditAccess: boolean,
): CreateSecretRequest {
  const request: CreateSecretRequest = {
    name: draft.name,
    type: draft.type.trim(),
    data: draftTextData(draft),
  };
  if (draft.binaryRows.length > 0) request.binaryData = draftBinaryData(draft);
  if (draft.description !== '') request.description = draft.description;
  if (draft.immutable) request.immutable = true;
  if (canEditAccess) {
    const access: Partial<AccessRules> = {};
    for (const role of ACCESS_RULE_LISTS) {
      const refs = normalizedRefs(draft.access[role]);
      if (refs !== undefined && refs.length > 0) access[role] = refs;
    }
    // Roles left empty are not sent, so the backend's defaults for a new Secret apply.
    if (Object.keys(access).length > 0) request.access = access;
  }
  return request;
}

/**
 * Applies a bulk plan to the rows: existing rows keep their place and identity, new keys are
 * appended, removed keys (replace mode) are dropped, and the pending paste is cleared.
 */
export function applyBulkPlan(draft: Draft, plan: BulkPlan): Draft {
  const removed = new Set(plan.removed);
  const rows: TextRow[] = [];
  for (const row of draft.rows) {
    if (isBlankRow(row) || removed.has(row.key)) continue;
    rows.push(
      has(plan.result, row.key) ? { ...row, value: plan.result[row.key] } : row,
    );
  }
  for (const key of plan.added) {
    rows.push({ id: newRowId(), key, value: plan.result[key] });
  }
  const kept = new Set(rows.map(row => row.id));
  return {
    ...draft,
    rows: rows.length > 0 ? rows : [{ id: newRowId(), key: '', value: '' }],
    bulkText: '',
    revealed: draft.revealed.filter(id => kept.has(id)),
  };
}
