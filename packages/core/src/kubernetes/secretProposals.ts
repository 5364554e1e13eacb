import { KryptonKeys, kryptonKeys } from '../annotations';
import {
  ProposalRecord,
  buildProposalSecret,
  proposalName,
  readProposal,
} from '../approval/proposalSecret';
import { KryptonError } from '../errors';
import { fromKubeError } from './errors';
import { sameData } from './secretData';
import { KubeApiError, KubeGateway, NativeSecret, SECRETS } from './types';

/** @public */
export interface SecretProposalsOptions {
  /** Krypton's own identity: proposals are Krypton's objects, like history snapshots. */
  gateway: KubeGateway;
  annotationPrefix: string;
  /** The clock of proposed-at; tests pin it. */
  now?: () => Date;
}

const isGone = (err: unknown) =>
  err instanceof KubeApiError && err.status === 404;

/**
 * The Secrets that hold what change requests propose: saved when a request is made, read back
 * only by the request's own identifier and UID when it is applied, and removed when it ends.
 *
 * @public
 */
export class SecretProposals {
  readonly keys: KryptonKeys;

  constructor(private readonly options: SecretProposalsOptions) {
    this.keys = kryptonKeys(options.annotationPrefix);
  }

  private get gateway() {
    return this.options.gateway;
  }

  /**
   * Saves a proposal of `data` (the complete native map) for the live Secret as it was read. The
   * answer must still be exactly the proposal that was sent: one that admission changed is removed
   * again and refused, so that a request never stands for values its requester did not propose.
   */
  async save(
    live: NativeSecret,
    proposal: { requestId: string; data: Record<string, string>; by: string },
  ): Promise<ProposalRecord> {
    const namespace = live.metadata.namespace!;
    const at = (this.options.now?.() ?? new Date()).toISOString();
    const object = buildProposalSecret(live, { ...proposal, at }, this.keys);
    let created: NativeSecret;
    try {
      created = await this.gateway.create(SECRETS, namespace, object);
    } catch (err) {
      throw fromKubeError(err);
    }
    const record = readProposal(created, this.keys);
    if (
      !record ||
      record.requestId !== proposal.requestId ||
      record.sourceUid !== live.metadata.uid ||
      record.baseRevision !== live.metadata.resourceVersion ||
      !sameData(record.data, object.data)
    ) {
      await this.remove(namespace, proposal.requestId).catch(() => undefined);
      throw new KryptonError(
        'conflict',
        'The change request could not be saved as proposed. Ask an operator to check the admission webhooks of Secrets.',
      );
    }
    return record;
  }

  /**
   * The proposal of a request, when it is still the object the request saved (its UID); undefined
   * when it is gone, replaced or no longer valid.
   */
  async read(
    namespace: string,
    requestId: string,
    uid: string,
  ): Promise<ProposalRecord | undefined> {
    let object: NativeSecret;
    try {
      object = await this.gateway.get(
        SECRETS,
        namespace,
        proposalName(requestId),
      );
    } catch (err) {
      if (isGone(err)) return undefined;
      throw fromKubeError(err);
    }
    const record = readProposal(object, this.keys);
    return record && record.uid === uid && record.requestId === requestId
      ? record
      : undefined;
  }

  /**
   * Removes a request's proposal, whatever state it is in (a request that ended before its UID
   * was kept still names it): the reserved name is the request's own. True when one was removed,
   * false when there was none.
   */
  async remove(namespace: string, requestId: string): Promise<boolean> {
    const name = proposalName(requestId);
    try {
      const meta = await this.gateway.getMetadata(SECRETS, namespace, name);
      const { uid, resourceVersion } = meta.metadata;
      if (!uid || !resourceVersion) return false;
      // A finalizer may keep it a while longer; it is deleted all the same.
      await this.gateway.delete(SECRETS, namespace, name, {
        uid,
        resourceVersion,
      });
      return true;
    } catch (err) {
      if (isGone(err)) return false;
      throw fromKubeError(err);
    }
  }
}
