import {
  KryptonKeys,
  MANAGED_BY_VALUE,
  parseVersionCounter,
} from '../annotations';
import { KryptonError } from '../errors';
import { SERVICE_ACCOUNT_TOKEN_TYPE, isManagedSecret } from '../secretTraits';
import { Parsed } from '../settings';
import { SecretHistory } from '../kubernetes/history';
import { markedHistoryCleaned } from '../kubernetes/deleteMarker';
import { addMapEntry, removeMapEntry } from '../kubernetes/jsonPatch';
import { sameData } from '../kubernetes/secretData';
import { isKryptonStorageSecret } from '../kubernetes/secretViews';
import {
  KubeApiError,
  JsonPatchOperation,
  KubeGateway,
  NAMESPACES,
  NativeSecret,
  SECRETS,
} from '../kubernetes/types';
import { SecretAdmission } from './admissionReview';

/**
 * snapshot-by of a state that a write outside Krypton replaced: this prefix and the API server's
 * username. Portal identities are user entity refs (`user:<namespace>/<name>`) and Headlamp's are
 * `headlamp:<username>`, so no identity of a Krypton host can write a snapshot-by that starts
 * with it.
 *
 * @public
 */
export const OUTSIDE_ACTOR_PREFIX = 'kubernetes:';

/** @public */
export interface SecretRecorderOptions {
  /** The recorder's own identity: it reads live Secrets and namespaces, and writes history. */
  gateway: KubeGateway;
  annotationPrefix: string;
  historyLimit: Parsed<number>;
  /** The clock of snapshot-at; tests pin it. */
  now?: () => Date;
}

/**
 * The recorder's answer to one Secret write, with why, for its log (which never holds values).
 *
 * @public
 */
export type RecorderVerdict =
  | {
      allowed: true;
      patch: JsonPatchOperation[];
      outcome:
        | 'recorded'
        | 'already-saved'
        | 'metadata-only'
        | 'counter-kept'
        | 'not-recorded'
        | 'dry-run'
        | 'history-cleaned';
      /** The version the replaced state is kept as, when it was recorded or found saved. */
      version?: number;
    }
  | { allowed: false; status: number; message: string; outcome: 'denied' };

/**
 * Fixed texts of the recorder's refusals: they reach the writer (kubectl prints them).
 *
 * @public
 */
export const recorderMessages = {
  invalidCounter:
    "The Secret's version counter is not a valid Krypton counter, so this change cannot be kept in its history. Review the counter (see the runbook for a denied write) and try again.",
  gone: 'The Secret does not exist, so there is nothing to record.',
  changed:
    'The Secret changed while this write was being admitted, so its history could not be saved. Try the write again.',
  unreadable:
    'The recorder could not read the Secret, so its history could not be saved and the Secret was not changed. Try again.',
} as const;

/** Whether two Secrets hold the same content: a write between them is a new version. */
function sameContent(a: NativeSecret, b: NativeSecret): boolean {
  return (
    (a.type ?? 'Opaque') === (b.type ?? 'Opaque') && sameData(a.data, b.data)
  );
}

/** Whether what the recorder read is exactly the stored object that the review names. */
function sameStoredState(live: NativeSecret, stored: NativeSecret): boolean {
  return (
    live.metadata.uid === stored.metadata.uid &&
    live.metadata.resourceVersion === stored.metadata.resourceVersion &&
    sameContent(live, stored)
  );
}

/**
 * The recorder's engine: it keeps the state that a write from outside Krypton (kubectl, a
 * controller, a pipeline) replaces, as the version the engine would have saved. It archives only
 * what it reads from the API server itself, never what a review claims; its answer moves the
 * counter on the incoming object and adopts a Secret of a recorded namespace, and nothing else.
 *
 * @public
 */
export class SecretRecorder {
  private readonly history: SecretHistory;

  constructor(private readonly options: SecretRecorderOptions) {
    this.history = new SecretHistory({
      gateway: options.gateway,
      annotationPrefix: options.annotationPrefix,
      historyLimit: options.historyLimit,
      now: options.now,
    });
  }

  private get keys(): KryptonKeys {
    return this.history.keys;
  }

  async decide(admission: SecretAdmission): Promise<RecorderVerdict> {
    const stored = admission.oldObject;
    // Krypton's own snapshots and proposals are never versioned.
    if (
      isKryptonStorageSecret(stored, this.keys) ||
      (stored.type ?? 'Opaque') === SERVICE_ACCOUNT_TOKEN_TYPE
    )
      return admit('not-recorded');
    if (admission.operation === 'DELETE') return this.decideDelete(admission);
    const incoming = admission.object;
    if (!incoming) return admit('not-recorded');
    // A write that names another revision than the stored one is refused by the API server after
    // admission (its precondition runs last): there is no change to record. Saving the stored
    // state here would only add a version of a state that is not being replaced.
    const expected = incoming.metadata.resourceVersion;
    if (expected && expected !== stored.metadata.resourceVersion)
      return admit('not-recorded');
    if (sameContent(stored, incoming))
      return this.keepCounter(stored, incoming);
    const scope = await this.scope(admission);
    if (scope !== 'managed' && scope !== 'namespace') return scope;
    if (admission.dryRun) return admit('dry-run');
    const saved = await this.save(admission, {});
    if (!saved.allowed) return saved;
    return {
      allowed: true,
      outcome: saved.outcome,
      version: saved.version,
      patch: this.patchFor(
        stored,
        incoming,
        saved.counter + 1,
        scope === 'namespace',
      ),
    };
  }

