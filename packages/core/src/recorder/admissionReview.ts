import { NativeSecret } from '../kubernetes/types';

/**
 * The part of an AdmissionReview that the recorder acts on: one UPDATE or DELETE of one Secret.
 * Everything else in the review is ignored.
 *
 * @public
 */
export interface SecretAdmission {
  uid: string;
  operation: 'UPDATE' | 'DELETE';
  namespace: string;
  name: string;
  /** The API server's name for who makes the write. */
  username: string;
  dryRun: boolean;
  /** The write's field manager (kubectl-edit, kubectl-client-side-apply, helm, ...), if named. */
  fieldManager?: string;
  /** The incoming object of an UPDATE. */
  object?: NativeSecret;
  /** The stored object that the write replaces or removes. */
  oldObject: NativeSecret;
}

/**
 * What a review asks of the recorder. `secret` is a Secret write to decide; `other` is a
 * well-formed review of something the recorder does not record (another kind or operation), which
 * it admits untouched; `malformed` is a body that is not a usable AdmissionReview at all.
 *
 * @public
 */
export type ParsedAdmissionReview =
  | { kind: 'secret'; admission: SecretAdmission }
  | { kind: 'other'; uid: string }
  | { kind: 'malformed'; uid?: string; message: string };

/**
 * The review's API version, the only one the recorder registers for.
 *
 * @public
 */
export const ADMISSION_REVIEW_VERSION = 'admission.k8s.io/v1';

const MAX_USERNAME_UNITS = 256;
const MAX_FIELD_MANAGER_UNITS = 128;
// A request UID is a UUID; a generous bound keeps a forged one from being echoed at length.
const MAX_UID_UNITS = 128;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const DATA_KEY = /^[-._a-zA-Z0-9]{1,253}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function printable(value: unknown, max: number): value is string {
  if (typeof value !== 'string' || value === '' || value.length > max)
    return false;
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit < 0x20 || unit === 0x7f) return false;
  }
  return true;
}

function stringMap(value: unknown): value is Record<string, string> {
  if (value === undefined || value === null) return true;
  if (!isRecord(value)) return false;
  return Object.values(value).every(v => typeof v === 'string');
}

/**
 * Whether a review's object is a Secret that the API server could have sent: the kind, a valid
 * name in the review's namespace, a UID and revision when it is the stored object, string maps for labels and annotations, and data of valid keys
 * with base64 values. Checked in one pass over the object's fields, so a forged object costs time
 * linear in its size.
 */
function asSecret(
  value: unknown,
  namespace: string,
  name: string,
  stored: boolean,
): NativeSecret | undefined {
  if (!isRecord(value) || value.kind !== 'Secret' || value.apiVersion !== 'v1')
    return undefined;
  const { metadata } = value;
  if (
    !isRecord(metadata) ||
    metadata.name !== name ||
    metadata.namespace !== namespace ||
    // An incoming object carries the UID and revision only when its writer sent them.
    (stored && typeof metadata.uid !== 'string') ||
    (stored && typeof metadata.resourceVersion !== 'string') ||
    !stringMap(metadata.labels) ||
    !stringMap(metadata.annotations)
  )
    return undefined;
  if (value.type !== undefined && typeof value.type !== 'string')
    return undefined;
  if (value.data !== undefined && value.data !== null) {
    if (!isRecord(value.data)) return undefined;
    for (const [key, v] of Object.entries(value.data)) {
      if (!DATA_KEY.test(key) || typeof v !== 'string' || !BASE64.test(v))
        return undefined;
    }
  }
  return value as unknown as NativeSecret;
}

/**
 * Reads an AdmissionReview body that anyone who reaches the recorder's port may have sent. Never
 * throws: every shape it does not expect is `malformed`, answered with a 400 by the server.
 *
 * @public
 */
export function parseAdmissionReview(body: unknown): ParsedAdmissionReview {
  const malformed = (message: string, uid?: string): ParsedAdmissionReview =>
    uid === undefined
      ? { kind: 'malformed', message }
      : { kind: 'malformed', uid, message };
  if (
    !isRecord(body) ||
    body.apiVersion !== ADMISSION_REVIEW_VERSION ||
    body.kind !== 'AdmissionReview'
  )
    return malformed(
      `The body is not an ${ADMISSION_REVIEW_VERSION} AdmissionReview.`,
    );
  const request = body.request;
  if (!isRecord(request) || !printable(request.uid, MAX_UID_UNITS))
    return malformed('The review has no request with a uid.');
  const uid = request.uid;
  const kind = request.kind;
  const isSecret =
    isRecord(kind) &&
    kind.group === '' &&
    kind.version === 'v1' &&
    kind.kind === 'Secret' &&
    request.subResource === undefined;
  const operation = request.operation;
  if (!isSecret || (operation !== 'UPDATE' && operation !== 'DELETE'))
    return { kind: 'other', uid };

  const { namespace, name } = request;
  if (
    typeof namespace !== 'string' ||
    !DNS_LABEL.test(namespace) ||
    typeof name !== 'string' ||
    !DNS_SUBDOMAIN.test(name)
  )
    return malformed('The review does not name a Secret.', uid);
  const userInfo = request.userInfo;
  if (!isRecord(userInfo) || !printable(userInfo.username, MAX_USERNAME_UNITS))
    return malformed('The review does not name who makes the write.', uid);
  const oldObject = asSecret(request.oldObject, namespace, name, true);
  if (!oldObject)
    return malformed('The review has no valid stored Secret (oldObject).', uid);
  let object: NativeSecret | undefined;
  if (operation === 'UPDATE') {
    object = asSecret(request.object, namespace, name, false);
    if (!object)
      return malformed(
        'The review has no valid incoming Secret (object).',
        uid,
      );
  }
  if (request.dryRun !== undefined && typeof request.dryRun !== 'boolean')
    return malformed('The review has an invalid dryRun.', uid);
  const options = request.options;
  const fieldManager = isRecord(options) ? options.fieldManager : undefined;
  const admission: SecretAdmission = {
    uid,
    operation,
    namespace,
    name,
    username: userInfo.username,
    dryRun: request.dryRun === true,
    oldObject,
  };
  if (object) admission.object = object;
  if (printable(fieldManager, MAX_FIELD_MANAGER_UNITS))
    admission.fieldManager = fieldManager;
  return { kind: 'secret', admission };
}
