import { parseEntityRef, stringifyEntityRef } from '@backstage/catalog-model';
import {
  AccessRules,
  AdoptSecretRequest,
  CreateSecretRequest,
  SecretFields,
  UpdateSecretRequest,
} from './dto';
import { emptyMap, isBase64, isWellFormedText } from './encoding';
import { KryptonError } from './errors';
import { SNAPSHOT_NAME_PREFIX } from './limits';

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN =
  /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DATA_KEY = /^[-._a-zA-Z0-9]+$/;
const SECRET_TYPE = /^[A-Za-z0-9]([-A-Za-z0-9_./]*[A-Za-z0-9])?$/;
const MAX_DESCRIPTION = 2048;
const MAX_REFS = 100;

const invalid = (message: string) =>
  new KryptonError('invalid_request', message);

export function validateNamespace(value: string): string {
  if (value.length > 63 || !DNS_LABEL.test(value)) {
    throw invalid(
      'Invalid namespace: use a DNS label of at most 63 lowercase characters.',
    );
  }
  return value;
}

export function validateSecretName(value: string): string {
  if (value.length > 253 || !DNS_SUBDOMAIN.test(value)) {
    throw invalid(
      'Invalid Secret name: use a DNS subdomain of at most 253 lowercase characters.',
    );
  }
  return value;
}

/** Storage names of history snapshots. They are never served through named-Secret routes. */
export function isSnapshotName(name: string): boolean {
  return name.startsWith(SNAPSHOT_NAME_PREFIX);
}

export function validateDataKey(key: string): void {
  if (
    key.length === 0 ||
    key.length > 253 ||
    !DATA_KEY.test(key) ||
    key === '.' ||
    key === '..'
  ) {
    throw invalid(
      'Invalid key: use at most 253 letters, digits, "-", "_" and "."; "." and ".." are not allowed.',
    );
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

function readType(body: Record<string, unknown>): string | undefined {
  const v = body.type;
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v.length > 253 || !SECRET_TYPE.test(v)) {
    throw invalid('"type" must be a Kubernetes Secret type such as Opaque.');
  }
  return v;
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

/** Normalizes a user or group entity ref; anything else is a 400. */
export function normalizeEntityRef(ref: unknown): string {
  if (typeof ref !== 'string' || ref.length > 512) {
    throw invalid(
      'Access rules must list entity refs such as user:default/alice.',
    );
  }
  let parsed;
  try {
    parsed = parseEntityRef(ref);
  } catch {
    throw invalid(
      'Access rules must list entity refs such as user:default/alice.',
    );
  }
  const kind = parsed.kind.toLocaleLowerCase('en-US');
  if (kind !== 'user' && kind !== 'group') {
    throw invalid('Access rules may only name users and groups.');
  }
  return stringifyEntityRef({ ...parsed, kind }).toLocaleLowerCase('en-US');
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
    if (!Array.isArray(list) || list.length > MAX_REFS) {
      throw invalid(
        `"access.${role}" must be a list of at most ${MAX_REFS} entity refs.`,
      );
    }
    out[role] = [...new Set(list.map(normalizeEntityRef))];
  }
  return out;
}

function readResourceVersion(body: Record<string, unknown>): string {
  const v = body.resourceVersion;
  if (
    typeof v !== 'string' ||
    v.length === 0 ||
    v.length > 128 ||
    !/^[\x21-\x7e]+$/.test(v)
  ) {
    throw invalid(
      '"resourceVersion" is required: send the metadata.resourceVersion you loaded.',
    );
  }
  return v;
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
    description: readOptionalString(body, 'description', MAX_DESCRIPTION),
    access: readAccess(body.access),
  };
}

export function parseCreateRequest(raw: unknown): CreateSecretRequest {
  const body = requireObject(raw);
  rejectUnknownFields(body, ['name', ...SECRET_FIELDS]);
  if (typeof body.name !== 'string') throw invalid('"name" is required.');
  return { name: validateSecretName(body.name), ...readSecretFields(body) };
}

export function parseUpdateRequest(raw: unknown): UpdateSecretRequest {
  const body = requireObject(raw);
  rejectUnknownFields(body, ['resourceVersion', ...SECRET_FIELDS]);
  return {
    resourceVersion: readResourceVersion(body),
    ...readSecretFields(body),
  };
}

export function parseAdoptRequest(raw: unknown): AdoptSecretRequest {
  const body = requireObject(raw);
  rejectUnknownFields(body, ['resourceVersion', 'description', 'access']);
  return {
    resourceVersion: readResourceVersion(body),
    description: readOptionalString(body, 'description', MAX_DESCRIPTION),
    access: readAccess(body.access),
  };
}
