import { KryptonKeys, MANAGED_BY_VALUE, kryptonKeys } from '../annotations';
import {
  RestartFailureCode,
  StorageNamespaceFailure,
  StorageObjectRef,
  StorageRewriteFailure,
  StorageRewriteResult,
  StorageSkipped,
} from '../dto';
import { SNAPSHOT_NAME_PREFIX } from '../limits';
import { INVENTORY_BUDGET, InventoryBudget, readInventory } from './inventory';
import { namespaceNames } from './namespaces';
import { inPool } from './pool';
import { RESTART_MESSAGES, classifyFailure } from './restartConsumers';
import { readSnapshotRecord } from './snapshots';
import { KubeApiError, KubeGateway, KubeObject, SECRETS } from './types';

/** At most this many writes are in flight per run. */
export const MAX_REWRITES_IN_FLIGHT = 4;

export interface StorageRewriteOptions {
  /**
   * Krypton's own identity, in every mode: operators run the rewrite across namespaces after the
   * permission check, and it touches history that users may not write.
   */
  gateway: KubeGateway;
  annotationPrefix: string;
  now?: () => Date;
  budget?: InventoryBudget;
}

type Outcome =
  | { kind: 'rewritten' | 'alreadyCurrent' | 'conflictsResolved' }
  | { kind: 'failed'; code: RestartFailureCode; httpStatus?: number };

/** What an object of Krypton's is: a live Secret, a valid snapshot, or something to leave alone. */
async function classify(
  object: KubeObject,
  keys: KryptonKeys,
): Promise<StorageObjectRef['kind'] | StorageSkipped['reason']> {
  const { name = '', labels = {}, annotations = {} } = object.metadata;
  const historyLike =
    labels[keys.kind] !== undefined ||
    name.startsWith(SNAPSHOT_NAME_PREFIX) ||
    annotations[keys.historyFormat] !== undefined ||
    annotations[keys.historyOf] !== undefined ||
    annotations[keys.sourceUid] !== undefined;
  if (!historyLike) return 'live';
  if (await readSnapshotRecord(object, keys)) return 'snapshot';
  // Records in Krypton's current shape that fail validation are quarantined; anything older is a
  // legacy copy. Neither is touched.
  return name.startsWith(SNAPSHOT_NAME_PREFIX) ||
    annotations[keys.historyFormat] !== undefined
    ? 'quarantined'
    : 'legacy';
}

/**
 * Rewrites Krypton's own objects (managed live Secrets and their history snapshots) without
 * changing them, so that the API server stores each with the current storage version and primary
 * encryption key. Each write is a merge patch that carries only the object's UID and
 * resourceVersion: a conditional no-op. The API server writes to etcd only when the stored bytes
 * are stale, so a new resourceVersion in the answer means re-encoded, and an unchanged one means
 * already current. Immutable snapshots accept it: neither data nor anything else changes.
 */
export class StorageRewrite {
  private readonly keys: KryptonKeys;

  constructor(private readonly options: StorageRewriteOptions) {
    this.keys = kryptonKeys(options.annotationPrefix);
  }

  private get gateway() {
    return this.options.gateway;
  }

  private budget() {
    return this.options.budget ?? INVENTORY_BUDGET;
  }

  /** Every namespace the gateway's identity may list, within the inventory budget. */
  async namespaces(gateway: KubeGateway = this.gateway): Promise<string[]> {
    return namespaceNames(gateway, this.budget());
  }

