import {
  KryptonKeys,
  MANAGED_BY_VALUE,
  writeAccessRules,
} from '../annotations';
import { DeletedSecretSummary, RecreateRequest } from '../dto';
import { emptyMap } from '../encoding';
import { KryptonError, messages } from '../errors';
import { SecretAction } from '../secretActions';
import { SERVICE_ACCOUNT_TOKEN_TYPE } from '../secretTraits';
import { SecretHistory } from './history';
import { LiveSecrets } from './liveSecrets';
import { HistoryOwner, SnapshotRecord, versionSummary } from './snapshots';
import { NativeSecret } from './types';

/**
 * One ended lifetime whose history Krypton keeps: no live Secret of its name has its UID.
 *
 * @public
 */
export interface DeletedLifetime {
  /** The UID and name that its snapshots bind. */
  owner: HistoryOwner;
  /** Its validated snapshots, oldest first. */
  records: SnapshotRecord[];
  /** A live Secret of that name exists now, with another UID. */
  nameTaken: boolean;
  /**
   * What the gates judge in place of the live object that is gone: the Secret as its newest kept
   * version describes it (recordStandIn).
   */
  standIn: NativeSecret;
}

/**
 * A recreate about to be sent, for the caller's gates.
 *
 * @public
 */
export interface RecreatePlan {
  /** The Secret that the create sends, as the policy's conditions judge it. */
  secret: NativeSecret;
  /** The deleted lifetime it comes from. */
  lifetime: DeletedLifetime;
  /**
   * What the deleted Secret's last rules must let the user do: restore, as for a live Secret,
   * and also manage access when the chosen version's description or rules differ from the last
   * ones, as an update that changes them needs.
   */
  actions: SecretAction[];
}

const RULE_KEYS = ['description', 'owners', 'editors', 'viewers'] as const;

function ruleAnnotations(
  record: SnapshotRecord,
  keys: KryptonKeys,
): Record<string, string> {
  const annotations: Record<string, string> = {};
  if (record.description !== undefined)
    annotations[keys.description] = record.description;
  writeAccessRules(annotations, record.access, keys);
  return annotations;
}

/**
 * A deleted Secret as one of its kept versions describes it: name, type, description and rules,
 * managed, no values. There is no live object to gate on, so the gates judge this; an older
 * version's rules never stand in for the last ones.
 *
 * @public
 */
export function recordStandIn(
  namespace: string,
  record: SnapshotRecord,
  keys: KryptonKeys,
): NativeSecret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: record.historyOf,
      namespace,
      labels: { [keys.managedBy]: MANAGED_BY_VALUE },
      annotations: ruleAnnotations(record, keys),
    },
    type: record.sourceType,
  };
}

/**
 * The Secret that recreates a deleted one from a kept version: that version's type, description
 * and rules, managed, with a new counter at 1, and the version's original base64 bytes (never
 * decoded). It is a new object with a new UID, so its history starts afresh; the old snapshots
 * stay bound to the old UID. The snapshot does not record whether the Secret was immutable, so the
 * new one is mutable.
 *
 * @public
 */
export function plannedRecreate(
  namespace: string,
  record: SnapshotRecord,
  data: Record<string, string>,
  keys: KryptonKeys,
): NativeSecret {
  if (record.sourceType === SERVICE_ACCOUNT_TOKEN_TYPE) {
    throw new KryptonError('unprocessable', messages.serviceAccountToken);
  }
  const secret = recordStandIn(namespace, record, keys);
  secret.metadata.annotations = {
    [keys.version]: '1',
    ...secret.metadata.annotations,
  };
  return { ...secret, data };
}

/**
 * What the list of deleted Secrets shows of one: metadata only, never values.
 *
 * @public
 */
export function deletedSecretSummary(
  lifetime: DeletedLifetime,
): DeletedSecretSummary {
  const newest = lifetime.records[lifetime.records.length - 1];
  const out: DeletedSecretSummary = {
    name: lifetime.owner.name,
    uid: lifetime.owner.uid,
    type: newest.sourceType,
    nameTaken: lifetime.nameTaken,
    versions: [...lifetime.records].reverse().map(versionSummary),
  };
  if (newest.description !== undefined) out.description = newest.description;
  // The recorder keeps a delete's final state once; an operator's copy of another version can
  // never be newer than it, since a deleted Secret takes no more writes.
  if (newest.finalState) {
    out.deletedBy = newest.snapshotBy;
    out.deletedAt = newest.snapshotAt;
    if (newest.snapshotVia) out.deletedVia = newest.snapshotVia;
  }
  return out;
}

