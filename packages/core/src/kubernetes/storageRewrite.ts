import { KryptonKeys, MANAGED_BY_VALUE, kryptonKeys } from '../annotations';
import {
  StorageObjectKind,
  StorageObjectRef,
  StorageRewriteCounts,
  StorageRewriteFailureCode,
  StorageRewriteOutcome,
  StorageRewritePass,
  StorageRewriteProgress,
  StorageRewriteResult,
} from '../dto';
import { INVENTORY_MAX_BYTES, SNAPSHOT_NAME_PREFIX } from '../limits';
import {
  isProposalSecret,
  readProposalBinding,
} from '../approval/proposalSecret';
import { inPool } from '../pool';
import { readSnapshotRecord } from './snapshots';
import {
  emptyCounts,
  emptyPass,
  failureOf,
  listed,
  mergePass,
  namespaceFailureOf,
  oldKeyRetirement,
} from './storageRewritePass';
import {
  KubeApiError,
  KubeGateway,
  KubeObject,
  NAMESPACES,
  Page,
  SECRETS,
} from './types';

export * from './storageRewriteMessages';
export {
  STORAGE_REWRITE_MAX_LISTED,
  oldKeyRetirement,
} from './storageRewritePass';

/**
 * At most this many writes are in flight per run.
 *
 * @public
 */
export const MAX_REWRITES_IN_FLIGHT = 4;

/**
 * Objects (or namespaces) per list page; a page is written before the next is fetched.
 *
 * @public
 */
export const STORAGE_REWRITE_PAGE_SIZE = 100;

/**
 * The default time limit of a run.
 *
 * @public
 */
export const STORAGE_REWRITE_TIME_LIMIT_MS = 60 * 60 * 1000;

/** @public */
export interface StorageRewriteOptions {
  /**
   * Krypton's own identity, in every mode: operators run the rewrite across namespaces after the
   * permission check, and it touches history that users may not write.
   */
  gateway: KubeGateway;
  annotationPrefix: string;
  now?: () => Date;
  /** How long a run may take; it stops before the next page after that. */
  timeLimitMs?: number;
  /** Objects or namespaces per list page (tests use small pages). */
  pageSize?: number;
}

/**
 * What a run covers, and who sees it.
 *
 * @public
 */
export interface StorageRewriteScope {
  /** One namespace, already admitted; without it, every namespace `lister` may list. */
  namespace?: string;
  /** The caller's own identity, for the namespace list of a cluster-wide run. */
  lister?: KubeGateway;
  /** Whether a listed namespace is in the caller's scope; a cluster-wide run skips the others. */
  admit?: (namespace: string) => boolean | Promise<boolean>;
  /** Count the objects in scope, write nothing. */
  dryRun?: boolean;
  /** Called with each namespace's part once both its passes are done, before the next starts. */
  onNamespace?: (part: StorageRewriteResult) => void | Promise<void>;
  /**
   * Asked before each page: true ends the run with `stopped: 'cancelled'`. A page already read is
   * always written in full, so a cancel never leaves one half done.
   */
  shouldStop?: () => boolean;
  /** Called after each page and at each namespace's start and end; cheap, and not awaited. */
  onProgress?: (progress: StorageRewriteProgress) => void;
}

type Stop = 'deadline' | 'cancelled';

type Outcome =
  | { kind: Exclude<StorageRewriteOutcome, 'failed'> }
  | { kind: 'failed'; code: StorageRewriteFailureCode; httpStatus?: number };

/** A list that could not be read to its end: what it did not reach is unknown. */
class ListBroken extends Error {
  constructor(
    readonly failure: {
      code: StorageRewriteFailureCode;
      httpStatus?: number;
    },
  ) {
    super(`List broken (${failure.code})`);
    this.name = 'ListBroken';
  }
}

/**
 * What an object of Krypton's is: a live Secret, a valid snapshot or proposal, quarantined or
 * legacy.
 */
