import {
  OldKeyBlock,
  OldKeyBlockCode,
  OldKeyRetirement,
  StorageFlaggedObject,
  StorageNamespaceFailure,
  StorageObjectRef,
  StorageRewriteCounts,
  StorageRewriteFailure,
  StorageRewriteFailureCode,
  StorageRewritePass,
  StorageRewriteResult,
} from '../dto';
import {
  OLD_KEY_MESSAGES,
  STORAGE_REWRITE_MESSAGES,
  UNMANAGED_SECRETS_NOTE,
} from './storageRewriteMessages';

/**
 * At most this many entries per list of a result. Successes are only counted, so a list grows
 * only with what needs an operator's eye, and a run over any number of objects answers, and is
 * stored, in bounded size.
 *
 * @public
 */
export const STORAGE_REWRITE_MAX_LISTED = 200;

export function emptyCounts(): StorageRewriteCounts {
  return {
    seen: 0,
    rewritten: 0,
    alreadyCurrent: 0,
    conflictsResolved: 0,
    gone: 0,
    failed: 0,
    quarantined: 0,
    legacy: 0,
  };
}

export function emptyPass(): StorageRewritePass {
  return {
    counts: emptyCounts(),
    flagged: [],
    gone: [],
    failed: [],
    namespaceFailures: [],
    truncated: false,
    listRestarts: 0,
  };
}

/** Appends within the bound, and marks the pass truncated once something is left out. */
export function listed<T>(pass: StorageRewritePass, list: T[], item: T) {
  if (list.length < STORAGE_REWRITE_MAX_LISTED) list.push(item);
  else pass.truncated = true;
}

export function failureOf(
  ref: StorageObjectRef,
  failure: { code: StorageRewriteFailureCode; httpStatus?: number },
): StorageRewriteFailure {
  const out: StorageRewriteFailure = {
    ...ref,
    code: failure.code,
    message: STORAGE_REWRITE_MESSAGES[failure.code],
  };
  if (failure.httpStatus !== undefined) out.httpStatus = failure.httpStatus;
  return out;
}

export function namespaceFailureOf(
  namespace: string,
  failure: { code: StorageRewriteFailureCode; httpStatus?: number },
): StorageNamespaceFailure {
  const out: StorageNamespaceFailure = {
    namespace,
    code: failure.code,
    message: STORAGE_REWRITE_MESSAGES[failure.code],
  };
  if (failure.httpStatus !== undefined) out.httpStatus = failure.httpStatus;
  return out;
}

/** Adds one pass's tally into another's (one namespace into the run). */
export function mergePass(into: StorageRewritePass, from: StorageRewritePass) {
  for (const key of Object.keys(into.counts) as Array<
    keyof StorageRewriteCounts
  >) {
    into.counts[key] += from.counts[key];
  }
  const append = <T>(list: T[], items: T[]) => {
    for (const item of items) listed(into, list, item);
  };
  append<StorageFlaggedObject>(into.flagged, from.flagged);
  append<StorageObjectRef>(into.gone, from.gone);
  append<StorageRewriteFailure>(into.failed, from.failed);
  append<StorageNamespaceFailure>(
    into.namespaceFailures,
    from.namespaceFailures,
  );
  into.truncated ||= from.truncated;
  into.listRestarts += from.listRestarts;
}

/**
 * The verdict on retiring the old key. Only evidence makes it ready: each namespace's last pass
 * must have found every object current (the second pass, where the first wrote anything, wrote
 * nothing), with no failure, no unread namespace, and the whole scope covered in time.
 *
 * @public
 */
export function oldKeyRetirement(
  result: Pick<
    StorageRewriteResult,
    'dryRun' | 'stopped' | 'namespaceFailures' | 'failed' | 'counts'
  > & { recheck?: StorageRewritePass },
  /** Objects and namespaces that still failed in their namespace's last pass. */
  last: { failed: number; namespaceFailures: number },
): OldKeyRetirement {
  const reasons: OldKeyBlock[] = [];
  const add = (code: OldKeyBlockCode, count: number) => {
    if (count > 0)
      reasons.push({ code, count, message: OLD_KEY_MESSAGES[code] });
  };
  if (result.dryRun) add('dry_run', 1);
  add('failed', last.failed);
  add('namespace_failed', last.namespaceFailures);
  add('rewritten_on_recheck', result.recheck?.counts.rewritten ?? 0);
  add('changed_during_recheck', result.recheck?.counts.conflictsResolved ?? 0);
  if (result.stopped === 'deadline') add('deadline', 1);
  if (result.stopped === 'cancelled') add('cancelled', 1);
  return {
    verdict: reasons.length === 0 ? 'ready' : 'blocked',
    reasons,
    unmanagedSecrets: UNMANAGED_SECRETS_NOTE,
  };
}
