import {
  CHANGE_REQUEST_MESSAGES,
  ChangeRequest,
  ProposedChange,
} from '../approval/changeRequest';
import { unchangedDiff } from '../approval/changeDiff';
import { ProposalRecord } from '../approval/proposalSecret';
import { RestoreRequest, UpdateSecretRequest } from '../dto';
import { KryptonError, messages } from '../errors';
import { DiffSide, KeyDiff, keyDiff } from '../keyDiff';
import { versionKeysSide, versionSide } from '../versionSides';
import { LiveGate, LiveSecrets } from './liveSecrets';
import { SecretProposals } from './secretProposals';
import { keysSide, valueSide } from './secretViews';
import { NativeSecret } from './types';
import {
  DeleteOutcomeReport,
  DeleteRequest,
  VersionedSecrets,
  VersionedWrite,
} from './versionedSecrets';

/**
 * A write that someone asks for, as the routes parse it.
 *
 * @public
 */
export type RequestedChange =
  | { operation: 'update'; request: UpdateSecretRequest }
  | { operation: 'restore'; request: RestoreRequest }
  | { operation: 'delete'; request: DeleteRequest };

/**
 * One person's side of a change: engines with their identity, and their gates.
 *
 * @public
 */
export interface ChangeParty {
  live: LiveSecrets;
  versioned: VersionedSecrets;
  gate: LiveGate;
}

/**
 * What a proposed change became: the live Secret it was checked against, the change without
 * values, and for an update of values the proposal Secret that holds them.
 *
 * @public
 */
export interface ProposedWrite {
  live: NativeSecret;
  change: ProposedChange;
  proposal?: ProposalRecord;
}

/**
 * How applying an approved request ended. `stale`, `requesterLostRight` and `proposalGone` wrote
 * nothing; any other failure is thrown, and the request can be applied again.
 *
 * @public
 */
export type ChangeApplyOutcome =
  | { outcome: 'applied'; write: VersionedWrite | DeleteOutcomeReport }
  | { outcome: 'stale' }
  | { outcome: 'requesterLostRight' }
  | { outcome: 'proposalGone' };

/**
 * Change requests' Kubernetes side: proposing a write (every check of the write itself, proven
 * with a dry run as the requester, then the proposal of an update's values), and applying it
 * once the requester is proven still allowed, through the versioned engine with the base revision
 * as its precondition, so that history stays exact and a Secret that moved is never overwritten.
 *
 * @public
 */
export class ChangeRequestEngine {
  constructor(private readonly proposals: SecretProposals) {}

  /**
   * Every check of the write, as `party` against the live Secret now, and a dry run of it with
   * their identity; answers what the write would replace and with what.
   */
  private async prove(
    namespace: string,
    name: string,
    requested: RequestedChange,
    party: ChangeParty,
  ): Promise<{ live: NativeSecret; replacement?: NativeSecret }> {
    switch (requested.operation) {
      case 'update': {
        const plan = await party.versioned.planUpdate(
          namespace,
          name,
          requested.request,
          party.gate,
        );
        await party.live.dryRunReplace(plan.replacement);
        return plan;
      }
      case 'restore': {
        const plan = await party.versioned.planRestore(
          namespace,
          name,
          requested.request,
          party.gate,
        );
        if (plan.replacement) await party.live.dryRunReplace(plan.replacement);
        return plan;
      }
      case 'delete': {
        const plan = await party.versioned.planDelete(
          namespace,
          name,
          requested.request,
          party.gate,
        );
        await party.live.dryRunDelete(namespace, name, plan.preconditions);
        return plan;
      }
      default:
        throw new KryptonError('invalid_request', 'Unknown change.');
    }
  }