async function classify(
  object: KubeObject,
  keys: KryptonKeys,
): Promise<StorageObjectKind> {
  const { name = '', labels = {}, annotations = {} } = object.metadata;
  if (isProposalSecret(object, keys))
    return readProposalBinding(object, keys) ? 'proposal' : 'quarantined';
  const historyLike =
    labels[keys.kind] !== undefined ||
    name.startsWith(SNAPSHOT_NAME_PREFIX) ||
    annotations[keys.historyFormat] !== undefined ||
    annotations[keys.historyOf] !== undefined ||
    annotations[keys.sourceUid] !== undefined;
  if (!historyLike) return 'live';
  if (await readSnapshotRecord(object, keys)) return 'snapshot';
  // Records in Krypton's current shape that fail validation are quarantined; anything older is a
  // legacy copy.
  return name.startsWith(SNAPSHOT_NAME_PREFIX) ||
    annotations[keys.historyFormat] !== undefined
    ? 'quarantined'
    : 'legacy';
}

/** The rewrite's code for a failed request; a 404 never reaches it (that object is gone). */
function failureCode(
  err: unknown,
  step: 'list' | 'patch',
): { code: StorageRewriteFailureCode; httpStatus?: number } {
  if (!(err instanceof KubeApiError)) return { code: 'unavailable' };
  if (err.reason === 'ResponseTooLarge' || err.reason === 'MalformedResponse')
    return { code: 'incomplete_list' };
  const httpStatus = err.status || undefined;
  switch (err.status) {
    case 0:
      return { code: step === 'patch' ? 'unconfirmed' : 'unavailable' };
    case 401:
      return { code: 'unauthenticated', httpStatus };
    case 403:
      return { code: 'forbidden', httpStatus };
    case 400:
    case 422:
      return { code: 'invalid_request', httpStatus };
    case 429:
      return { code: 'rate_limited', httpStatus };
    default:
      return { code: 'unavailable', httpStatus };
  }
}

/**
 * Rewrites Krypton's own objects (managed live Secrets, their history snapshots, and the
 * quarantined and legacy objects it labelled) without changing them, so that the API server
 * stores each with the current storage version and primary encryption key. Each write is a
 * merge patch that carries only the object's UID and resourceVersion: a conditional no-op. The
 * API server writes to etcd only when the stored bytes are stale, so a new resourceVersion in the
 * answer means re-encoded, and an unchanged one means already current. The write changes no
 * byte, label or annotation, so immutable snapshots accept it, and a quarantined record is not
 * turned into history by it.
 *
 * It reads a page of 100 objects, writes them, and only then reads the next page: memory holds
 * one page, whatever the size of the namespace. No object budget stops it; its time limit and a
 * cancel do, both between pages.
 *
 * @public
 */
export class StorageRewrite {
  private readonly keys: KryptonKeys;
  private readonly pageSize: number;

  constructor(private readonly options: StorageRewriteOptions) {
    this.keys = kryptonKeys(options.annotationPrefix);
    this.pageSize = options.pageSize ?? STORAGE_REWRITE_PAGE_SIZE;
  }

  private get gateway() {
    return this.options.gateway;
  }

  /**
   * Whether `lister` (the caller's own identity) may list the Secrets of a namespace: a
   * one-object metadata list as them. Krypton's identity would rewrite anything, so a run names
   * only what the caller could have seen.
   */
  async mayList(lister: KubeGateway, namespace: string): Promise<boolean> {
    try {
      await lister.listMetadata(SECRETS, namespace, {
        limit: 1,
        maxBytes: INVENTORY_MAX_BYTES,
      });
      return true;
    } catch (err) {
      if (err instanceof KubeApiError && err.status === 403) return false;
      throw err;
    }
  }

