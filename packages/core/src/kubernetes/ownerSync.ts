import {
  OwnerSyncOffer,
  OwnerSyncRefusal,
  OwnerSyncResult,
  OwnerSyncTarget,
} from '../dto';
import { KryptonError, KryptonErrorCode } from '../errors';
import { fromKubeError } from './errors';
import { LiveGate, LiveSecrets } from './liveSecrets';
import {
  ControllingExternalSecret,
  controllingExternalSecret,
} from './secretOwner';
import { KubeApiError, KubeGateway, KubeObject, ResourceType } from './types';

/**
 * The annotation whose change makes External Secrets read an ExternalSecret's store again at once
 * (its documented `kubectl annotate es <name> force-sync=$(date +%s) --overwrite`).
 *
 * @public
 */
export const FORCE_SYNC_ANNOTATION = 'force-sync';

/**
 * Fixed words for each reason that an owner sync is not possible.
 *
 * @public
 */
export const OWNER_SYNC_MESSAGES: Record<OwnerSyncRefusal, string> = {
  not_supported:
    'Krypton asks an owner to sync only for a Secret that an ExternalSecret controls, through the owner reference that names it.',
  identity:
    'Krypton asks an owner to sync only as the signed-in user, and this installation acts on Kubernetes as its own service account.',
  forbidden:
    'Kubernetes does not let you patch the ExternalSecret that owns this Secret.',
  not_found: 'The ExternalSecret that owns this Secret no longer exists.',
  replaced:
    'The ExternalSecret of that name is not the one that owns this Secret: it was deleted and created again. Reload the Secret.',
  rejected: 'Kubernetes rejected the sync request as invalid.',
};

/**
 * The fixed words of a sync request's answer: the write that follows is the controller's.
 *
 * @public
 */
export const OWNER_SYNC_REQUESTED =
  'External Secrets was asked to read the values from its store again. Its controller writes the Secret after this answer; Krypton does not wait for it.';

const REFUSAL_CODES: Record<OwnerSyncRefusal, KryptonErrorCode> = {
  not_supported: 'conflict',
  identity: 'forbidden',
  forbidden: 'forbidden',
  not_found: 'not_found',
  replaced: 'conflict',
  rejected: 'unprocessable',
};

/**
 * The refusals that a Kubernetes answer to the patch means. Anything else (an outage, a refused
 * credential, a rate limit) is the request's failure, mapped as every other call's.
 */
function refusalOf(err: unknown): OwnerSyncRefusal | undefined {
  if (!(err instanceof KubeApiError)) return undefined;
  switch (err.status) {
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    // A merge patch whose metadata.uid differs from the stored object's fails validation: the
    // name now belongs to another object.
    case 422:
      return err.reason === 'Invalid' ? 'replaced' : 'rejected';
    case 400:
      return 'rejected';
    default:
      return undefined;
  }
}

const resourceOf = (
  owner: ControllingExternalSecret,
): ResourceType<KubeObject> => ({
  apiPath: `/apis/${owner.apiVersion}`,
  plural: 'externalsecrets',
  kind: 'ExternalSecret',
});

/** The merge patch: the annotation, conditional on the ExternalSecret that owns the Secret. */
const patchOf = (owner: ControllingExternalSecret, value: string) => ({
  metadata: {
    uid: owner.uid,
    annotations: { [FORCE_SYNC_ANNOTATION]: value },
  },
});

const targetOf = (owner: ControllingExternalSecret): OwnerSyncTarget => ({
  tool: 'external-secrets',
  kind: 'ExternalSecret',
  name: owner.name,
});

function refused(
  refusal: OwnerSyncRefusal,
  target?: OwnerSyncTarget,
): OwnerSyncOffer {
  return {
    available: false,
    ...(target ? { target } : {}),
    refusal,
    message: OWNER_SYNC_MESSAGES[refusal],
  };
}

const refusalError = (refusal: OwnerSyncRefusal) =>
  new KryptonError(REFUSAL_CODES[refusal], OWNER_SYNC_MESSAGES[refusal]);

/**
 * What an OwnerSync engine works with.
 *
 * @public
 */
export interface OwnerSyncOptions {
  /** Reads and gates the live Secret, whose owner reference names the ExternalSecret. */
  live: LiveSecrets;
  /** The user's gateway: an owner sync never acts as Krypton. */
  gateway: KubeGateway;
  /** Whether the gateway is the signed-in user's (impersonation and hybrid modes, Headlamp). */
  asUser: boolean;
  /** The clock of requestedAt and of the annotation's value. */
  now?: () => Date;
}

/**
 * Asks the owner of a Secret to write it again from its source: for External Secrets, annotates
 * the controlling ExternalSecret `force-sync`, as the user and only as the user. Both the offer
 * and the request pass the Secret's update gates first: the sync replaces its data.
 *
 * @public
 */
export class OwnerSync {
  constructor(private readonly options: OwnerSyncOptions) {}

  /** Whether a sync is possible for this user, proven by a dry run of the patch as the user. */
  async offer(
    namespace: string,
    name: string,
    gate: LiveGate,
  ): Promise<OwnerSyncOffer> {
    const owner = await this.owner(namespace, name, gate);
    if (!owner) return refused('not_supported');
    if (!this.options.asUser) return refused('identity', targetOf(owner));
    try {
      await this.options.gateway.dryRunMergePatch(
        resourceOf(owner),
        namespace,
        owner.name,
        patchOf(owner, this.value()),
      );
    } catch (err) {
      const refusal = refusalOf(err);
      if (refusal) return refused(refusal, targetOf(owner));
      throw fromKubeError(err);
    }
    return { available: true, target: targetOf(owner) };
  }

  /** Annotates the ExternalSecret; refusals are errors with the offer's fixed words. */
  async request(
    namespace: string,
    name: string,
    gate: LiveGate,
  ): Promise<OwnerSyncResult> {
    const owner = await this.owner(namespace, name, gate);
    if (!owner) throw refusalError('not_supported');
    if (!this.options.asUser) throw refusalError('identity');
    const now = this.options.now?.() ?? new Date();
    const value = this.value(now);
    try {
      await this.options.gateway.mergePatch(
        resourceOf(owner),
        namespace,
        owner.name,
        patchOf(owner, value),
      );
    } catch (err) {
      const refusal = refusalOf(err);
      throw refusal ? refusalError(refusal) : fromKubeError(err);
    }
    return {
      target: targetOf(owner),
      annotation: { key: FORCE_SYNC_ANNOTATION, value },
      requestedAt: now.toISOString(),
      message: OWNER_SYNC_REQUESTED,
    };
  }

  /** The controlling ExternalSecret of the gated live Secret, if one controls it. */
  private async owner(
    namespace: string,
    name: string,
    gate: LiveGate,
  ): Promise<ControllingExternalSecret | undefined> {
    const live = await this.options.live.loadGated(
      namespace,
      name,
      ['update'],
      gate,
      { metadataOnly: true },
    );
    return controllingExternalSecret(live.metadata);
  }

  private value(now = this.options.now?.() ?? new Date()): string {
    return String(Math.floor(now.getTime() / 1000));
  }
}
