import {
  AccessRules,
  AdoptSecretRequest,
  CreateSecretRequest,
  RecreateRequest,
  OwnedEditReason,
  RestoreRequest,
  SecretFields,
  UpdateSecretRequest,
} from './dto';
import { parseChangeText } from './approval/changeRequest';
import { decodeUtf8, emptyMap, isBase64, isWellFormedText } from './encoding';
import { tryNormalizeEntityRef } from './entityRefs';
import { KryptonError, messages } from './errors';
import { formatLabelSelector, parseLabelSelector } from './labelSelector';
import {
  MAX_ACCESS_REFS,
  MAX_DESCRIPTION_LENGTH,
  PROPOSAL_NAME_PREFIX,
  SNAPSHOT_NAME_PREFIX,
} from './limits';

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN =
  /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DATA_KEY = /^[-._a-zA-Z0-9]+$/;
const MAX_DATA_KEY_LENGTH = 253;
const SECRET_TYPE = /^[A-Za-z0-9]([-A-Za-z0-9_./]*[A-Za-z0-9])?$/;

const invalid = (message: string) =>
  new KryptonError('invalid_request', message);

/** @public */
export function validateNamespace(value: string): string {
  if (value.length > 63 || !DNS_LABEL.test(value)) {
    throw invalid(
      'Invalid namespace: use a DNS label of at most 63 lowercase characters.',
    );
  }
  return value;
}

/**
 * Whether text is a DNS subdomain of at most 253 characters: the name of a Secret and of most
 * namespaced objects.
 *
 * @public
 */
export function isDnsSubdomain(value: string): boolean {
  return value.length <= 253 && DNS_SUBDOMAIN.test(value);
}

/** @public */
export function validateSecretName(value: string): string {
  if (!isDnsSubdomain(value)) {
    throw invalid(
      'Invalid Secret name: use a DNS subdomain of at most 253 lowercase characters.',
    );
  }
  return value;
}

/**
 * Storage names of history snapshots. They are never served through named-Secret routes.
 *
 * @public
 */
export function isSnapshotName(name: string): boolean {
  return name.startsWith(SNAPSHOT_NAME_PREFIX);
}

/**
 * Storage names of change requests' proposal Secrets.
 *
 * @public
 */
export function isProposalName(name: string): boolean {
  return name.startsWith(PROPOSAL_NAME_PREFIX);
}

/**
 * Names of Krypton's own stored objects (history snapshots and change proposals): they are never
 * live Secrets, are never served through named-Secret routes and cannot be chosen for a new one.
 *
 * @public
 */
export function isKryptonStorageName(name: string): boolean {
  return isSnapshotName(name) || isProposalName(name);
}

/** The rule for a Secret's keys, as Kubernetes judges them (IsConfigMapKey). */
function isDataKey(key: string): boolean {
  return (
    key.length > 0 &&
    // Checked before the pattern, so that a hostile key costs no scan beyond its length.
    key.length <= MAX_DATA_KEY_LENGTH &&
    DATA_KEY.test(key) &&
    key !== '.' &&
    // Kubernetes refuses ".." and every key that starts with it.
    !key.startsWith('..')
  );
}

/** @public */
export function validateDataKey(key: string): void {
  if (!isDataKey(key)) {
    throw invalid(
      'Invalid key: use at most 253 letters, digits, "-", "_" and "."; "." is not allowed, nor a key that starts with "..".',
    );
  }
}

/**
 * The most keys one `?keys=` may name. A Secret holds at most 1 MiB, so a reader who needs more
 * values than this needs the whole Secret, which the request without `keys` gives; the bound keeps
 * what a hostile query costs, in time and in audit meta, to a fixed multiple of its length.
 *
 * @public
 */
export const MAX_REQUESTED_KEYS = 1000;

