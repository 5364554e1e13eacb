import { KryptonKeys, MANAGED_BY_VALUE, readAccessRules } from '../annotations';
import { AccessRules, VersionSummary } from '../dto';
import { SNAPSHOT_NAME_PREFIX } from '../limits';
import { validateSecretName } from '../validation';
import { sameData } from './secretData';
import { KubeObject, NativeSecret } from './types';

/**
 * The binding format of Krypton's snapshots: bound to the source UID and exact revision.
 *
 * @public
 */
export const HISTORY_FORMAT = 'uid-rv-v1';

/** A key list longer than this is not recorded; annotations share a 256 KiB budget per object. */
const MAX_KEYS_ANNOTATION = 32 * 1024;

const HASH = /^[0-9a-f]{32}$/;
const VERSION = /^[1-9][0-9]{0,15}$/;
const NAME = /^krypton-h-([0-9a-f]{32})-v([1-9][0-9]{0,15})$/;

/**
 * Recent hashes: every update validates each retained snapshot's binding again, and the UIDs and
 * revisions behind them rarely change, so most digests of a request were computed by the one
 * before it. Bounded, and holding only UIDs and revisions, never values.
 */
const HASH_MEMO_LIMIT = 4096;
const hashMemo = new Map<string, string>();

/**
 * The first 32 lowercase hex characters of SHA-256 of the text. Isomorphic (Web Crypto).
 *
 * @public
 */
export async function hash32(text: string): Promise<string> {
  const known = hashMemo.get(text);
  if (known !== undefined) return known;
  const digest = await globalThis.crypto.subtle.digest(
    'SHA-256',
    new TextEncoder().encode(text),
  );
  const hex = Array.from(new Uint8Array(digest), b =>
    b.toString(16).padStart(2, '0'),
  )
    .join('')
    .slice(0, 32);
  if (hashMemo.size >= HASH_MEMO_LIMIT) hashMemo.clear();
  hashMemo.set(text, hex);
  return hex;
}

/**
 * `krypton-h-<UID hash>-v<N>`: at most 60 characters, whatever the live name.
 *
 * @public
 */
export function snapshotName(uidHash: string, version: number): string {
  return `${SNAPSHOT_NAME_PREFIX}${uidHash}-v${version}`;
}

/**
 * The label selector of one live UID's history, or without a UID hash of all history.
 *
 * @public
 */
export function historySelector(keys: KryptonKeys, uidHash?: string): string {
  const all = `${keys.managedBy}=${MANAGED_BY_VALUE},${keys.kind}=history`;
  return uidHash === undefined ? all : `${all},${keys.sourceUid}=${uidHash}`;
}

/** Data keys cannot contain commas, so the list needs no escaping; absent means not recorded. */
function readKeyList(raw: string | undefined): string[] | null {
  if (raw === undefined) return null;
  return raw === '' ? [] : raw.split(',');
}

/**
 * What a snapshot holds, as its metadata says once its binding has been validated.
 *
 * @public
 */
export interface SnapshotRecord {
  name: string;
  /** The snapshot object's own UID and resourceVersion, for conditional deletes. */
  uid: string;
  resourceVersion: string;
  version: number;
  sourceUid: string;
  sourceResourceVersion: string;
  historyOf: string;
  sourceType: string;
  snapshotAt: string;
  snapshotBy: string;
  /** The field manager of an outside write that replaced the state, when it named one. */
  snapshotVia?: string;
  /** The approvers of the change request whose write replaced the state. */
  approvedBy?: string[];
  /** The Secret was deleted in this state: the recorder kept it when the delete was admitted. */
  finalState?: true;
  keys: string[] | null;
  description?: string;
  access: AccessRules;
  /** Set while the snapshot is being deleted (finalizers hold it). */
  deletionTimestamp?: string;
}

/**
 * Reads and validates a snapshot's binding from its metadata alone (a metadata-only list gives
 * nothing else): the name, labels and annotations of the format must agree with each other and
 * with the hashes of the full source UID and revision. Anything else (legacy `<name>-vN` copies,
 * partly retagged objects, malformed records) is undefined: it is never listed, restored, pruned
 * or cleaned up. A matching hash or name alone proves nothing, so every field is checked.
 *
 * @public
 */
