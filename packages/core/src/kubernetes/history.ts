import { KryptonKeys, kryptonKeys } from '../annotations';
import { HistoryCleanupCounts, KryptonError, messages } from '../errors';
import { Parsed } from '../settings';
import { historyCleanedMark } from './deleteMarker';
import { fromKubeError } from './errors';
import { IncompleteListError, readInventory } from './inventory';
import {
  HISTORY_FIELD_SELECTOR,
  HistoryOwner,
  SnapshotActor,
  SnapshotRecord,
  buildSnapshot,
  hash32,
  historySelector,
  readHistoryRecord,
  snapshotName,
  verifySnapshot,
} from './snapshots';
import { KubeApiError, KubeGateway, NativeSecret, SECRETS } from './types';

/** @public */
export interface SecretHistoryOptions {
  /** The identity of history calls: the user's, or Krypton's own in hybrid mode. */
  gateway: KubeGateway;
  annotationPrefix: string;
  historyLimit: Parsed<number>;
  /** The clock of snapshot-at; tests pin it. */
  now?: () => Date;
}

/**
 * What saving one state into history did.
 *
 * @public
 */
export interface ArchiveOutcome {
  /** The version the replaced state was saved (or found verified) as. */
  archivedVersion: number;
  /** Whether an earlier attempt had already saved exactly this state. */
  reused: boolean;
  /** Snapshots deleted by retention. */
  pruned: number;
}

type DeleteResult = 'absent' | 'pending' | 'failed' | 'conflict';

const isKube = (err: unknown, ...statuses: number[]): err is KubeApiError =>
  err instanceof KubeApiError && statuses.includes(err.status);

/**
 * Maps a failed history request. A failed save always blocks the live write, so its message says
 * that the Secret was not changed; a failed read or list says only that history could not be
 * read. Kubernetes' own refusals keep their meaning.
 */
function historyError(err: unknown, step: 'save' | 'read'): KryptonError {
  if (err instanceof KryptonError) return err;
  const unavailable = () =>
    new KryptonError(
      'unavailable',
      step === 'save'
        ? messages.historyUnavailable
        : messages.historyUnreadable,
    );
  if (err instanceof IncompleteListError) return unavailable();
  if (isKube(err, 403))
    return new KryptonError('forbidden', messages.forbiddenKubernetes);
  if (isKube(err, 429))
    return new KryptonError('rate_limited', messages.rateLimited);
  if (isKube(err, 400, 422)) {
    return new KryptonError(
      'unprocessable',
      'Kubernetes refused the history snapshot, so the Secret was not changed.',
    );
  }
  return unavailable();
}

/**
 * History moved past the state being saved: its slot changed or vanished, or a newer version is
 * retained. Either another writer replaced the Secret after it was read, or an operator must
 * review the counter; the caller tells the two apart by reading the live Secret again.
 *
 * @public
 */
export class HistoryMovedError extends KryptonError {
  constructor(message: string) {
    super('conflict', message);
  }
}

/**
 * The 503 that stops an operation when history cleanup left snapshots pending or failed.
 *
 * @public
 */
export function historyCleanupError(
  counts: HistoryCleanupCounts,
  what: string,
): KryptonError {
  return new KryptonError(
    'unavailable',
    `History cleanup did not finish (${counts.confirmedAbsent} confirmed absent, ${counts.pending} pending, ${counts.failed} failed), so ${what}. Resolve pending or failed snapshots and try again.`,
    counts,
  );
}

/**
 * The history of live Secrets: immutable snapshots bound to a live UID and exact revision. It
 * saves a state before it is replaced (verifying any snapshot already in the slot), applies
 * retention, lists and reads versions, and removes them, always through validated records:
 * legacy copies and malformed objects are never listed, restored, pruned or cleaned up.
 *
 * @public
 */
export class SecretHistory {
  readonly keys: KryptonKeys;

  constructor(private readonly options: SecretHistoryOptions) {
    this.keys = kryptonKeys(options.annotationPrefix);
  }

  private get gateway() {
    return this.options.gateway;
  }

  /**
   * The validated snapshots of one live Secret, oldest first. Reads metadata only: values never
   * leave the API server for an inventory.
   */
  async inventory(
    namespace: string,
    live: NativeSecret | HistoryOwner,
  ): Promise<SnapshotRecord[]> {
    const out: SnapshotRecord[] = [];
    const owner = ownerOf(live);
    const uidHash = await hash32(owner.uid);
    const labelSelector = historySelector(this.keys, uidHash);
    // Every record of this inventory binds the same UID: hash it once, not once per record.
    const hash = (text: string) =>
      text === owner.uid ? Promise.resolve(uidHash) : hash32(text);
    try {
      for await (const page of readInventory(
        request => this.gateway.listMetadata(SECRETS, namespace, request),
        { labelSelector, fieldSelector: HISTORY_FIELD_SELECTOR },
      )) {
        for (const item of page) {
          const record = await readHistoryRecord(
            item,
            this.keys,
            owner,
            'metadata',
            hash,
          );
          if (record) out.push(record);
        }
      }
    } catch (err) {
      throw historyError(err, 'read');
    }
    return out.sort((a, b) => a.version - b.version);
  }