/** The longest valid list: MAX_REQUESTED_KEYS keys of the longest length, with commas between. */
const MAX_KEY_LIST_LENGTH = MAX_REQUESTED_KEYS * (MAX_DATA_KEY_LENGTH + 1) - 1;

/**
 * The keys of a `?keys=` query: comma-separated valid Secret keys, at least one, each at most once
 * and at most MAX_REQUESTED_KEYS of them, returned in the order given. Anything else (an empty
 * list, an empty entry, a trailing comma, an invalid key, a repeated key, too many) is a 400 with
 * one fixed message. A repeated key is refused rather than merged, as a repeated query parameter
 * is: the list that is audited is then the list that was sent. The scan is linear in the input
 * and stops at the first fault; input longer than any valid list is refused before it is read.
 *
 * @public
 */
export function parseSecretKeyList(raw: string): string[] {
  if (raw.length === 0 || raw.length > MAX_KEY_LIST_LENGTH) {
    throw invalid(messages.invalidKeyList);
  }
  const keys: string[] = [];
  const seen = new Set<string>();
  for (let start = 0; ; ) {
    const comma = raw.indexOf(',', start);
    const key = raw.slice(start, comma < 0 ? raw.length : comma);
    if (
      keys.length === MAX_REQUESTED_KEYS ||
      !isDataKey(key) ||
      seen.has(key)
    ) {
      throw invalid(messages.invalidKeyList);
    }
    seen.add(key);
    keys.push(key);
    if (comma < 0) return keys;
    start = comma + 1;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function rejectUnknownFields(
  body: Record<string, unknown>,
  allowed: readonly string[],
) {
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) {
      throw invalid(`Unknown field "${key.slice(0, 64)}" in the request body.`);
    }
  }
}

/** Reads a key-to-value map; checkValue returns an error text for a bad value. */
function readValueMap(
  value: unknown,
  field: string,
  kind: string,
  checkValue: (v: string) => string | undefined,
): Record<string, string> {
  if (!isPlainObject(value)) {
    throw invalid(`"${field}" must be an object of key to ${kind} value.`);
  }
  const out = emptyMap<string>();
  for (const key of Object.keys(value)) {
    validateDataKey(key);
    const v = value[key];
    if (typeof v !== 'string')
      throw invalid(`"${field}" values must be strings.`);
    const problem = checkValue(v);
    if (problem) throw invalid(`"${field}" values must be ${problem}.`);
    out[key] = v;
  }
  return out;
}

const readTextMap = (value: unknown, field: string) =>
  readValueMap(value, field, 'text', v =>
    isWellFormedText(v) ? undefined : 'well-formed Unicode text',
  );

const readBase64Map = (value: unknown, field: string) =>
  readValueMap(value, field, 'base64', v =>
    isBase64(v) ? undefined : 'canonical base64',
  );

function readOptionalString(
  body: Record<string, unknown>,
  field: string,
  max: number,
): string | undefined {
  const v = body[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v.length > max || !isWellFormedText(v)) {
    throw invalid(`"${field}" must be a string of at most ${max} characters.`);
  }
  return v;
}

/**
 * A Kubernetes Secret type such as Opaque or kubernetes.io/tls.
 *
 * @public
 */
export function validateSecretType(v: unknown): string {
  if (typeof v !== 'string' || v.length > 253 || !SECRET_TYPE.test(v)) {
    throw invalid('"type" must be a Kubernetes Secret type such as Opaque.');
  }
  return v;
}

function readType(body: Record<string, unknown>): string | undefined {
  return body.type === undefined ? undefined : validateSecretType(body.type);
}

