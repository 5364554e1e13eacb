import { SecretAction } from '../secretActions';
import {
  KryptonKeys,
  MANAGED_BY_VALUE,
  parseVersionCounter,
  readAccessRules,
  writeAccessRules,
} from '../annotations';
import { AccessRules, CreateSecretRequest, UpdateSecretRequest } from '../dto';
import { emptyMap, textToBase64 } from '../encoding';
import { KryptonError, messages } from '../errors';
import { SERVICE_ACCOUNT_TOKEN_TYPE } from '../secretTraits';
import { Parsed } from '../settings';
import { exceedsDecodedBound, exceedsEstimate } from '../size';
import { LAST_APPLIED_ANNOTATION } from './secretFacts';
import { sameData } from './secretData';
import { splitData } from './secretViews';
import { NativeSecret } from './types';

// How a write of a live Secret is checked and what object it sends: pure functions of the live
// object and the request, so that update, restore, adopt and create plan the same way, and a
// plan can be tested without a cluster.

/**
 * A proposed write of a live Secret's data, as every data-changing route describes it.
 *
 * @public
 */
export interface WriteProposal {
  /** The metadata.resourceVersion that the client loaded. */
  resourceVersion: string;
  /** The complete native data map (base64 values) that the write would leave. */
  data: Record<string, string>;
  type?: string;
  immutable?: boolean;
  /**
   * Text and binary values of a write built from client input, measured with the conservative
   * estimate; without it (raw restores), Kubernetes' decoded-size bound applies.
   */
  estimate?: { text: Record<string, string>; binary: Record<string, string> };
}

/**
 * What checkWrite found: whether the data changes, and the app counter the write must carry.
 *
 * @public
 */
export interface WriteCheck {
  dataChanged: boolean;
  /** The counter after the write: the current one for metadata-only writes. */
  version: number;
  /** The counter of the state being replaced, which history saves as that version. */
  replacedVersion: number;
}

/**
 * The parts of a live Secret that one write sets.
 *
 * @public
 */
export interface ReplacementSpec {
  data: Record<string, string>;
  check: WriteCheck;
  immutable?: boolean;
  /** The empty string removes the description. */
  description?: string;
  access?: Partial<AccessRules>;
}

/**
 * The object that creates a managed Secret from a create request, refused before it is sent when
 * it is a service-account token, names a key twice or is too large.
 *
 * @public
 */
export function plannedCreate(
  namespace: string,
  req: CreateSecretRequest,
  keys: KryptonKeys,
): NativeSecret {
  const type = req.type ?? 'Opaque';
  if (type === SERVICE_ACCOUNT_TOKEN_TYPE) {
    throw new KryptonError('unprocessable', messages.serviceAccountToken);
  }
  const text = req.data ?? emptyMap<string>();
  const binary = req.binaryData ?? emptyMap<string>();
  rejectOverlap(text, binary);
  if (exceedsEstimate(text, binary))
    throw new KryptonError('too_large', messages.tooLarge);

  const data = emptyMap<string>();
  for (const key of Object.keys(binary)) data[key] = binary[key];
  for (const key of Object.keys(text)) data[key] = textToBase64(text[key]);
  const annotations: Record<string, string> = { [keys.version]: '1' };
  if (req.description !== undefined)
    annotations[keys.description] = req.description;
  writeAccessRules(annotations, completeRules(req.access), keys);
  const secret: NativeSecret = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: req.name,
      namespace,
      labels: { [keys.managedBy]: MANAGED_BY_VALUE },
      annotations,
    },
    type,
    data,
  };
  if (req.immutable !== undefined) secret.immutable = req.immutable;
  return secret;
}

/**
 * May this live Secret take the proposed write? Checks, in order: the loaded revision, the
 * native type (service-account tokens, type changes), immutability, size, the app counter and
 * the history limit. Restore runs this before it saves the current state; update runs it
 * before it builds the replacement.
 *
 * @public
 */
export function checkWrite(
  live: NativeSecret,
  proposal: WriteProposal,
  settings: { keys: KryptonKeys; historyLimit: Parsed<number> },
): WriteCheck {
  if (live.metadata.resourceVersion !== proposal.resourceVersion) {
    throw new KryptonError('conflict', messages.staleRevision);
  }
  const liveType = live.type ?? 'Opaque';
  if (liveType === SERVICE_ACCOUNT_TOKEN_TYPE) {
    throw new KryptonError('unprocessable', messages.serviceAccountToken);
  }
  if (proposal.type !== undefined && proposal.type !== liveType) {
    throw new KryptonError('unprocessable', messages.typeChange);
  }
  if (live.immutable === true && proposal.immutable === false) {
    throw new KryptonError(
      'unprocessable',
      'An immutable Secret cannot be made mutable.',
    );
  }
  const dataChanged = !sameData(live.data, proposal.data);
  if (dataChanged && live.immutable === true) {
    throw new KryptonError('unprocessable', messages.immutableData);
  }
  const tooLarge =
    dataChanged && proposal.estimate
      ? exceedsEstimate(proposal.estimate.text, proposal.estimate.binary)
      : exceedsDecodedBound(proposal.data);
  if (tooLarge) throw new KryptonError('too_large', messages.tooLarge);
  const counter = parseVersionCounter(
    live.metadata.annotations?.[settings.keys.version],
  );
  if (!dataChanged) {
    const current = counter.ok ? counter.version : 0;
    return { dataChanged, version: current, replacedVersion: current };
  }
  if (!counter.ok) throw new KryptonError('conflict', messages.invalidCounter);
  const limit = settings.historyLimit;
  if (!limit.ok) throw new KryptonError('unavailable', limit.error);
  return {
    dataChanged,
    version: counter.version + 1,
    replacedVersion: counter.version,
  };
}