  /**
   * Every validated snapshot of a namespace, grouped by the lifetime it belongs to (source UID and
   * name), each group oldest first. Metadata only, like inventory. A snapshot validates against
   * the binding it names itself; whether that lifetime still lives is for the caller to decide.
   */
  async kept(namespace: string): Promise<SnapshotRecord[][]> {
    const groups = new Map<string, SnapshotRecord[]>();
    try {
      for await (const page of readInventory(
        request => this.gateway.listMetadata(SECRETS, namespace, request),
        {
          labelSelector: historySelector(this.keys),
          fieldSelector: HISTORY_FIELD_SELECTOR,
        },
      )) {
        for (const item of page) {
          const annotations = item.metadata.annotations ?? {};
          const owner = {
            uid: annotations[this.keys.sourceUid] ?? '',
            name: annotations[this.keys.historyOf] ?? '',
          };
          const record = await readHistoryRecord(
            item,
            this.keys,
            owner,
            'metadata',
          );
          if (!record) continue;
          // A newline is in neither a UID nor a Secret name.
          const key = `${record.sourceUid}\n${record.historyOf}`;
          const group = groups.get(key);
          if (group) group.push(record);
          else groups.set(key, [record]);
        }
      }
    } catch (err) {
      throw historyError(err, 'read');
    }
    return [...groups.values()].map(g =>
      g.sort((a, b) => a.version - b.version),
    );
  }

  /**
   * Saves the live state as `version` before it is replaced, then applies retention. On a taken
   * slot, the occupant must be exactly this state; anything else blocks the write with 409.
   * Successful create answers are verified too, since admission may have altered them.
   */
  async archive(
    live: NativeSecret,
    version: number,
    actor: SnapshotActor,
  ): Promise<ArchiveOutcome> {
    const limit = this.options.historyLimit;
    if (!limit.ok) throw new KryptonError('unavailable', limit.error);
    const namespace = live.metadata.namespace!;
    const expected = await buildSnapshot(live, version, this.keys, {
      ...actor,
      at: (this.options.now?.() ?? new Date()).toISOString(),
    });
    const name = expected.metadata.name!;
    let saved: NativeSecret;
    let reused = false;
    try {
      saved = await this.gateway.create(SECRETS, namespace, expected);
    } catch (err) {
      if (!isKube(err, 409)) throw historyError(err, 'save');
      try {
        saved = await this.gateway.get(SECRETS, namespace, name);
      } catch (readErr) {
        // The occupant went away between the create and the read: nothing verified stands there.
        if (isKube(readErr, 404))
          throw new HistoryMovedError(messages.archiveChanged);
        throw historyError(readErr, 'save');
      }
      reused = true;
    }
    if (await verifySnapshot(saved, expected, this.keys)) {
      throw new KryptonError('conflict', messages.sourceConflict);
    }

    const records = await this.inventory(namespace, live);
    const mine = records.find(r => r.version === version);
    // A snapshot that began terminating since it was verified will not hold this state.
    if (
      !mine ||
      mine.uid !== saved.metadata.uid ||
      mine.sourceResourceVersion !== live.metadata.resourceVersion ||
      mine.deletionTimestamp
    ) {
      throw new HistoryMovedError(messages.archiveChanged);
    }
    // Retention runs before the counter check: a writer that read the Secret before another
    // write may have just recreated a version that retention had removed, and pruning removes it
    // again rather than leaving history over the limit. The state being replaced is never the
    // one pruned; a restore has read its target already, so the target is pruned like any other.
    const eligible = records.filter(r => r.version !== version);
    const excess = eligible.slice(0, Math.max(0, records.length - limit.value));
    const counts = await this.remove(namespace, excess);
    if (counts.pending > 0 || counts.failed > 0) {
      throw historyCleanupError(counts, 'the Secret was not changed');
    }
    if (records.some(r => r.version > version)) {
      throw new HistoryMovedError(messages.counterBehindHistory);
    }
    return { archivedVersion: version, reused, pruned: counts.confirmedAbsent };
  }