function readBoolean(
  body: Record<string, unknown>,
  field: string,
): boolean | undefined {
  const v = body[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean')
    throw invalid(`"${field}" must be true or false.`);
  return v;
}

/**
 * Normalizes a user or group entity ref from a request; anything else is a 400.
 *
 * @public
 */
export function normalizeEntityRef(ref: unknown): string {
  const normal =
    typeof ref === 'string' ? tryNormalizeEntityRef(ref) : undefined;
  if (normal === undefined) {
    throw invalid(
      'Access rules may only list user and group entity refs such as user:default/alice.',
    );
  }
  return normal;
}

function readAccess(value: unknown): Partial<AccessRules> | undefined {
  if (value === undefined) return undefined;
  if (!isPlainObject(value))
    throw invalid(
      '"access" must be an object with owners, editors and viewers.',
    );
  rejectUnknownFields(value, ['owners', 'editors', 'viewers']);
  const out: Partial<AccessRules> = {};
  for (const role of ['owners', 'editors', 'viewers'] as const) {
    const list = value[role];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.length > MAX_ACCESS_REFS) {
      throw invalid(
        `"access.${role}" must be a list of at most ${MAX_ACCESS_REFS} entity refs.`,
      );
    }
    out[role] = [...new Set(list.map(normalizeEntityRef))];
  }
  return out;
}

/** ResourceVersions are opaque: any short run of visible ASCII, never parsed or compared. */
function readResourceVersionValue(v: unknown, label: string): string {
  if (
    typeof v !== 'string' ||
    v.length === 0 ||
    v.length > 128 ||
    !/^[\x21-\x7e]+$/.test(v)
  ) {
    throw invalid(
      `${label} is required: send the metadata.resourceVersion you loaded.`,
    );
  }
  return v;
}

function readResourceVersion(body: Record<string, unknown>): string {
  return readResourceVersionValue(body.resourceVersion, '"resourceVersion"');
}

function requireObject(body: unknown): Record<string, unknown> {
  if (!isPlainObject(body))
    throw invalid('The request body must be a JSON object.');
  return body;
}

const SECRET_FIELDS = [
  'type',
  'data',
  'binaryData',
  'immutable',
  'description',
  'access',
] as const;

function readSecretFields(body: Record<string, unknown>): SecretFields {
  return {
    type: readType(body),
    data: body.data === undefined ? undefined : readTextMap(body.data, 'data'),
    binaryData:
      body.binaryData === undefined
        ? undefined
        : readBase64Map(body.binaryData, 'binaryData'),
    immutable: readBoolean(body, 'immutable'),
    description: readOptionalString(
      body,
      'description',
      MAX_DESCRIPTION_LENGTH,
    ),
    access: readAccess(body.access),
  };
}

/** @public */
export function parseCreateRequest(raw: unknown): CreateSecretRequest {
  const body = requireObject(raw);
  rejectUnknownFields(body, ['name', ...SECRET_FIELDS]);
  if (typeof body.name !== 'string') throw invalid('"name" is required.');
  const name = validateSecretName(body.name);
  // A live Secret with a snapshot's name would be hidden everywhere, and could take the slot of
  // another Secret's future snapshot.
  if (isSnapshotName(name)) {
    throw invalid(
      `Names starting with "${SNAPSHOT_NAME_PREFIX}" are reserved for Krypton's history snapshots.`,
    );
  }
  if (isProposalName(name)) {
    throw invalid(
      `Names starting with "${PROPOSAL_NAME_PREFIX}" are reserved for Krypton's change requests.`,
    );
  }
  return { name, ...readSecretFields(body) };
}

/** Whether text holds a C0 or C1 control character or a line or paragraph separator. */
function breaksLine(v: string): boolean {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0x2028 || c === 0x2029)
      return true;
  }
  return false;
}

/**
 * The longest reason for an edit of an owned Secret, in UTF-16 code units.
 *
 * @public
 */
export const MAX_OWNED_EDIT_REASON = 500;

/**
 * What is wrong with a reason for changing a Secret that another tool owns: `required` when it
 * holds only blanks, `tooLong` past MAX_OWNED_EDIT_REASON, `oneLine` with a control character, a
 * line or paragraph separator or half a surrogate pair (it is shown on one line in audit events
 * and notifications). Undefined for a good reason. The backend refuses by it and the portal checks
 * by it before sending.
 *
 * @public
 */