/**
 * The object that replaces a live Secret: its metadata (UID and resourceVersion as
 * preconditions, owner references, finalizers, labels) with the new data, counter, description
 * and rules. Managed fields are dropped, and so is kubectl's last-applied copy on data changes.
 *
 * @public
 */
export function buildReplacement(
  live: NativeSecret,
  spec: ReplacementSpec,
  keys: KryptonKeys,
): NativeSecret {
  const annotations: Record<string, string> = {
    ...(live.metadata.annotations ?? {}),
  };
  if (spec.check.dataChanged) {
    annotations[keys.version] = String(spec.check.version);
    delete annotations[LAST_APPLIED_ANNOTATION];
  }
  if (spec.description !== undefined) {
    if (spec.description === '') delete annotations[keys.description];
    else annotations[keys.description] = spec.description;
  }
  if (spec.access !== undefined) {
    const rules = {
      ...readAccessRules(live.metadata.annotations, keys),
      ...spec.access,
    };
    writeAccessRules(annotations, rules, keys);
  }
  const { managedFields: _dropped, ...metadata } = live.metadata;
  const replacement: NativeSecret = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { ...metadata, annotations },
    type: live.type ?? 'Opaque',
    data: spec.data,
  };
  const immutable = spec.immutable ?? live.immutable;
  if (immutable !== undefined) replacement.immutable = immutable;
  return replacement;
}

/**
 * Checks an update request against the live Secret and builds its replacement.
 *
 * @public
 */
export function planUpdate(
  live: NativeSecret,
  req: UpdateSecretRequest,
  settings: { keys: KryptonKeys; historyLimit: Parsed<number> },
): { replacement: NativeSecret; check: WriteCheck } {
  const merged = mergeData(live.data ?? {}, req);
  const check = checkWrite(
    live,
    {
      resourceVersion: req.resourceVersion,
      data: merged.data,
      type: req.type,
      immutable: req.immutable,
      estimate: merged.estimate,
    },
    settings,
  );
  const replacement = buildReplacement(
    live,
    {
      data: merged.data,
      check,
      immutable: req.immutable,
      description: req.description,
      access: req.access,
    },
    settings.keys,
  );
  return { replacement, check };
}

/**
 * The native data map that an update request leaves. Without data and binaryData it is the live
 * map, byte for byte. With data, text values are replaced; binary values are kept unless
 * binaryData names the complete binary set. Unchanged text keeps its original bytes.
 */
function mergeData(
  liveData: Record<string, string>,
  req: UpdateSecretRequest,
): { data: Record<string, string>; estimate?: WriteProposal['estimate'] } {
  const data = emptyMap<string>();
  if (req.data === undefined && req.binaryData === undefined) {
    for (const key of Object.keys(liveData)) data[key] = liveData[key];
    return { data };
  }
  const current = splitData(liveData);
  const text = copyMap(req.data);
  const binary = copyMap(req.binaryData);
  rejectOverlap(text, binary);
  // Binary values survive a text-only edit: a client that round-trips only the text subset of a
  // DTO must not drop them.
  if (req.binaryData === undefined) {
    for (const key of Object.keys(current.binaryData)) {
      if (!(key in text)) binary[key] = current.binaryData[key];
    }
  }
  if (req.data === undefined) {
    for (const key of Object.keys(current.data)) {
      if (!(key in binary)) text[key] = current.data[key];
    }
  }
  for (const key of Object.keys(binary)) data[key] = binary[key];
  for (const key of Object.keys(text)) {
    data[key] =
      current.data[key] === text[key] ? liveData[key] : textToBase64(text[key]);
  }
  return { data, estimate: { text, binary } };
}

function copyMap(map: Record<string, string> | undefined) {
  const out = emptyMap<string>();
  for (const key of Object.keys(map ?? {})) out[key] = map![key];
  return out;
}

function completeRules(partial: Partial<AccessRules> | undefined): AccessRules {
  return {
    owners: partial?.owners ?? [],
    editors: partial?.editors ?? [],
    viewers: partial?.viewers ?? [],
  };
}

function rejectOverlap(
  text: Record<string, string>,
  binary: Record<string, string>,
) {
  for (const key of Object.keys(binary)) {
    if (key in text) {
      throw new KryptonError(
        'invalid_request',
        `Key "${key}" appears in both data and binaryData.`,
      );
    }
  }
}

/**
 * Data edits need update; description and access-rule edits need manageAccess, and so does making
 * a Secret immutable: a one-way door after which it can never be rotated or restored again. That
 * last one needs the live object, so it is known only once it has been read.
 *
 * @public
 */
export function requiredActions(
  req: UpdateSecretRequest,
  live?: NativeSecret,
): SecretAction[] {
  const actions: SecretAction[] = [];
  if (
    req.data !== undefined ||
    req.binaryData !== undefined ||
    req.immutable !== undefined
  ) {
    actions.push('update');
  }
  const closes =
    req.immutable === true && live !== undefined && live.immutable !== true;
  if (req.description !== undefined || req.access !== undefined || closes)
    actions.push('manageAccess');
  return actions.length > 0 ? actions : ['update'];
}