export async function readSnapshotRecord(
  object: KubeObject,
  keys: KryptonKeys,
  hash: (text: string) => Promise<string> = hash32,
): Promise<SnapshotRecord | undefined> {
  const { metadata } = object;
  const labels = metadata.labels ?? {};
  const annotations = metadata.annotations ?? {};
  const match = NAME.exec(metadata.name ?? '');
  if (!match || !metadata.uid || !metadata.resourceVersion) return undefined;
  const [, nameHash, nameVersion] = match;
  const sourceUid = annotations[keys.sourceUid];
  const sourceRv = annotations[keys.sourceResourceVersion];
  const version = annotations[keys.version];
  const historyOf = annotations[keys.historyOf];
  const sourceType = annotations[keys.sourceType];
  const snapshotAt = annotations[keys.snapshotAt];
  const snapshotBy = annotations[keys.snapshotBy];
  if (
    labels[keys.managedBy] !== MANAGED_BY_VALUE ||
    labels[keys.kind] !== 'history' ||
    annotations[keys.historyFormat] !== HISTORY_FORMAT ||
    !sourceUid ||
    !sourceRv ||
    !version ||
    !VERSION.test(version) ||
    version !== nameVersion ||
    !historyOf ||
    !sourceType ||
    !snapshotAt ||
    Number.isNaN(Date.parse(snapshotAt)) ||
    !snapshotBy ||
    !HASH.test(labels[keys.sourceUid] ?? '') ||
    !HASH.test(labels[keys.sourceResourceVersion] ?? '')
  ) {
    return undefined;
  }
  try {
    validateSecretName(historyOf);
  } catch {
    return undefined;
  }
  const uidHash = await hash(sourceUid);
  if (uidHash !== nameHash || uidHash !== labels[keys.sourceUid])
    return undefined;
  if ((await hash(sourceRv)) !== labels[keys.sourceResourceVersion])
    return undefined;
  const keyList = annotations[keys.keys];
  const record: SnapshotRecord = {
    name: metadata.name!,
    uid: metadata.uid,
    resourceVersion: metadata.resourceVersion,
    version: Number(version),
    sourceUid,
    sourceResourceVersion: sourceRv,
    historyOf,
    sourceType,
    snapshotAt,
    snapshotBy,
    keys: readKeyList(keyList),
    access: readAccessRules(annotations, keys),
  };
  const description = annotations[keys.description];
  if (description !== undefined) record.description = description;
  const via = annotations[keys.snapshotVia];
  if (via) record.snapshotVia = via;
  const approvedBy = readApprovers(annotations[keys.snapshotApprovedBy]);
  if (approvedBy) record.approvedBy = approvedBy;
  if (annotations[keys.finalState] === 'true') record.finalState = true;
  if (metadata.deletionTimestamp)
    record.deletionTimestamp = metadata.deletionTimestamp;
  return record;
}

/**
 * What the version list shows of a record: never its values.
 *
 * @public
 */
export function versionSummary(record: SnapshotRecord): VersionSummary {
  const out: VersionSummary = {
    version: record.version,
    snapshotAt: record.snapshotAt,
    snapshotBy: record.snapshotBy,
    sourceType: record.sourceType,
    sourceResourceVersion: record.sourceResourceVersion,
    keys: record.keys,
  };
  if (record.snapshotVia) out.snapshotVia = record.snapshotVia;
  if (record.approvedBy) out.approvedBy = record.approvedBy;
  if (record.finalState) out.finalState = true;
  return out;
}

/**
 * The live Secret that a history record must belong to.
 *
 * @public
 */
export interface HistoryOwner {
  /** The live object's UID, which every record must bind in full. */
  uid: string;
  /** The live name, which every record must carry as history-of. */
  name: string;
}

/**
 * The field selector of history lists: snapshots are Opaque, and the API server proves it.
 *
 * @public
 */
export const HISTORY_FIELD_SELECTOR = 'type=Opaque';

/**
 * The one validation of a history record, on every path that lists, reads, restores, prunes or
 * cleans up: the full binding (readSnapshotRecord), bound to this live UID and name, an Opaque
 * and immutable Secret. An object read whole shows its type and immutability here; an entry of a
 * metadata-only list shows neither, so its type is proven by the list's HISTORY_FIELD_SELECTOR,
 * and its immutability cannot be seen without reading values (README, History: Validation).
 *
 * @public
 */
export async function readHistoryRecord(
  object: NativeSecret,
  keys: KryptonKeys,
  owner: HistoryOwner,
  content: 'object' | 'metadata',
  hash: (text: string) => Promise<string> = hash32,
): Promise<SnapshotRecord | undefined> {
  if (object.metadata.annotations?.[keys.sourceUid] !== owner.uid)
    return undefined;
  if (
    content === 'object' &&
    (object.immutable !== true || object.type !== 'Opaque')
  ) {
    return undefined;
  }
  const record = await readSnapshotRecord(object, keys, hash);
  if (!record || record.historyOf !== owner.name) return undefined;
  return record;
}

/**
 * Who replaced or removed the state a snapshot keeps: snapshot-by, and for a write from outside
 * Krypton its field manager (snapshot-via) and whether it was a delete (final-state).
 *
 * @public
 */
export interface SnapshotActor {
  by: string;
  via?: string;
  /** The approvers of a change request that `by` asked for. */
  approvedBy?: readonly string[];
  finalState?: boolean;
}

/** Approvers a snapshot names at most: five approvals, with room for a policy that grows. */
const MAX_APPROVERS = 10;