export type OwnedEditReasonProblem = 'required' | 'tooLong' | 'oneLine';

/** @public */
export function ownedEditReasonProblem(
  reason: string,
): OwnedEditReasonProblem | undefined {
  if (reason.trim().length === 0) return 'required';
  if (reason.length > MAX_OWNED_EDIT_REASON) return 'tooLong';
  if (breaksLine(reason) || !isWellFormedText(reason)) return 'oneLine';
  return undefined;
}

/**
 * The reason for changing a Secret that another tool owns, from a body field or the query
 * (ownedEditReasonProblem).
 *
 * @public
 */
export function parseOwnedEditReason(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || ownedEditReasonProblem(v) !== undefined) {
    throw invalid(
      `"ownedEditReason" must be a reason of 1 to ${MAX_OWNED_EDIT_REASON} characters, on one line.`,
    );
  }
  return v;
}

const withReason = (body: Record<string, unknown>): OwnedEditReason => {
  const reason = parseOwnedEditReason(body.ownedEditReason);
  return reason === undefined ? {} : { ownedEditReason: reason };
};

/**
 * The body of a delete, which is optional: at most the reason for deleting a Secret that another
 * tool owns, which is the user's free text and so never goes in the URL.
 *
 * @public
 */
export function parseDeleteBody(raw: unknown): OwnedEditReason {
  if (raw === undefined) return {};
  const body = requireObject(raw);
  rejectUnknownFields(body, ['ownedEditReason']);
  return withReason(body);
}

/**
 * The body of a decision on a change request: `{ comment? }` (`{ reason }` for a bypass), the text
 * read by parseChangeText; no body is an empty one.
 *
 * @public
 */
export function parseChangeTextBody(
  raw: unknown,
  field: 'comment' | 'reason',
  required: boolean,
): string {
  const body = raw === undefined ? {} : requireObject(raw);
  rejectUnknownFields(body, [field]);
  return parseChangeText(body[field], field, required);
}

/** @public */
export function parseUpdateRequest(raw: unknown): UpdateSecretRequest {
  const body = requireObject(raw);
  rejectUnknownFields(body, [
    'resourceVersion',
    'ownedEditReason',
    ...SECRET_FIELDS,
  ]);
  return {
    resourceVersion: readResourceVersion(body),
    ...readSecretFields(body),
    ...withReason(body),
  };
}

/** @public */
export function parseAdoptRequest(raw: unknown): AdoptSecretRequest {
  const body = requireObject(raw);
  rejectUnknownFields(body, [
    'resourceVersion',
    'description',
    'access',
    'ownedEditReason',
  ]);
  return {
    resourceVersion: readResourceVersion(body),
    description: readOptionalString(
      body,
      'description',
      MAX_DESCRIPTION_LENGTH,
    ),
    access: readAccess(body.access),
    ...withReason(body),
  };
}

/**
 * A JSON request body from its raw bytes. Bytes that are not UTF-8 are refused rather than turned
 * into U+FFFD, which would then be stored as if the client had sent it.
 *
 * @public
 */
export function parseJsonBody(bytes: Uint8Array): unknown {
  const text = decodeUtf8(bytes);
  if (text === undefined) throw invalid('The request body is not valid UTF-8.');
  try {
    // A leading BOM is not JSON; strict parsers refuse it too.
    return JSON.parse(text);
  } catch {
    throw invalid('The request body is not valid JSON.');
  }
}

/**
 * How one query parameter is read. `keyList` is a list of Secret keys (parseSecretKeyList), whose
 * fixed refusal names the one parameter of that type, `keys`.
 *
 * @public
 */
export type QueryParameterType =
  | 'resourceVersion'
  | 'boolean'
  | 'text'
  | 'keyList';
