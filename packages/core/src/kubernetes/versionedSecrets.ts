import {
  DeleteResult,
  OwnedEditReason,
  SecretSummary,
  RestoreRequest,
  UpdateSecretRequest,
  VersionDto,
  VersionSummary,
} from '../dto';
import { HistoryCleanupCounts, KryptonError, messages } from '../errors';
import { DiffSide, KeyDiffEntry, keyDiff } from '../keyDiff';
import { inPool } from '../pool';
import {
  ArchiveOutcome,
  HistoryMovedError,
  SecretHistory,
  historyCleanupError,
} from './history';
import { SERVICE_ACCOUNT_TOKEN_TYPE } from '../secretTraits';
import { LiveGate, LiveSecrets } from './liveSecrets';
import { OwnedEdit } from './ownedEdits';
import { splitData, valueSide } from './secretViews';
import { WriteCheck, requiredActions } from './writePlan';
import { versionSummary } from './snapshots';
import { NativeSecret, Preconditions } from './types';

/** @public */
export interface VersionedSecretsOptions {
  live: LiveSecrets;
  history: SecretHistory;
  /**
   * Who acts, recorded as snapshot-by: the server's normalized entity ref, or, for a host that
   * must ask the API server who its user is (the Headlamp plugin), a function asked before each
   * save.
   */
  actor: string | (() => Promise<string>);
  /**
   * For the writes of an approved change request (the actor is its requester): its approvers,
   * recorded beside the actor on the snapshot of the state it replaces.
   */
  approvedBy?: readonly string[];
}

/**
 * What an update or restore did, for the answer and the audit event.
 *
 * @public
 */
export interface VersionedWrite {
  secret: NativeSecret;
  dataChanged: boolean;
  /** Present when the write saved the replaced state into history. */
  archive?: ArchiveOutcome;
  /** Present for an allowed edit of an owned Secret: whose it is and the user's reason. */
  owned?: OwnedEdit;
}

/** @public */
export interface DeleteOutcomeReport {
  result: DeleteResult;
  /** What cleanup removed; absent with keepHistory. */
  cleanup?: HistoryCleanupCounts;
  /** Present for an allowed delete of an owned Secret: whose it is and the user's reason. */
  owned?: OwnedEdit;
}

/**
 * A delete: the revision the caller loaded, whether history stays, and the reason for deleting a
 * Secret that another tool owns.
 *
 * @public
 */
export interface DeleteRequest extends OwnedEditReason {
  resourceVersion: string;
  keepHistory: boolean;
}

/**
 * What an update or restore would write, after every check of the live Secret now.
 *
 * @public
 */
export interface WritePlanned {
  live: NativeSecret;
  owned?: OwnedEdit;
  replacement: NativeSecret;
  check: WriteCheck;
}

/**
 * One version of a history with what the write that replaced it changed, key by key: against the
 * next version, or the live Secret for the newest. Never values.
 *
 * @public
 */
export interface VersionChanges extends VersionSummary {
  /** The keys added, removed or changed; unchanged keys are left out. */
  changes: Array<Pick<KeyDiffEntry, 'key' | 'change' | 'kind'>>;
}

/**
 * A history with its key-level changes: the live Secret's summary and its versions, newest first.
 *
 * @public
 */
export interface HistoryChanges {
  live: SecretSummary;
  versions: VersionChanges[];
}

/** Snapshots read at once for a history's changes, as the Consumers view bounds its reads. */
const VERSION_READS_IN_FLIGHT = 4;

const stale = () => new KryptonError('conflict', messages.staleRevision);

/**
 * The writes that history stands behind: every data-changing update and every restore first saves
 * the state it replaces (or verifies that an earlier attempt saved exactly it), applies retention,
 * and only then replaces the live Secret with UID and resourceVersion preconditions. Delete cleans
 * up history before the live object goes. Every operation gates on the current live object first.
 *
 * @public
 */
export class VersionedSecrets {
  constructor(private readonly options: VersionedSecretsOptions) {}

  private get live() {
    return this.options.live;
  }

  private get history() {
    return this.options.history;
  }

  /**
   * Saves the state about to be replaced. History that moved past it (a newer version, or its own
   * slot changed) most often means that another writer replaced the Secret after it was read:
   * then the answer is the ordinary stale-revision 409, and only when the live Secret is still the
   * one that was read does the operator-review 409 stand.
   */
  private async archive(
    live: NativeSecret,
    version: number,
  ): Promise<ArchiveOutcome> {
    const { actor } = this.options;
    const by = typeof actor === 'string' ? actor : await actor();
    try {
      return await this.history.archive(live, version, {
        by,
        approvedBy: this.options.approvedBy,
      });
    } catch (err) {
      if (err instanceof HistoryMovedError) {
        const now = await this.live
          .loadMetadata(live.metadata.namespace!, live.metadata.name!)
          .catch(() => undefined);
        if (
          now?.metadata.uid !== live.metadata.uid ||
          now?.metadata.resourceVersion !== live.metadata.resourceVersion
        ) {
          throw stale();
        }
      }
      throw err;
    }
  }