  /**
   * Marks the live Secret, just before a delete with history cleanup, so that the recorder keeps
   * no final state of it (deleteMarker.ts says why). Written by the identity that cleaned the
   * history, conditional on the checked UID and revision; answers the revision to delete at. A
   * change since the check, or a Secret that is gone, is the delete's stale conflict.
   */
  async markHistoryCleaned(
    namespace: string,
    name: string,
    preconditions: { uid: string; resourceVersion: string },
  ): Promise<string> {
    let marked;
    try {
      marked = await this.gateway.mergePatch(
        SECRETS,
        namespace,
        name,
        historyCleanedMark(
          this.keys,
          preconditions,
          this.options.now?.() ?? new Date(),
        ),
      );
    } catch (err) {
      if (isKube(err, 404, 409, 422))
        throw new KryptonError('conflict', messages.staleRevision);
      throw fromKubeError(err);
    }
    return marked.metadata.resourceVersion!;
  }

  /**
   * One version of a live UID with its values. Only a validated, immutable snapshot bound to this
   * UID qualifies; anything else in that name's place is not a version of this Secret.
   */
  async read(
    namespace: string,
    live: NativeSecret | HistoryOwner,
    version: number,
  ): Promise<{ record: SnapshotRecord; snapshot: NativeSecret }> {
    const notFound = () =>
      new KryptonError('not_found', messages.versionNotFound);
    const owner = ownerOf(live);
    let snapshot: NativeSecret;
    try {
      snapshot = await this.gateway.get(
        SECRETS,
        namespace,
        snapshotName(await hash32(owner.uid), version),
      );
    } catch (err) {
      if (isKube(err, 404)) throw notFound();
      throw historyError(err, 'read');
    }
    const record = await readHistoryRecord(
      snapshot,
      this.keys,
      owner,
      'object',
    );
    if (!record || record.version !== version) throw notFound();
    return { record, snapshot };
  }

  /**
   * Deletes snapshots one at a time, each with its own UID and resourceVersion preconditions,
   * stopping at the first that does not go. `beforeEach` runs before every delete (the live
   * recheck of a Secret delete) and stops the cleanup by throwing. A precondition conflict (the
   * snapshot changed since it was validated) is never retried: in a Secret delete's cleanup it is
   * the spec's 409 (`conflicts: 'refuse'`); in retention it is one of the "other failures" that
   * answer 503 with the counts.
   */
  async remove(
    namespace: string,
    records: SnapshotRecord[],
    options: {
      beforeEach?: () => Promise<void>;
      counts?: HistoryCleanupCounts;
      conflicts?: 'refuse' | 'count';
    } = {},
  ): Promise<HistoryCleanupCounts> {
    const counts = options.counts ?? {
      confirmedAbsent: 0,
      pending: 0,
      failed: 0,
    };
    for (const record of records) {
      if (options.beforeEach) await options.beforeEach();
      const result = await this.removeOne(namespace, record);
      if (result === 'absent') counts.confirmedAbsent++;
      else if (result === 'pending') counts.pending++;
      else if (result === 'conflict' && options.conflicts === 'refuse') {
        throw new KryptonError('conflict', messages.snapshotChanged, {
          ...counts,
        });
      } else {
        // Oldest first: stopping here never removes a newer snapshot while an older one stays.
        counts.failed++;
        break;
      }
    }
    return counts;
  }

  /**
   * After a delete without an answer: absent if the object is gone, pending if it is going.
   * Metadata only, like every read of cleanup.
   */
  private async confirm(
    namespace: string,
    record: SnapshotRecord,
  ): Promise<DeleteResult> {
    try {
      const current = await this.gateway.getMetadata(
        SECRETS,
        namespace,
        record.name,
      );
      if (current.metadata.uid !== record.uid) return 'absent';
      return current.metadata.deletionTimestamp ? 'pending' : 'failed';
    } catch (err) {
      return isKube(err, 404) ? 'absent' : 'failed';
    }
  }

  /**
   * One conditional delete. A precondition conflict means the snapshot changed since it was
   * validated (an operator relabelled or quarantined it, a storage rewrite touched it); it is
   * never retried with a fresh revision that nobody validated.
   */
  private async removeOne(
    namespace: string,
    record: SnapshotRecord,
  ): Promise<DeleteResult> {
    try {
      const outcome = await this.gateway.delete(
        SECRETS,
        namespace,
        record.name,
        { uid: record.uid, resourceVersion: record.resourceVersion },
      );
      return outcome.gone ? 'absent' : 'pending';
    } catch (err) {
      if (isKube(err, 404)) return 'absent';
      if (isKube(err, 409)) return 'conflict';
      // Without an answer the delete may have happened: read the object to know.
      if (isKube(err, 0)) return this.confirm(namespace, record);
      return 'failed';
    }
  }
}

function ownerOf(live: NativeSecret | HistoryOwner): HistoryOwner {
  if (!('metadata' in live)) return live;
  return { uid: live.metadata.uid!, name: live.metadata.name! };
}