  /**
   * Checks a change as its requester and keeps what it proposes. An update that names values
   * saves the complete data map it would write into a proposal Secret; nothing is written to the
   * live Secret.
   */
  async propose(
    namespace: string,
    name: string,
    requestId: string,
    requested: RequestedChange,
    requester: ChangeParty & { actor: string },
  ): Promise<ProposedWrite> {
    const { live, replacement } = await this.prove(
      namespace,
      name,
      requested,
      requester,
    );
    const change = proposedChange(requested);
    if (change.operation !== 'update' || !change.values || !replacement)
      return { live, change };
    const proposal = await this.proposals.save(live, {
      requestId,
      data: replacement.data ?? {},
      by: requester.actor,
    });
    return { live, change, proposal };
  }

  /**
   * Applies an approved request: the requester must still be allowed to make it (their gates and a
   * dry run with their identity), then the approver's engines write it with the base revision as
   * the precondition. The approver's engines record the requester as the actor and the approvers.
   */
  async apply(
    request: ChangeRequest,
    proposalUid: string | undefined,
    approver: ChangeParty,
    requester: ChangeParty,
  ): Promise<ChangeApplyOutcome> {
    const requested = await this.requested(request, proposalUid);
    if (!requested) return { outcome: 'proposalGone' };
    const { namespace, name } = request;
    const now = await approver.live
      .loadMetadata(namespace, name)
      .catch((err: unknown) => {
        if (err instanceof KryptonError && err.code === 'not_found')
          return undefined;
        throw err;
      });
    if (
      !now ||
      now.metadata.uid !== request.uid ||
      now.metadata.resourceVersion !== request.baseRevision
    )
      return { outcome: 'stale' };
    try {
      await this.prove(namespace, name, requested, requester);
    } catch (err) {
      if (err instanceof KryptonError && err.message === messages.staleRevision)
        return { outcome: 'stale' };
      if (
        err instanceof KryptonError &&
        (err.code === 'forbidden' || err.code === 'not_found')
      )
        return { outcome: 'requesterLostRight' };
      throw err;
    }
    try {
      return {
        outcome: 'applied',
        write: await this.write(requested, request, approver),
      };
    } catch (err) {
      if (err instanceof KryptonError && err.message === messages.staleRevision)
        return { outcome: 'stale' };
      throw err;
    }
  }

  private write(
    requested: RequestedChange,
    { namespace, name }: Pick<ChangeRequest, 'namespace' | 'name'>,
    { versioned, gate }: ChangeParty,
  ): Promise<VersionedWrite | DeleteOutcomeReport> {
    switch (requested.operation) {
      case 'update':
        return versioned.update(namespace, name, requested.request, gate);
      case 'restore':
        return versioned.restore(namespace, name, requested.request, gate);
      default:
        return versioned.delete(namespace, name, requested.request, gate);
    }
  }

  /**
   * What a waiting request would do to `live` (the Secret as the party's gates admitted it), key
   * by key. With `values` (the party may reveal them) the values are compared, the proposal or the
   * version read for them, and the entries carry texts that the caller must strip before they
   * leave; without, keys only. Undefined when the proposed keys cannot be known without values.
   */
  async compare(
    request: ChangeRequest,
    proposalUid: string | undefined,
    live: NativeSecret,
    party: ChangeParty,
    values: boolean,
  ): Promise<KeyDiff | undefined> {
    const sideOf = values ? valueSide : keysSide;
    const from = sideOf(live.data);
    const { change } = request;
    switch (change.operation) {
      case 'delete':
        return keyDiff(from, valueSide({}));
      case 'restore': {
        const to = await this.restoredSide(
          request,
          change.version,
          party,
          values,
        );
        return to && keyDiff(from, to);
      }
      default: {
        if (!change.values) return unchangedDiff(from);
        const proposal = await this.proposalOf(request, proposalUid);
        if (!proposal)
          throw new KryptonError(
            'conflict',
            CHANGE_REQUEST_MESSAGES.proposalMissing,
          );
        return keyDiff(from, sideOf(proposal.data));
      }
    }
  }