  /**
   * Every item of a paged list, one page at a time: `each` handles a page before the next is
   * fetched. A continuation that expires (410) starts the list again from the top; `isDone`
   * lets the caller pass over what it already handled. A restart is allowed only after progress
   * (something new handled since the last one), so a list that keeps expiring ends. Throws
   * ListBroken when the list cannot be read to its end.
   */
  private async paged<T extends KubeObject>(
    fetchPage: (continueToken?: string) => Promise<Page<T>>,
    each: (items: T[], remaining?: number) => Promise<void>,
    progress: () => number,
    onRestart: () => void,
    stop: () => Stop | undefined,
  ): Promise<'done' | Stop> {
    let continueToken: string | undefined;
    let tokens = new Set<string>();
    let progressAtRestart = -1;
    for (;;) {
      const stopped = stop();
      if (stopped) return stopped;
      let page: Page<T>;
      try {
        page = await fetchPage(continueToken);
      } catch (err) {
        if (
          continueToken !== undefined &&
          err instanceof KubeApiError &&
          err.status === 410 &&
          progress() > progressAtRestart
        ) {
          progressAtRestart = progress();
          continueToken = undefined;
          tokens = new Set();
          onRestart();
          continue;
        }
        throw new ListBroken(
          continueToken !== undefined &&
          err instanceof KubeApiError &&
          (err.status === 410 || err.status === 400)
            ? { code: 'incomplete_list', httpStatus: err.status }
            : failureCode(err, 'list'),
        );
      }
      if (page.items.length > this.pageSize)
        throw new ListBroken({ code: 'incomplete_list' });
      await each(page.items, page.remainingItemCount);
      continueToken = page.continueToken;
      if (continueToken === undefined) return 'done';
      if (tokens.has(continueToken))
        throw new ListBroken({ code: 'incomplete_list' });
      tokens.add(continueToken);
    }
  }

  private async writeOne(
    namespace: string,
    object: KubeObject,
  ): Promise<Outcome> {
    const { name, uid, resourceVersion } = object.metadata;
    try {
      const after = await this.gateway.mergePatch(SECRETS, namespace, name!, {
        metadata: { uid, resourceVersion },
      });
      return {
        kind:
          after.metadata.resourceVersion === resourceVersion
            ? 'alreadyCurrent'
            : 'rewritten',
      };
    } catch (err) {
      if (err instanceof KubeApiError && err.status === 404)
        return { kind: 'gone' };
      // 409: another revision, which another writer stored (and so re-encoded). 422: another
      // UID, the name was deleted and created again. Either way, read what is there now.
      if (
        err instanceof KubeApiError &&
        (err.status === 409 || err.status === 422)
      ) {
        try {
          const now = await this.gateway.getMetadata(SECRETS, namespace, name!);
          if (now.metadata.uid !== uid) return { kind: 'gone' };
          if (err.status === 409) return { kind: 'conflictsResolved' };
        } catch (readErr) {
          if (readErr instanceof KubeApiError && readErr.status === 404)
            return { kind: 'gone' };
          return { kind: 'failed', ...failureCode(readErr, 'list') };
        }
      }
      return { kind: 'failed', ...failureCode(err, 'patch') };
    }
  }

