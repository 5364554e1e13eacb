import { SecretAction } from '../secretActions';
import { DiffSide } from '../keyDiff';
import {
  KryptonKeys,
  parseVersionCounter,
  readAccessRules,
} from '../annotations';
import { SecretDto, SecretMetadataView, SecretSummary } from '../dto';
import { base64DecodedLength, emptyMap, losslessText } from '../encoding';
import { SERVICE_ACCOUNT_TOKEN_TYPE, isManagedSecret } from '../secretTraits';
import { isKryptonStorageName } from '../validation';
import { isProposalSecret } from '../approval/proposalSecret';
import {
  AnnotationAudience,
  dataAppliedBy,
  lastChange,
  shownAnnotations,
  shownLabels,
  shownOwnerReferences,
} from './secretFacts';
import { OwnedSecretRules, recognizeOwner } from './secretOwner';
import { NativeSecret } from './types';

// What a caller sees of a live Secret: pure functions of the object and the deployment's keys,
// with no call to Kubernetes, so that every answer and list item is drawn by the same rules.

/**
 * The deployment's facts that a view of a Secret needs.
 *
 * @public
 */
export interface SecretViewContext {
  keys: KryptonKeys;
  /** The cluster's configured name. */
  cluster: string;
  /** krypton.annotationPrefix, whose annotations are Krypton's own. */
  annotationPrefix: string;
  /** krypton.ownedSecrets, which recognizeOwner applies. */
  ownedSecrets?: OwnedSecretRules;
}

/**
 * Splits native data into lossless text and original base64, in prototype-less maps.
 *
 * @public
 */
export function splitData(native: Record<string, string> | undefined): {
  data: Record<string, string>;
  binaryData: Record<string, string>;
} {
  const data = emptyMap<string>();
  const binaryData = emptyMap<string>();
  for (const key of Object.keys(native ?? {})) {
    const value = native![key];
    const text = losslessText(value);
    if (text === undefined) binaryData[key] = value;
    else data[key] = text;
  }
  return { data, binaryData };
}

/**
 * A native data map as one side of a key diff, with its values: text where it is lossless, the
 * original base64 otherwise.
 *
 * @public
 */
export function valueSide(
  native: Record<string, string> | undefined,
): DiffSide {
  const split = splitData(native);
  return {
    keys: Object.keys(native ?? {}),
    binaryKeys: Object.keys(split.binaryData),
    values: split,
  };
}

/**
 * The same side without its values: which keys there are, and which of them are binary.
 *
 * @public
 */
export function keysSide(native: Record<string, string> | undefined): DiffSide {
  const { keys, binaryKeys } = valueSide(native);
  return { keys, binaryKeys };
}

/**
 * The actions behind every answer that carries a Secret's values.
 *
 * @public
 */
export const VALUE_ACTIONS: readonly SecretAction[] = ['read', 'reveal'];

/**
 * Each value's decoded size, from the native base64, which Kubernetes always stores canonical: the
 * sizes of masked values, without showing them.
 *
 * @public
 */
export function keySizes(secret: NativeSecret): Record<string, number> {
  const sizes = emptyMap<number>();
  const data = secret.data ?? {};
  for (const key of Object.keys(data)) {
    sizes[key] = base64DecodedLength(data[key]);
  }
  return sizes;
}

/**
 * Whether Krypton ever shows this Secret's values. A service-account token is a credential of the
 * cluster itself: whoever may otherwise read the Secret through Krypton never gets its values.
 *
 * @public
 */
export function valuesShown(secret: NativeSecret): boolean {
  return (secret.type ?? 'Opaque') !== SERVICE_ACCOUNT_TOKEN_TYPE;
}

/**
 * Krypton's own stored objects (history snapshots and change proposals) are never live Secrets,
 * whatever their name or labels look like.
 *
 * @public
 */
export function isKryptonStorageSecret(
  secret: NativeSecret,
  keys: KryptonKeys,
): boolean {
  return (
    isKryptonStorageName(secret.metadata.name ?? '') ||
    secret.metadata.labels?.[keys.kind] === 'history' ||
    isProposalSecret(secret, keys)
  );
}

/**
 * What a Secret's metadata and type say, for summaries and list items alike. The audience picks
 * the annotations: a reader who may not reveal the values gets fewer (isShownAnnotation).
 *
 * @public
 */
export function secretMetadataView(
  secret: NativeSecret,
  context: SecretViewContext,
  audience: AnnotationAudience,
): SecretMetadataView {
  const { keys } = context;
  const counter = parseVersionCounter(
    secret.metadata.annotations?.[keys.version],
  );
  const view: SecretMetadataView = {
    cluster: context.cluster,
    namespace: secret.metadata.namespace ?? '',
    name: secret.metadata.name ?? '',
    uid: secret.metadata.uid ?? '',
    resourceVersion: secret.metadata.resourceVersion ?? '',
    type: secret.type ?? 'Opaque',
    managed: isManagedSecret(secret.metadata.labels, keys),
    version: counter.ok ? counter.version : null,
    access: readAccessRules(secret.metadata.annotations, keys),
  };
  const description = secret.metadata.annotations?.[keys.description];
  if (description !== undefined) view.description = description;
  if (secret.metadata.creationTimestamp) {
    view.creationTimestamp = secret.metadata.creationTimestamp;
  }
  if (secret.metadata.deletionTimestamp) {
    view.deletionTimestamp = secret.metadata.deletionTimestamp;
  }
  view.labels = shownLabels(secret.metadata.labels);
  const annotations = shownAnnotations(
    secret.metadata.annotations,
    context.annotationPrefix,
    audience,
  );
  view.annotations = annotations.annotations;
  view.withheldAnnotations = annotations.withheld;
  view.ownerReferences = shownOwnerReferences(secret.metadata);
  const changed = lastChange(secret.metadata);
  if (changed) view.lastChange = changed;
  const owner = recognizeOwner(secret.metadata, context.ownedSecrets);
  if (owner) view.owner = owner;
  const appliers = dataAppliedBy(secret.metadata);
  if (appliers.length > 0) view.dataAppliedBy = appliers;
  return view;
}

function summarize(
  secret: NativeSecret,
  context: SecretViewContext,
  binaryData: Record<string, string>,
  audience: AnnotationAudience,
): SecretSummary {
  return {
    ...secretMetadataView(secret, context, audience),
    immutable: secret.immutable === true,
    keys: Object.keys(secret.data ?? {}).sort(),
    binaryKeys: Object.keys(binaryData).sort(),
  };
}

/**
 * A live Secret's summary: its metadata and key names, no values.
 *
 * @public
 */
export function secretSummary(
  secret: NativeSecret,
  context: SecretViewContext,
): SecretSummary {
  return summarize(
    secret,
    context,
    splitData(secret.data).binaryData,
    'summary',
  );
}

/**
 * The answer with the values: only for a caller who may reveal them.
 *
 * @public
 */
export function secretDto(
  secret: NativeSecret,
  context: SecretViewContext,
): SecretDto {
  const split = splitData(secret.data);
  return {
    ...summarize(secret, context, split.binaryData, 'values'),
    ...split,
  };
}