const newestSnapshotAt = (lifetime: DeletedLifetime) =>
  lifetime.records[lifetime.records.length - 1].snapshotAt;

/**
 * The engines a DeletedSecrets works through.
 *
 * @public
 */
export interface DeletedSecretsOptions {
  /** The user's reads and creates of live Secrets. */
  live: LiveSecrets;
  /** History, with the identity of history calls. */
  history: SecretHistory;
}

/**
 * Secrets that are gone while their history is kept, and their recreation. The user's own list
 * of the namespace's Secrets comes first on both paths: it is the right that the list of deleted
 * Secrets needs, and what tells a kept history whose Secret is gone from one whose Secret lives.
 * A recreate is a plain create as the user, so Krypton's identity writes nothing.
 *
 * @public
 */
export class DeletedSecrets {
  constructor(private readonly options: DeletedSecretsOptions) {}

  private get keys(): KryptonKeys {
    return this.options.live.keys;
  }

  private lifetime(
    namespace: string,
    records: SnapshotRecord[],
    liveUid: string | undefined,
  ): DeletedLifetime {
    const newest = records[records.length - 1];
    return {
      owner: { uid: newest.sourceUid, name: newest.historyOf },
      records,
      nameTaken: liveUid !== undefined,
      standIn: recordStandIn(namespace, newest, this.keys),
    };
  }

  /** The namespace's deleted lifetimes: by name, then newest first. */
  async list(namespace: string): Promise<DeletedLifetime[]> {
    const uids = await this.options.live.liveUids(namespace);
    const groups = await this.options.history.kept(namespace);
    const out: DeletedLifetime[] = [];
    for (const records of groups) {
      const { sourceUid, historyOf } = records[0];
      const liveUid = uids.get(historyOf);
      if (liveUid !== sourceUid)
        out.push(this.lifetime(namespace, records, liveUid));
    }
    return out.sort(
      (a, b) =>
        a.owner.name.localeCompare(b.owner.name) ||
        newestSnapshotAt(b).localeCompare(newestSnapshotAt(a)),
    );
  }

  /**
   * Creates a Secret of the deleted one's name from one of its kept versions. The name must be
   * free: a live Secret of that name, whichever lifetime, is a 409, and the old history is never
   * attached to a new object. `admit` refuses the plan before anything is written.
   */
  async recreate(
    namespace: string,
    name: string,
    request: RecreateRequest,
    admit: (plan: RecreatePlan) => void,
  ): Promise<NativeSecret> {
    const { live, history } = this.options;
    // The user's own list, narrowed to this name by the API server: the list right and the name's
    // current lifetime in one request.
    const liveUid = (await live.liveUids(namespace, name)).get(name);
    if (liveUid === request.uid)
      throw new KryptonError('conflict', messages.notDeleted);
    if (liveUid !== undefined)
      throw new KryptonError('conflict', messages.alreadyExists);
    const owner = { uid: request.uid, name };
    const records = await history.inventory(namespace, owner);
    if (records.length === 0)
      throw new KryptonError('not_found', messages.deletedNotFound);
    const chosen = records.find(r => r.version === request.version);
    if (!chosen) throw new KryptonError('not_found', messages.versionNotFound);
    // The gates judge the plan from metadata alone: no value is read for a user they refuse.
    const lifetime = this.lifetime(namespace, records, undefined);
    const secret = plannedRecreate(namespace, chosen, emptyMap(), this.keys);
    const last = lifetime.standIn.metadata.annotations ?? {};
    const planned = secret.metadata.annotations ?? {};
    const rulesChange = RULE_KEYS.some(
      key => last[this.keys[key]] !== planned[this.keys[key]],
    );
    admit({
      secret,
      lifetime,
      actions: rulesChange ? ['restore', 'manageAccess'] : ['restore'],
    });
    const { record, snapshot } = await history.read(
      namespace,
      owner,
      request.version,
    );
    if (record.resourceVersion !== chosen.resourceVersion)
      throw new KryptonError('conflict', messages.keptVersionChanged);
    for (const key of Object.keys(snapshot.data ?? {}))
      secret.data![key] = snapshot.data![key];
    return live.createPlanned(namespace, secret);
  }
}