  /**
   * A delete keeps the state it removes as the Secret's last version, and its history stays (as
   * keepHistory does), unless Krypton's own delete has just cleaned that history and marked the
   * Secret for it.
   */
  private async decideDelete(
    admission: SecretAdmission,
  ): Promise<RecorderVerdict> {
    const scope = await this.scope(admission);
    if (scope !== 'managed' && scope !== 'namespace') return scope;
    if (markedHistoryCleaned(admission.oldObject, this.keys, this.now()))
      return admit('history-cleaned');
    if (admission.dryRun) return admit('dry-run');
    const saved = await this.save(admission, { finalState: true });
    if (!saved.allowed) return saved;
    return {
      allowed: true,
      outcome: saved.outcome,
      version: saved.version,
      patch: [],
    };
  }

  /** Whether the stored Secret is recorded: managed, or in a namespace labelled for recording. */
  private async scope(
    admission: SecretAdmission,
  ): Promise<'managed' | 'namespace' | RecorderVerdict> {
    if (isManagedSecret(admission.oldObject.metadata.labels, this.keys))
      return 'managed';
    let recorded: boolean;
    try {
      recorded = await this.namespaceRecorded(admission.namespace);
    } catch {
      return deny(503, recorderMessages.unreadable);
    }
    return recorded ? 'namespace' : admit('not-recorded');
  }

  /**
   * Saves the live state that the write replaces or removes, after proving that it is exactly
   * the stored object of the review: what the recorder archives is what it read itself.
   */
  private async save(
    admission: SecretAdmission,
    actor: { finalState?: boolean },
  ): Promise<
    | {
        allowed: true;
        outcome: 'recorded' | 'already-saved';
        version: number;
        counter: number;
      }
    | Denial
  > {
    const stored = admission.oldObject;
    const counter = parseVersionCounter(
      stored.metadata.annotations?.[this.keys.version],
    );
    if (!counter.ok) return deny(409, recorderMessages.invalidCounter);

    let live: NativeSecret;
    try {
      live = await this.options.gateway.get(
        SECRETS,
        admission.namespace,
        admission.name,
      );
    } catch (err) {
      if (err instanceof KubeApiError && err.status === 404)
        return deny(404, recorderMessages.gone);
      return deny(503, recorderMessages.unreadable);
    }
    if (!sameStoredState(live, stored))
      return deny(409, recorderMessages.changed);

    try {
      const outcome = await this.history.archive(live, counter.version, {
        by: `${OUTSIDE_ACTOR_PREFIX}${admission.username}`,
        via: admission.fieldManager,
        ...actor,
      });
      return {
        allowed: true,
        outcome: outcome.reused ? 'already-saved' : 'recorded',
        version: outcome.archivedVersion,
        counter: counter.version,
      };
    } catch (err) {
      if (err instanceof KryptonError) return deny(err.status, err.message);
      return deny(503, recorderMessages.unreadable);
    }
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  /**
   * A metadata-only write is not a version, but it must not move a managed Secret's counter back:
   * `kubectl apply` of a manifest written at an older version would otherwise send the next
   * change into a slot that holds another state, and every later write would be refused. Moving
   * it forward stays possible, as the operator's recovery from a slot conflict needs.
   */
  private keepCounter(
    stored: NativeSecret,
    incoming: NativeSecret,
  ): RecorderVerdict {
    let next: number | undefined;
    if (isManagedSecret(stored.metadata.labels, this.keys)) {
      const before = parseVersionCounter(
        stored.metadata.annotations?.[this.keys.version],
      );
      const after = parseVersionCounter(
        incoming.metadata.annotations?.[this.keys.version],
      );
      if (before.ok && !(after.ok && after.version >= before.version))
        next = before.version;
    }
    return {
      allowed: true,
      patch: this.patchFor(stored, incoming, next, false),
      outcome: next === undefined ? 'metadata-only' : 'counter-kept',
    };
  }

  /**
   * The answer's patch: the counter moved to `next`, the Secret adopted when it is not yet
   * managed, and a mark of Krypton's cleaned delete dropped when this write is not the one that
   * sets it. A mark lives from its own write to the delete that follows it; any write in between
   * means that delete did not happen as marked, and a later delete must keep its final state.
   */
  private patchFor(
    stored: NativeSecret,
    incoming: NativeSecret,
    next: number | undefined,
    adopt: boolean,
  ): JsonPatchOperation[] {
    const patch: JsonPatchOperation[] = [];
    const { annotations, labels } = incoming.metadata;
    if (
      next !== undefined &&
      annotations?.[this.keys.version] !== String(next)
    ) {
      patch.push(
        addMapEntry(
          '/metadata/annotations',
          annotations,
          this.keys.version,
          String(next),
        ),
      );
    }
    if (adopt && !isManagedSecret(labels, this.keys)) {
      patch.push(
        addMapEntry(
          '/metadata/labels',
          labels,
          this.keys.managedBy,
          MANAGED_BY_VALUE,
        ),
      );
    }
    const mark = stored.metadata.annotations?.[this.keys.historyCleanedAt];
    if (
      mark !== undefined &&
      annotations?.[this.keys.historyCleanedAt] === mark
    )
      patch.push(
        removeMapEntry('/metadata/annotations', this.keys.historyCleanedAt),
      );
    return patch;
  }

  private async namespaceRecorded(namespace: string): Promise<boolean> {
    const ns = await this.options.gateway.getMetadata(
      NAMESPACES,
      '',
      namespace,
    );
    return ns.metadata.labels?.[this.keys.recordSecrets] === 'true';
  }
}

function admit(
  outcome: 'not-recorded' | 'dry-run' | 'history-cleaned',
): RecorderVerdict {
  return { allowed: true, patch: [], outcome };
}

type Denial = Extract<RecorderVerdict, { allowed: false }>;

function deny(status: number, message: string): Denial {
  return { allowed: false, status, message, outcome: 'denied' };
}