  /** One pass over one namespace's Krypton-labelled Secrets. */
  private async pass(
    namespace: string,
    dryRun: boolean,
    stop: () => Stop | undefined,
    onPage: (pass: StorageRewritePass, remaining?: number) => void,
  ): Promise<{ pass: StorageRewritePass; stopped?: Stop }> {
    const pass = emptyPass();
    const { counts } = pass;
    // UIDs handled in this pass, so that a list started again after a 410 counts nothing twice.
    const done = new Set<string>();
    const record = (
      object: KubeObject,
      kind: StorageObjectKind,
      outcome: Outcome,
    ) => {
      const ref: StorageObjectRef = {
        namespace,
        name: object.metadata.name ?? '',
        kind,
      };
      if (object.metadata.uid) done.add(object.metadata.uid);
      counts.seen++;
      if (kind === 'quarantined' || kind === 'legacy') {
        counts[kind]++;
        listed(pass, pass.flagged, {
          namespace,
          name: ref.name,
          reason: kind,
          outcome: outcome.kind,
        });
      }
      if (outcome.kind === 'listed') return;
      counts[outcome.kind]++;
      if (outcome.kind === 'gone') listed(pass, pass.gone, ref);
      if (outcome.kind === 'failed')
        listed(pass, pass.failed, failureOf(ref, outcome));
    };
    try {
      const ended = await this.paged(
        continueToken =>
          this.gateway.listMetadata(SECRETS, namespace, {
            labelSelector: `${this.keys.managedBy}=${MANAGED_BY_VALUE}`,
            limit: this.pageSize,
            continueToken,
            maxBytes: INVENTORY_MAX_BYTES,
          }),
        async (items, remaining) => {
          const todo = items.filter(
            o => !o.metadata.uid || !done.has(o.metadata.uid),
          );
          const kinds = await Promise.all(
            todo.map(o => classify(o, this.keys)),
          );
          const outcomes = await inPool(
            todo,
            MAX_REWRITES_IN_FLIGHT,
            async (object): Promise<Outcome> => {
              const { name, uid, resourceVersion } = object.metadata;
              if (!name || !uid || !resourceVersion)
                return { kind: 'failed', code: 'malformed' };
              if (dryRun) return { kind: 'listed' };
              return this.writeOne(namespace, object);
            },
          );
          outcomes.forEach((outcome, i) => record(todo[i], kinds[i], outcome));
          onPage(pass, remaining);
        },
        () => done.size,
        () => pass.listRestarts++,
        stop,
      );
      // A cancel is the operator's own choice, said once by the run's `stopped`; a deadline
      // marks the namespace it cut short.
      if (ended === 'deadline') {
        pass.namespaceFailures.push(
          namespaceFailureOf(namespace, { code: 'deadline' }),
        );
      }
      if (ended !== 'done') return { pass, stopped: ended };
    } catch (err) {
      if (!(err instanceof ListBroken)) throw err;
      pass.namespaceFailures.push(namespaceFailureOf(namespace, err.failure));
    }
    return { pass };
  }