  private async rewriteOne(
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
      if (err instanceof KubeApiError && err.status === 409) {
        // Someone else wrote the object meanwhile, which re-encoded it too: read it to be sure it
        // is still there, then count it as done.
        try {
          await this.gateway.getMetadata(SECRETS, namespace, name!);
          return { kind: 'conflictsResolved' };
        } catch (readErr) {
          return { kind: 'failed', ...classifyFailure(readErr, 'list') };
        }
      }
      return { kind: 'failed', ...classifyFailure(err, 'patch') };
    }
  }

  /** Rewrites one namespace's objects, at most four writes in flight. */
  async rewriteNamespace(
    namespace: string,
    result: StorageRewriteResult,
  ): Promise<void> {
    const objects: Array<{
      object: KubeObject;
      kind: StorageObjectRef['kind'];
    }> = [];
    try {
      for await (const page of readInventory(
        request => this.gateway.listMetadata(SECRETS, namespace, request),
        {
          labelSelector: `${this.keys.managedBy}=${MANAGED_BY_VALUE}`,
          budget: this.budget(),
        },
      )) {
        for (const object of page) {
          const kind = await classify(object, this.keys);
          const name = object.metadata.name ?? '';
          if (kind === 'legacy' || kind === 'quarantined') {
            result.skipped.push({ namespace, name, reason: kind });
          } else if (object.metadata.uid && object.metadata.resourceVersion) {
            objects.push({ object, kind });
          } else {
            result.failed.push({
              namespace,
              name,
              kind,
              code: 'incomplete_list',
              message: RESTART_MESSAGES.incomplete_list,
              httpStatus: 503,
            });
          }
        }
      }
    } catch (err) {
      const failure = classifyFailure(err, 'list');
      result.namespaceFailures.push(namespaceFailure(namespace, failure));
      return;
    }
    const outcomes = await inPool(objects, MAX_REWRITES_IN_FLIGHT, o =>
      this.rewriteOne(namespace, o.object),
    );
    outcomes.forEach((outcome, i) => {
      const ref: StorageObjectRef = {
        namespace,
        name: objects[i].object.metadata.name!,
        kind: objects[i].kind,
      };
      if (outcome.kind === 'failed') {
        const failure: StorageRewriteFailure = {
          ...ref,
          code: outcome.code,
          message: RESTART_MESSAGES[outcome.code],
        };
        if (outcome.httpStatus !== undefined)
          failure.httpStatus = outcome.httpStatus;
        result.failed.push(failure);
      } else {
        result[outcome.kind].push(ref);
      }
    });
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
        maxBytes: this.budget().maxBytes,
      });
      return true;
    } catch (err) {
      if (err instanceof KubeApiError && err.status === 403) return false;
      throw err;
    }
  }

  /**
   * Rewrites one namespace, or every namespace that `lister` may list (the caller's identity) and
   * `include` admits. A namespace whose inventory fails is reported and rewritten no further; the
   * others go on.
   */
  async run(scope: {
    namespace?: string;
    lister?: KubeGateway;
    include?: (namespace: string) => boolean;
  }): Promise<StorageRewriteResult> {
    const now = () => (this.options.now?.() ?? new Date()).toISOString();
    const result: StorageRewriteResult = {
      startedAt: now(),
      finishedAt: '',
      namespaces: [],
      rewritten: [],
      alreadyCurrent: [],
      conflictsResolved: [],
      failed: [],
      skipped: [],
      namespaceFailures: [],
      counts: {
        rewritten: 0,
        alreadyCurrent: 0,
        conflictsResolved: 0,
        failed: 0,
        skipped: 0,
      },
    };
    if (scope.namespace !== undefined) result.namespaces = [scope.namespace];
    else {
      try {
        const listed = await this.namespaces(scope.lister);
        result.namespaces = scope.include
          ? listed.filter(scope.include)
          : listed;
      } catch (err) {
        result.namespaceFailures.push(
          namespaceFailure('', classifyFailure(err, 'list')),
        );
      }
    }
    for (const namespace of result.namespaces) {
      await this.rewriteNamespace(namespace, result);
    }
    result.counts = {
      rewritten: result.rewritten.length,
      alreadyCurrent: result.alreadyCurrent.length,
      conflictsResolved: result.conflictsResolved.length,
      failed: result.failed.length,
      skipped: result.skipped.length,
    };
    result.finishedAt = now();
    return result;
  }
}

function namespaceFailure(
  namespace: string,
  failure: { code: RestartFailureCode; httpStatus?: number },
): StorageNamespaceFailure {
  const out: StorageNamespaceFailure = {
    namespace,
    code: failure.code,
    message: RESTART_MESSAGES[failure.code],
  };
  if (failure.httpStatus !== undefined) out.httpStatus = failure.httpStatus;
  return out;
}

/** The part of a run that concerns one namespace, as it is kept per namespace. */
export function rewriteResultFor(
  result: StorageRewriteResult,
  namespace: string,
): StorageRewriteResult {
  const mine = <T extends { namespace: string }>(items: T[]) =>
    items.filter(i => i.namespace === namespace);
  const part: StorageRewriteResult = {
    ...result,
    namespaces: [namespace],
    rewritten: mine(result.rewritten),
    alreadyCurrent: mine(result.alreadyCurrent),
    conflictsResolved: mine(result.conflictsResolved),
    failed: mine(result.failed),
    skipped: mine(result.skipped),
    namespaceFailures: mine(result.namespaceFailures),
  };
  part.counts = {
    rewritten: part.rewritten.length,
    alreadyCurrent: part.alreadyCurrent.length,
    conflictsResolved: part.conflictsResolved.length,
    failed: part.failed.length,
    skipped: part.skipped.length,
  };
  return part;
}