  /**
   * The side of the version a restore request would bring back: its values, or its recorded keys
   * (undefined when it had too many to record). A version no longer kept is a conflict of the
   * request, not a missing route.
   */
  private async restoredSide(
    request: ChangeRequest,
    version: number,
    party: ChangeParty,
    values: boolean,
  ): Promise<DiffSide | undefined> {
    const { namespace, name } = request;
    if (!values) {
      const listed = (
        await party.versioned.versions(namespace, name, party.gate)
      ).find(v => v.version === version);
      if (!listed)
        throw new KryptonError('conflict', CHANGE_REQUEST_MESSAGES.versionGone);
      return versionKeysSide(listed);
    }
    try {
      return versionSide(
        await party.versioned.version(namespace, name, version, party.gate),
      );
    } catch (err) {
      if (
        err instanceof KryptonError &&
        err.message === messages.versionNotFound
      )
        throw new KryptonError('conflict', CHANGE_REQUEST_MESSAGES.versionGone);
      throw err;
    }
  }

  /** Removes a request's proposal, if it has one; true when one was removed. */
  async discard(
    request: Pick<ChangeRequest, 'namespace' | 'id'>,
  ): Promise<boolean> {
    return this.proposals.remove(request.namespace, request.id);
  }

  /** The request's proposal, when it is still the one the request saved for its Secret and base. */
  private async proposalOf(
    request: ChangeRequest,
    proposalUid: string | undefined,
  ): Promise<ProposalRecord | undefined> {
    if (!proposalUid) return undefined;
    const proposal = await this.proposals.read(
      request.namespace,
      request.id,
      proposalUid,
    );
    return proposal &&
      proposal.secret === request.name &&
      proposal.sourceUid === request.uid &&
      proposal.baseRevision === request.baseRevision
      ? proposal
      : undefined;
  }

  /**
   * The write a stored request stands for, against its base revision; undefined when its
   * proposal is gone or no longer the one it saved.
   */
  private async requested(
    request: ChangeRequest,
    proposalUid: string | undefined,
  ): Promise<RequestedChange | undefined> {
    const { change, baseRevision: resourceVersion } = request;
    const ownedEditReason = change.ownedEditReason;
    switch (change.operation) {
      case 'restore':
        return {
          operation: 'restore',
          request: {
            version: change.version,
            resourceVersion,
            ownedEditReason,
          },
        };
      case 'delete':
        return {
          operation: 'delete',
          request: {
            keepHistory: change.keepHistory,
            resourceVersion,
            ownedEditReason,
          },
        };
      case 'update': {
        const update: UpdateSecretRequest = {
          resourceVersion,
          type: change.type,
          immutable: change.immutable,
          description: change.description,
          access: change.access,
          ownedEditReason,
        };
        if (!change.values) return { operation: 'update', request: update };
        const proposal = await this.proposalOf(request, proposalUid);
        if (!proposal) return undefined;
        // No text values and the complete map as binary values: the update writes exactly the
        // proposed map (mergeData), whatever the keys hold.
        return {
          operation: 'update',
          request: { ...update, data: {}, binaryData: proposal.data },
        };
      }
      default:
        return undefined;
    }
  }
}

/** What a request keeps of a change: everything but values. */
function proposedChange(requested: RequestedChange): ProposedChange {
  const ownedEditReason = requested.request.ownedEditReason;
  const owned = ownedEditReason === undefined ? {} : { ownedEditReason };
  switch (requested.operation) {
    case 'update': {
      const r = requested.request;
      const change: ProposedChange = {
        operation: 'update',
        values: r.data !== undefined || r.binaryData !== undefined,
        ...owned,
      };
      if (r.type !== undefined) change.type = r.type;
      if (r.immutable !== undefined) change.immutable = r.immutable;
      if (r.description !== undefined) change.description = r.description;
      if (r.access !== undefined) change.access = r.access;
      return change;
    }
    case 'restore':
      return {
        operation: 'restore',
        version: requested.request.version,
        ...owned,
      };
    default:
      return {
        operation: 'delete',
        keepHistory: requested.request.keepHistory,
        ...owned,
      };
  }
}