/** The approved-by annotation: entity refs, comma-separated; undefined when absent or empty. */
function readApprovers(raw: string | undefined): string[] | undefined {
  if (!raw) return undefined;
  const refs = raw
    .split(',', MAX_APPROVERS)
    .map(ref => ref.trim())
    .filter(ref => ref.length > 0);
  return refs.length > 0 ? refs : undefined;
}

/**
 * The snapshot of a live Secret's current state as version `version`: an immutable Opaque Secret
 * with the native base64 data copied as strings, bound to the live UID and exact revision. It
 * takes nothing from the live object's lifecycle (owner references, finalizers, managed fields,
 * other tools' annotations such as kubectl's last-applied copy): only Krypton's own description
 * and rules, for inspection.
 *
 * @public
 */
export async function buildSnapshot(
  live: NativeSecret,
  version: number,
  keys: KryptonKeys,
  actor: SnapshotActor & { at: string },
): Promise<NativeSecret> {
  const uid = live.metadata.uid!;
  const rv = live.metadata.resourceVersion!;
  const uidHash = await hash32(uid);
  const data: Record<string, string> = Object.create(null);
  for (const key of Object.keys(live.data ?? {})) data[key] = live.data![key];
  const keyList = Object.keys(data).sort().join(',');
  const annotations: Record<string, string> = {
    [keys.historyFormat]: HISTORY_FORMAT,
    [keys.sourceUid]: uid,
    [keys.sourceResourceVersion]: rv,
    [keys.historyOf]: live.metadata.name!,
    [keys.sourceType]: live.type ?? 'Opaque',
    [keys.version]: String(version),
    [keys.snapshotAt]: actor.at,
    [keys.snapshotBy]: actor.by,
  };
  if (actor.via) annotations[keys.snapshotVia] = actor.via;
  if (actor.approvedBy?.length)
    annotations[keys.snapshotApprovedBy] = actor.approvedBy.join(',');
  if (actor.finalState) annotations[keys.finalState] = 'true';
  if (keyList.length <= MAX_KEYS_ANNOTATION) annotations[keys.keys] = keyList;
  const liveAnnotations = live.metadata.annotations ?? {};
  for (const key of [
    keys.description,
    keys.owners,
    keys.editors,
    keys.viewers,
  ]) {
    if (liveAnnotations[key] !== undefined)
      annotations[key] = liveAnnotations[key];
  }
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: snapshotName(uidHash, version),
      labels: {
        [keys.managedBy]: MANAGED_BY_VALUE,
        [keys.kind]: 'history',
        [keys.sourceUid]: uidHash,
        [keys.sourceResourceVersion]: await hash32(rv),
      },
      annotations,
    },
    type: 'Opaque',
    immutable: true,
    data,
  };
}

/**
 * Why an existing snapshot cannot stand for the state that is about to be replaced.
 *
 * @public
 */
export type SnapshotMismatch =
  | 'binding'
  | 'source'
  | 'mutable'
  | 'type'
  | 'data'
  | 'access'
  | 'lifecycle';

/**
 * Checks that a snapshot read back from the API server (a create's answer, or the object that
 * occupies the slot after a 409) holds exactly the expected state: its binding and source
 * revision, immutability, the original type, the bytes and own keys, and the copied description
 * and rules; and that nothing could delete it under Krypton (a controlling owner, finalizers, a
 * pending deletion). The actor and time may differ: an exact-source retry keeps the first.
 *
 * @public
 */
export async function verifySnapshot(
  actual: NativeSecret,
  expected: NativeSecret,
  keys: KryptonKeys,
): Promise<SnapshotMismatch | undefined> {
  const record = await readSnapshotRecord(actual, keys);
  if (!record || actual.metadata.name !== expected.metadata.name)
    return 'binding';
  const want = expected.metadata.annotations ?? {};
  const have = actual.metadata.annotations ?? {};
  for (const key of [
    keys.sourceUid,
    keys.sourceResourceVersion,
    keys.historyOf,
    keys.version,
  ]) {
    if (have[key] !== want[key]) return 'source';
  }
  if (actual.immutable !== true) return 'mutable';
  if (
    actual.type !== 'Opaque' ||
    have[keys.sourceType] !== want[keys.sourceType]
  )
    return 'type';
  // The bytes prove the key set. The keys annotation is Krypton's own index, which the spec does
  // not define (another writer's exact snapshot may lack it), so only a present one must agree.
  if (
    !sameData(actual.data, expected.data) ||
    (have[keys.keys] !== undefined && have[keys.keys] !== want[keys.keys])
  )
    return 'data';
  for (const key of [
    keys.description,
    keys.owners,
    keys.editors,
    keys.viewers,
  ]) {
    if (have[key] !== want[key]) return 'access';
  }
  const meta = actual.metadata;
  if (
    (meta.finalizers ?? []).length > 0 ||
    meta.deletionTimestamp ||
    (meta.ownerReferences ?? []).some(o => o.controller === true)
  ) {
    return 'lifecycle';
  }
  return undefined;
}