  /**
   * Every check of an update, against the live Secret now, and the replacement it would write:
   * the update itself, and a change request that asks for it, run the same rules.
   */
  async planUpdate(
    namespace: string,
    name: string,
    req: UpdateSecretRequest,
    gate: LiveGate,
  ): Promise<WritePlanned> {
    const live = await this.live.loadGated(
      namespace,
      name,
      requiredActions(req),
      gate,
    );
    gate.admit(live, requiredActions(req, live));
    const owned = this.live.admitOwned(live, 'update', req.ownedEditReason);
    return { live, owned, ...this.live.planUpdate(live, req) };
  }

  async update(
    namespace: string,
    name: string,
    req: UpdateSecretRequest,
    gate: LiveGate,
  ): Promise<VersionedWrite> {
    const { live, owned, replacement, check } = await this.planUpdate(
      namespace,
      name,
      req,
      gate,
    );
    let archive: ArchiveOutcome | undefined;
    if (check.dataChanged) {
      await this.live.proveReplace(replacement);
      archive = await this.archive(live, check.replacedVersion);
    }
    const secret = await this.live.write(namespace, name, replacement);
    return { secret, dataChanged: check.dataChanged, archive, owned };
  }

  /**
   * Replaces the live data with a version's original base64, after saving the current state. The
   * live type, UID, owner references, finalizers, immutability, description and rules stay. A
   * byte-identical restore changes nothing and writes nothing.
   */
  async restore(
    namespace: string,
    name: string,
    req: RestoreRequest,
    gate: LiveGate,
  ): Promise<VersionedWrite> {
    const plan = await this.planRestore(namespace, name, req, gate);
    const { live, owned, replacement, check } = plan;
    if (!replacement) return { secret: live, dataChanged: false };
    await this.live.proveReplace(replacement);
    const archive = await this.archive(live, check.replacedVersion);
    const secret = await this.live.write(namespace, name, replacement);
    return { secret, dataChanged: true, archive, owned };
  }

  /**
   * Every check of a restore, against the live Secret now, and the replacement it would write;
   * none when the version holds the live bytes already (a restore that writes nothing).
   */
  async planRestore(
    namespace: string,
    name: string,
    req: RestoreRequest,
    gate: LiveGate,
  ): Promise<
    Omit<WritePlanned, 'replacement'> & { replacement?: NativeSecret }
  > {
    const live = await this.live.loadGated(namespace, name, ['restore'], gate);
    const owned = this.live.admitOwned(live, 'restore', req.ownedEditReason);
    if (live.metadata.resourceVersion !== req.resourceVersion) throw stale();
    if ((live.type ?? 'Opaque') === SERVICE_ACCOUNT_TOKEN_TYPE) {
      throw new KryptonError('unprocessable', messages.serviceAccountToken);
    }
    if (live.metadata.deletionTimestamp) {
      throw new KryptonError('conflict', messages.pendingDeletion);
    }
    // The target is read before anything is saved or pruned: with a history limit of 1, retention
    // then removes it, and the state rolled back from is the snapshot that stays.
    const { snapshot } = await this.history.read(namespace, live, req.version);
    const data: Record<string, string> = Object.create(null);
    for (const key of Object.keys(snapshot.data ?? {}))
      data[key] = snapshot.data![key];
    const check = this.live.checkWrite(live, {
      resourceVersion: req.resourceVersion,
      data,
    });
    if (!check.dataChanged) return { live, owned, check };
    const replacement = this.live.buildReplacement(live, { data, check });
    return { live, owned, check, replacement };
  }

  /** Every check of a delete, against the live Secret now: its metadata and preconditions. */
  async planDelete(
    namespace: string,
    name: string,
    req: DeleteRequest,
    gate: LiveGate,
  ): Promise<{
    live: NativeSecret;
    owned?: OwnedEdit;
    preconditions: Preconditions;
  }> {
    // A delete needs the UID and revision, never the values.
    const live = await this.live.loadGated(namespace, name, ['delete'], gate, {
      metadataOnly: true,
    });
    const owned = this.live.admitOwned(live, 'delete', req.ownedEditReason);
    if (live.metadata.resourceVersion !== req.resourceVersion) throw stale();
    const preconditions = {
      uid: live.metadata.uid!,
      resourceVersion: req.resourceVersion,
    };
    return { live, owned, preconditions };
  }