/** @public */
export type QuerySchema = Record<string, QueryParameterType>;
/** @public */
export type ParsedQuery<S extends QuerySchema> = {
  [K in keyof S]?: S[K] extends 'boolean'
    ? boolean
    : S[K] extends 'keyList'
    ? string[]
    : string;
};

/**
 * Reads a route's query parameters. Each route declares the parameters it takes; an unknown,
 * repeated or malformed one is a 400, never silently ignored.
 *
 * @public
 */
export function parseQuery<S extends QuerySchema>(
  query: Record<string, unknown>,
  schema: S,
): ParsedQuery<S> {
  const out: Record<string, string | boolean | string[]> = {};
  for (const name of Object.keys(query)) {
    const label = name.slice(0, 64);
    if (!Object.prototype.hasOwnProperty.call(schema, name)) {
      throw invalid(`Unknown query parameter "${label}".`);
    }
    const value = query[name];
    if (typeof value !== 'string') {
      throw invalid(`Query parameter "${label}" must be given once, as text.`);
    }
    if (schema[name] === 'text') {
      if (
        value.length === 0 ||
        value.length > 253 ||
        !isWellFormedText(value)
      ) {
        throw invalid(
          `Query parameter "${label}" must be a non-empty text of at most 253 characters.`,
        );
      }
      out[name] = value;
    } else if (schema[name] === 'boolean') {
      if (value !== 'true' && value !== 'false') {
        throw invalid(`Query parameter "${label}" must be true or false.`);
      }
      out[name] = value === 'true';
    } else if (schema[name] === 'keyList') {
      out[name] = parseSecretKeyList(value);
    } else {
      out[name] = readResourceVersionValue(value, `Query parameter "${label}"`);
    }
  }
  return out as ParsedQuery<S>;
}

/**
 * A version number in a path: a canonical positive decimal integer, as counters are.
 *
 * @public
 */
export function parseVersionParam(raw: string): number {
  if (!/^[1-9][0-9]{0,15}$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw invalid('The version must be a positive whole number such as 3.');
  }
  return Number(raw);
}

function readVersion(body: Record<string, unknown>): number {
  const version = body.version;
  if (
    typeof version !== 'number' ||
    !Number.isSafeInteger(version) ||
    version < 1
  ) {
    throw invalid('"version" must be the positive whole number of a version.');
  }
  return version;
}

/** @public */
export function parseRestoreRequest(raw: unknown): RestoreRequest {
  const body = requireObject(raw);
  rejectUnknownFields(body, ['version', 'resourceVersion', 'ownedEditReason']);
  return {
    version: readVersion(body),
    resourceVersion: readResourceVersion(body),
    ...withReason(body),
  };
}

/**
 * Kubernetes writes UIDs as RFC 4122 text; anything else cannot name an object's lifetime, so it
 * is refused before any request.
 */
const UID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The body of a recreate: the deleted lifetime's UID and a version.
 *
 * @public
 */
export function parseRecreateRequest(raw: unknown): RecreateRequest {
  const body = requireObject(raw);
  rejectUnknownFields(body, ['uid', 'version']);
  if (typeof body.uid !== 'string' || !UID.test(body.uid)) {
    throw invalid(
      '"uid" is required: send the UID of the deleted Secret, as the list of deleted Secrets names it.',
    );
  }
  return { uid: body.uid, version: readVersion(body) };
}

/**
 * A Kubernetes label selector as kubectl and the Backstage Kubernetes plugin write them:
 * comma-separated terms `key`, `!key`, `key=value`, `key!=value`, `key in (a,b)`,
 * `key notin (a,b)`. Anything else is a 400 here rather than an opaque refusal upstream. The
 * answer is the canonical text of the parsed terms (labelSelector.ts), which is what reaches the
 * API server.
 *
 * @public
 */
export function validateLabelSelector(selector: string): string {
  return formatLabelSelector(parseLabelSelector(selector));
}