  /**
   * Rewrites one namespace, or every namespace that `lister` may list and `admit` admits, one
   * namespace at a time. Each namespace whose first pass wrote anything gets a second pass, which
   * must write nothing for the verdict to be ready. A namespace whose list fails is reported;
   * the others go on.
   */
  async run(scope: StorageRewriteScope): Promise<StorageRewriteResult> {
    const now = () => this.options.now?.() ?? new Date();
    const started = now();
    const deadline =
      started.getTime() +
      (this.options.timeLimitMs ?? STORAGE_REWRITE_TIME_LIMIT_MS);
    const stop = (): Stop | undefined => {
      if (scope.shouldStop?.()) return 'cancelled';
      return now().getTime() >= deadline ? 'deadline' : undefined;
    };
    const dryRun = scope.dryRun ?? false;
    const result = newResult(started.toISOString(), dryRun);
    let recheck: StorageRewritePass | undefined;
    const last = { failed: 0, namespaceFailures: 0 };
    const progress: StorageRewriteProgress = {
      pass: 'first',
      namespacesDone: 0,
      ...(scope.namespace !== undefined ? { namespacesTotal: 1 } : {}),
      ...progressCounts(emptyPass().counts),
    };
    const report = () => scope.onProgress?.({ ...progress });
    // The counts of the pass now running: those of the namespaces done, plus this one's so far.
    const onPage =
      (kind: 'first' | 'recheck') =>
      (current: StorageRewritePass, remaining?: number) => {
        const before =
          kind === 'first' ? result.counts : recheck?.counts ?? emptyCounts();
        const totals = progressCounts(before);
        for (const key of Object.keys(totals) as Array<keyof typeof totals>)
          totals[key] += current.counts[key];
        Object.assign(progress, totals, { pass: kind });
        if (remaining === undefined) delete progress.remaining;
        else progress.remaining = remaining;
        report();
      };

    const rewriteNamespace = async (namespace: string) => {
      result.namespaces.push(namespace);
      progress.namespace = namespace;
      onPage('first')(emptyPass());
      const part = newResult(now().toISOString(), dryRun);
      part.namespaces = [namespace];
      const first = await this.pass(namespace, dryRun, stop, onPage('first'));
      mergePass(part, first.pass);
      let final = first.pass;
      if (
        !dryRun &&
        !first.stopped &&
        first.pass.counts.rewritten + first.pass.counts.conflictsResolved > 0
      ) {
        onPage('recheck')(emptyPass());
        const second = await this.pass(
          namespace,
          false,
          stop,
          onPage('recheck'),
        );
        part.recheck = second.pass;
        final = second.pass;
        if (second.stopped) part.stopped = second.stopped;
      }
      if (first.stopped) part.stopped = first.stopped;
      const mine = {
        failed: final.counts.failed,
        namespaceFailures: final.namespaceFailures.filter(
          f => f.code !== 'deadline',
        ).length,
      };
      part.finishedAt = now().toISOString();
      part.oldKeyRetirement = oldKeyRetirement(part, mine);
      mergePass(result, part);
      if (part.recheck) mergePass((recheck ??= emptyPass()), part.recheck);
      if (part.stopped) result.stopped = part.stopped;
      last.failed += mine.failed;
      last.namespaceFailures += mine.namespaceFailures;
      progress.namespacesDone++;
      delete progress.namespace;
      report();
      await scope.onNamespace?.(part);
    };

    if (scope.namespace !== undefined) {
      await rewriteNamespace(scope.namespace);
    } else {
      const lister = scope.lister ?? this.gateway;
      const covered = new Set<string>();
      try {
        const ended = await this.paged(
          continueToken =>
            lister.listMetadata(NAMESPACES, '', {
              limit: this.pageSize,
              continueToken,
              maxBytes: INVENTORY_MAX_BYTES,
            }),
          async (items, remaining) => {
            // Namespaces passed over (not the caller's) count as done, so that the two counts
            // meet at the end.
            if (remaining !== undefined)
              progress.namespacesTotal =
                covered.size + items.length + remaining;
            for (const item of items) {
              const namespace = item.metadata.name;
              if (!namespace || covered.has(namespace)) continue;
              if (result.stopped) return;
              covered.add(namespace);
              try {
                if (scope.admit && !(await scope.admit(namespace))) {
                  progress.namespacesDone++;
                  continue;
                }
              } catch (err) {
                // Whether the caller may see it is unknown: not covered, and said so.
                listed(
                  result,
                  result.namespaceFailures,
                  namespaceFailureOf(namespace, failureCode(err, 'list')),
                );
                last.namespaceFailures++;
                progress.namespacesDone++;
                continue;
              }
              await rewriteNamespace(namespace);
            }
          },
          () => covered.size,
          () => result.listRestarts++,
          () => result.stopped ?? stop(),
        );
        if (ended !== 'done') result.stopped ??= ended;
        else progress.namespacesTotal = covered.size;
      } catch (err) {
        if (!(err instanceof ListBroken)) throw err;
        result.namespaceFailures.push(namespaceFailureOf('', err.failure));
        last.namespaceFailures++;
      }
    }
    if (recheck) result.recheck = recheck;
    report();
    result.finishedAt = now().toISOString();
    result.oldKeyRetirement = oldKeyRetirement(result, last);
    return result;
  }
}

function progressCounts(counts: StorageRewriteCounts) {
  const { seen, rewritten, alreadyCurrent, failed, gone } = counts;
  return { seen, rewritten, alreadyCurrent, failed, gone };
}

function newResult(startedAt: string, dryRun: boolean): StorageRewriteResult {
  return {
    startedAt,
    finishedAt: '',
    dryRun,
    namespaces: [],
    ...emptyPass(),
    oldKeyRetirement: {
      verdict: 'blocked',
      reasons: [],
      unmanagedSecrets: '',
    },
  };
}