  /**
   * Deletes the live Secret, after removing its history unless keepHistory. The live object is
   * read again before each cleanup mutation and before the live delete; a change answers 409.
   * Cleanup that leaves anything pending or failed answers 503 without deleting the live Secret.
   */
  async delete(
    namespace: string,
    name: string,
    req: DeleteRequest,
    gate: LiveGate,
  ): Promise<DeleteOutcomeReport> {
    const { live, owned, preconditions } = await this.planDelete(
      namespace,
      name,
      req,
      gate,
    );
    const { uid } = preconditions;
    // Cleanup runs as Krypton in hybrid mode: the user's own delete is proven before it.
    if (!req.keepHistory)
      await this.live.proveDelete(namespace, name, preconditions);
    const recheck = async () => {
      let now: NativeSecret;
      try {
        now = await this.live.loadMetadata(namespace, name);
      } catch (err) {
        if (err instanceof KryptonError && err.code === 'not_found')
          throw stale();
        throw err;
      }
      if (
        now.metadata.uid !== uid ||
        now.metadata.resourceVersion !== req.resourceVersion
      ) {
        throw stale();
      }
    };
    const counts: HistoryCleanupCounts = {
      confirmedAbsent: 0,
      pending: 0,
      failed: 0,
    };
    try {
      if (!req.keepHistory) {
        const records = await this.history.inventory(namespace, live);
        await this.history.remove(namespace, records, {
          beforeEach: recheck,
          counts,
          conflicts: 'refuse',
        });
        if (counts.pending > 0 || counts.failed > 0) {
          throw historyCleanupError(counts, 'the Secret was not deleted');
        }
        const left = await this.history.inventory(namespace, live);
        if (left.length > 0) {
          throw historyCleanupError(
            { ...counts, pending: counts.pending + left.length },
            'the Secret was not deleted',
          );
        }
      }
      await recheck();
      // Without cleanup the recorder may keep the final state, as keepHistory promises.
      const at = req.keepHistory
        ? preconditions
        : {
            uid,
            resourceVersion: await this.history.markHistoryCleaned(
              namespace,
              name,
              preconditions,
            ),
          };
      const outcome = await this.live.remove(namespace, name, at);
      return {
        result: {
          status: outcome.gone ? 'deleted' : 'pending',
          history: req.keepHistory ? 'kept' : 'cleaned',
        },
        cleanup: req.keepHistory ? undefined : counts,
        owned,
      };
    } catch (err) {
      // Earlier deletes are not rolled back: say how far cleanup got.
      if (
        err instanceof KryptonError &&
        !err.history &&
        counts.confirmedAbsent > 0
      ) {
        throw new KryptonError(err.code, err.message, { ...counts });
      }
      throw err;
    }
  }

  /** The validated history of the live UID, newest first. No values. */
  async versions(
    namespace: string,
    name: string,
    gate: LiveGate,
  ): Promise<VersionSummary[]> {
    const live = await this.live.loadGated(namespace, name, ['read'], gate, {
      metadataOnly: true,
    });
    const records = await this.history.inventory(namespace, live);
    return records.reverse().map(versionSummary);
  }

  /**
   * The history with what each replacing write changed, key by key. It compares values, so it is
   * gated like reading a version's values, and it answers with none of them.
   */
  async changes(
    namespace: string,
    name: string,
    gate: LiveGate,
  ): Promise<HistoryChanges> {
    const live = await this.live.loadGated(
      namespace,
      name,
      ['read', 'reveal'],
      gate,
    );
    const records = await this.history.inventory(namespace, live);
    const sides = await inPool(
      records,
      VERSION_READS_IN_FLIGHT,
      async (record): Promise<DiffSide> =>
        valueSide(
          (
            await this.history.read(namespace, live, record.version)
          ).snapshot.data,
        ),
    );
    sides.push(valueSide(live.data));
    const versions = records.map((record, i) => ({
      ...versionSummary(record),
      changes: keyDiff(sides[i], sides[i + 1])
        .entries.filter(entry => entry.change !== 'unchanged')
        .map(({ key, change, kind }) => ({ key, change, kind })),
    }));
    return { live: this.live.toSummary(live), versions: versions.reverse() };
  }

  /** One version with its values, split into lossless text and original base64. */
  async version(
    namespace: string,
    name: string,
    version: number,
    gate: LiveGate,
  ): Promise<VersionDto> {
    const live = await this.live.loadGated(
      namespace,
      name,
      ['read', 'reveal'],
      gate,
    );
    const { record, snapshot } = await this.history.read(
      namespace,
      live,
      version,
    );
    const split = splitData(snapshot.data);
    const dto: VersionDto = {
      ...versionSummary(record),
      cluster: this.live.cluster,
      namespace,
      name,
      access: record.access,
      keys: Object.keys(snapshot.data ?? {}).sort(),
      binaryKeys: Object.keys(split.binaryData).sort(),
      ...split,
    };
    if (record.description !== undefined) dto.description = record.description;
    return dto;
  }
}
