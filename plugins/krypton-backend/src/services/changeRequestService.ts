import {
  ApprovalPolicy,
  CHANGE_REQUEST_MESSAGES,
  ChangeActor,
  ChangeApplyOutcome,
  ChangeRequest,
  ChangeRequestAnswer,
  ChangeRequestDiff,
  ChangeRequestEngine,
  ChangeRequestState,
  KryptonError,
  KubeGateway,
  LiveGate,
  NativeSecret,
  RequestedChange,
  SecretProposals,
  admitBypass,
  admitWaiting,
  SecretApproval,
  admitWithdrawal,
  decide,
  describeApproval,
  engineGateways,
  freezePolicy,
  inPool,
  isChangeApprover,
  isChangeRequestId,
  isExpired,
  kindOfRef,
  parseChangeTextBody,
  revealedOnly,
  secretApprovalPolicy,
  tryNormalizeEntityRef,
  VALUE_ACTIONS,
} from '@krypton/core';
import { randomUUID } from 'node:crypto';
import {
  ChangeRequestUpdate,
  StoredChangeRequest,
} from '../database/changeRequests';
import { HttpKubeGateway } from '../kubernetes/kubeGateway';
import { AUDIT_EVENTS, AuditEvent } from './audit';
import { admitSecretName } from './callers';
import { ServiceDeps } from './deps';
import { rememberingGate } from './secretGate';
import {
  CallerInput,
  ClusterRequestContext,
  SecretRequestContext,
  SecretTarget,
} from './requestContext';

/** A write's gate found that changes to the Secret need approval: nothing was written. */
class ApprovalRequired extends KryptonError {
  constructor(readonly policy: ApprovalPolicy) {
    super('conflict', CHANGE_REQUEST_MESSAGES.approvalRequired);
  }
}

/** How many requests one list answers, newest first. */
const LIST_LIMIT = 100;
/** How many Secrets the waiting list reads at once, to gate its requests. */
const READ_CONCURRENCY = 8;
/** How many expired or interrupted requests one sweep ends. */
const SWEEP_LIMIT = 100;
/** How long a request may stay `approved` (being applied) before a sweep calls it interrupted. */
const APPLY_STUCK_MS = 15 * 60_000;
/** Who ends a request that nobody ended: expiry, a stale base, an interrupted apply. */
const KRYPTON = 'krypton';

const notFound = () =>
  new KryptonError('not_found', CHANGE_REQUEST_MESSAGES.notFound);

/** A request as the routes answer it: without the proposal's UID or the requester's groups. */
export function publicRequest(stored: StoredChangeRequest): ChangeRequest {
  const {
    proposalUid: _uid,
    requesterGroups: _groups,
    updatedAt: _updated,
    ...request
  } = stored;
  return request;
}

function admitRequestId(id: string): string {
  if (!isChangeRequestId(id)) throw notFound();
  return id;
}

/**
 * Refuses (403) a decision that a plugin or service makes on a user's behalf (an agent's tool, a
 * scaffolder step): only the person, signed in themselves, approves, rejects or bypasses.
 */
function admitInPerson(ctx: SecretRequestContext) {
  if (ctx.credentials.principal.actor !== undefined)
    throw new KryptonError('forbidden', CHANGE_REQUEST_MESSAGES.inPerson);
}

/** The user as a change request judges them: their ref and every ref they own through. */
function actorOf(
  ctx: Pick<ClusterRequestContext, 'principal' | 'actor'>,
): ChangeActor {
  const ownership = new Set<string>();
  for (const ref of ctx.principal.ownershipEntityRefs) {
    const normal = tryNormalizeEntityRef(ref);
    if (normal) ownership.add(normal);
  }
  return { ref: ctx.actor, ownership: [...ownership] };
}

/** Which final state an apply's outcome leaves, and the note that says why when nothing was written. */
function endOf(
  outcome: ChangeApplyOutcome,
  done: 'applied' | 'bypassed',
): { state: ChangeRequestState; note?: string } {
  switch (outcome.outcome) {
    case 'applied':
      return { state: done };
    case 'stale':
      return { state: 'stale', note: CHANGE_REQUEST_MESSAGES.stale };
    case 'proposalGone':
      return { state: 'stale', note: CHANGE_REQUEST_MESSAGES.proposalGone };
    default:
      return {
        state: 'rejected',
        note: CHANGE_REQUEST_MESSAGES.requesterLostRight,
      };
  }
}

/** The version the applied write saved the replaced state as, when it saved one. */
function appliedVersionOf(outcome: ChangeApplyOutcome): number | undefined {
  if (outcome.outcome !== 'applied') return undefined;
  const write = outcome.write;
  return 'archive' in write ? write.archive?.archivedVersion : undefined;
}

/**
 * Four eyes: on a Secret whose changes need approval, an update, restore or delete becomes a
 * change request; its approvers approve or reject it, a soft policy's bypass groups may apply it
 * without them, and the requester may withdraw it. Every decision is gated on the live Secret as
 * the person who decides, and the request's state changes under its row's lock (the store), so
 * that two replicas never both apply one request.
 */
export class ChangeRequestService {
  constructor(private readonly deps: ServiceDeps) {}

  private get store() {
    return this.deps.changeRequests;
  }

  /** The engine of change requests, its proposals written with Krypton's own identity. */
  private engineWith(krypton: KubeGateway): ChangeRequestEngine {
    return new ChangeRequestEngine(
      new SecretProposals({
        gateway: krypton,
        annotationPrefix: this.deps.config.annotationPrefix,
      }),
    );
  }

  private policyOf(ctx: SecretRequestContext, live: NativeSecret) {
    return secretApprovalPolicy(
      live,
      ctx.cluster.name,
      this.deps.config.approvalRules,
      this.deps.config.annotationPrefix,
    );
  }

  /** What a Secret's summary says of its approval policy; undefined when it has none. */
  approvalOf(
    ctx: SecretRequestContext,
    live: NativeSecret,
  ): SecretApproval | undefined {
    const policy = this.policyOf(ctx, live);
    return policy
      ? describeApproval(policy, ctx.live.accessRules(live).owners)
      : undefined;
  }

  /**
   * Runs a write, unless changes to the Secret need approval: then the change is requested
   * instead. The write's own gate decides, on the live Secret that the write reads, so that what
   * is judged is what would be written, at no extra request; its audit event records the write
   * as refused, and the request has its own.
   */
  async writeOrRequest<T>(
    ctx: SecretRequestContext,
    name: string,
    requested: RequestedChange,
    changeReason: string,
    write: (gate: LiveGate) => Promise<T>,
  ): Promise<T | ChangeRequestAnswer> {
    try {
      return await write({
        permit: ctx.gate.permit,
        admit: (secret, actions) => {
          ctx.gate.admit(secret, actions);
          const policy = this.policyOf(ctx, secret);
          if (policy) throw new ApprovalRequired(policy);
        },
      });
    } catch (err) {
      if (!(err instanceof ApprovalRequired)) throw err;
      return this.request(ctx, name, requested, changeReason, err.policy);
    }
  }

  /**
   * Proposes the change as the requester (every check of the write and a dry run with their
   * identity) and records the request under the policy of the Secret that the checks read.
   */
  private async request(
    ctx: SecretRequestContext,
    name: string,
    requested: RequestedChange,
    reason: string,
    covered: ApprovalPolicy,
  ): Promise<ChangeRequestAnswer> {
    const id = randomUUID();
    const meta = {
      ...ctx.auditMeta(name),
      changeRequest: id,
      operation: requested.operation,
    };
    return this.deps.audited(
      ctx,
      AUDIT_EVENTS.changeRequest,
      meta,
      async () => {
        const engine = this.engineWith(ctx.gateways.krypton);
        const proposed = await engine.propose(
          ctx.namespace,
          name,
          id,
          requested,
          {
            live: ctx.live,
            versioned: ctx.versioned,
            gate: ctx.gate,
            actor: ctx.actor,
          },
        );
        const now = new Date();
        let stored: StoredChangeRequest;
        try {
          // The policy of the Secret as the proposal's checks read it. One that no longer asks
          // for approval (its labels changed since the write's read) still gets the request:
          // asking is never less safe than writing.
          const policy = this.policyOf(ctx, proposed.live) ?? covered;
          const frozen = freezePolicy(
            policy,
            ctx.live.accessRules(proposed.live).owners,
          );
          stored = {
            id,
            cluster: ctx.cluster.name,
            namespace: ctx.namespace,
            name,
            uid: proposed.live.metadata.uid ?? '',
            baseRevision: proposed.live.metadata.resourceVersion ?? '',
            change: proposed.change,
            reason,
            requestedBy: ctx.actor,
            requestedAt: now.toISOString(),
            updatedAt: now.toISOString(),
            expiresAt: new Date(
              now.getTime() + policy.expiresAfterHours * 3_600_000,
            ).toISOString(),
            policy: frozen,
            state: 'pending',
            decisions: [],
            requesterGroups: actorOf(ctx).ownership.filter(
              ref => kindOfRef(ref) === 'group',
            ),
            ...(proposed.proposal
              ? { proposalUid: proposed.proposal.uid }
              : {}),
          };
          await this.store.create(stored);
        } catch (err) {
          if (proposed.proposal)
            await engine
              .discard({ namespace: ctx.namespace, id })
              .catch(() => false);
          throw err;
        }
        const changeRequest = publicRequest(stored);
        this.deps.changeNotifier.requestChanged(changeRequest, ctx.actor);
        return {
          result: { changeRequest },
          meta: {
            state: stored.state,
            requiredApprovals: stored.policy.requiredApprovals,
          },
        };
      },
    );
  }

  /**
   * The Secret's change requests, newest first: for a caller who may read the Secret now.
   */
  async list(target: SecretTarget, name: string): Promise<ChangeRequest[]> {
    admitSecretName(name);
    const ctx = await this.deps.callers.context(target);
    await ctx.live.loadGated(ctx.namespace, name, ['read'], ctx.gate, {
      metadataOnly: true,
    });
    const items = await this.store.list(ctx.cluster.name, {
      namespace: ctx.namespace,
      name,
      limit: LIST_LIMIT,
    });
    return items.map(publicRequest);
  }

  /**
   * The requests that wait for the caller's decision: pending, the caller one of their approvers
   * (and not their requester, unless the policy counts that), on Secrets the caller may read now.
   */
  async waiting(input: CallerInput): Promise<ChangeRequest[]> {
    const { caller, inNamespace } = await this.deps.callers.inNamespaces(input);
    const actor = actorOf(caller);
    const candidates = await this.store.list(caller.cluster.name, {
      states: ['pending'],
      approvers: [actor.ref, ...actor.ownership],
      limit: LIST_LIMIT,
    });
    const now = new Date();
    // Waiting for the caller is exactly what the caller's approval would be admitted on.
    const waits = (request: StoredChangeRequest) => {
      try {
        decide(request, actor, 'approve', now);
        return true;
      } catch (err) {
        if (err instanceof KryptonError) return false;
        throw err;
      }
    };
    const readable = await inPool(
      candidates,
      READ_CONCURRENCY,
      async request => {
        if (!waits(request)) return false;
        const ctx = inNamespace(request.namespace);
        try {
          await ctx.live.loadGated(
            request.namespace,
            request.name,
            ['read'],
            ctx.gate,
            { metadataOnly: true },
          );
          return true;
        } catch (err) {
          // A Secret the caller may no longer read, or that is gone, hides its requests; any other
          // failure (Kubernetes unavailable) is the list's own.
          if (
            err instanceof KryptonError &&
            (err.code === 'forbidden' || err.code === 'not_found')
          )
            return false;
          throw err;
        }
      },
    );
    return candidates.filter((_r, i) => readable[i]).map(publicRequest);
  }

  /**
   * One request of a Secret, for a caller who may read the Secret now; once the Secret is gone
   * (a delete that was applied), for its requester and approvers only.
   */
  async get(
    target: SecretTarget,
    name: string,
    id: string,
  ): Promise<ChangeRequest> {
    admitSecretName(name);
    admitRequestId(id);
    const ctx = await this.deps.callers.context(target);
    return publicRequest(await this.load(ctx, name, id));
  }

  /** A request is answered only under its own Secret's path. */
  private underPath(
    ctx: SecretRequestContext,
    name: string,
    found: StoredChangeRequest | undefined,
  ): StoredChangeRequest | undefined {
    return found && found.namespace === ctx.namespace && found.name === name
      ? found
      : undefined;
  }

  /** The stored request under this Secret's path, for a caller the live Secret's gate admitted. */
  private async stored(
    ctx: SecretRequestContext,
    name: string,
    id: string,
  ): Promise<StoredChangeRequest> {
    const request = this.underPath(
      ctx,
      name,
      await this.store.get(ctx.cluster.name, id),
    );
    if (!request) throw notFound();
    return request;
  }

  /**
   * The stored request, after the caller's gate on the live Secret; once the Secret is gone, for
   * the request's requester and approvers only.
   */
  private async load(
    ctx: SecretRequestContext,
    name: string,
    id: string,
  ): Promise<StoredChangeRequest> {
    const request = await this.store
      .get(ctx.cluster.name, id)
      .then(found => this.underPath(ctx, name, found));
    try {
      await ctx.live.loadGated(ctx.namespace, name, ['read'], ctx.gate, {
        metadataOnly: true,
      });
    } catch (err) {
      const party =
        request &&
        (request.requestedBy === ctx.actor ||
          isChangeApprover(request, actorOf(ctx)));
      if (!party || !(err instanceof KryptonError && err.code === 'not_found'))
        throw err;
    }
    if (!request) throw notFound();
    return request;
  }

  /**
   * A waiting request's comparison with the live Secret now, for a caller who may read the
   * Secret: key by key, the values compared only for a caller who may reveal them. Texts leave only
   * for the keys named in `keys`: a value read, gated and audited like one, with the names asked
   * for. The proposal itself is never answered.
   */
  async diff(
    target: SecretTarget,
    name: string,
    id: string,
    options: { keys?: readonly string[] } = {},
  ): Promise<ChangeRequestDiff> {
    admitSecretName(name);
    admitRequestId(id);
    const ctx = await this.deps.callers.context(target);
    ctx.askEarly(VALUE_ACTIONS);
    const { keys } = options;
    const meta = {
      ...ctx.auditMeta(name),
      changeRequest: id,
      ...(keys === undefined ? {} : { keys: keys.join(',') }),
    };
    return this.deps.audited(ctx, AUDIT_EVENTS.changeDiff, meta, async () => {
      // Naming keys is a value read, refused as one; otherwise values are compared only where
      // the caller could read them.
      const live =
        keys === undefined
          ? await ctx.live.loadGated(ctx.namespace, name, ['read'], ctx.gate)
          : await ctx.live.get(ctx.namespace, name, ctx.gate);
      const request = await this.stored(ctx, name, id);
      admitWaiting(request);
      const values =
        keys !== undefined ||
        ctx.mayReveal(
          live,
          (await ctx.policyAnswers(ctx.resourceOf(live))).reveal,
        );
      // The proposal is read as history is: as Krypton in hybrid mode, as the user in user mode,
      // so that the comparison answers nothing the user's own identity could not read.
      const { archive } = engineGateways(
        this.deps.config.identity,
        ctx.gateways,
      );
      const diff = await this.engineWith(archive).compare(
        request,
        request.proposalUid,
        live,
        { live: ctx.live, versioned: ctx.versioned, gate: ctx.gate },
        values,
      );
      const result: ChangeRequestDiff = {
        resourceVersion: live.metadata.resourceVersion ?? '',
      };
      if (diff) result.diff = revealedOnly(diff, keys ?? []);
      return {
        result,
        meta: { valuesCompared: diff?.valuesCompared ?? false },
      };
    });
  }

  async approve(
    target: SecretTarget,
    name: string,
    id: string,
    body: unknown,
  ): Promise<ChangeRequest> {
    return this.decision(target, name, id, 'approve', body);
  }

  async reject(
    target: SecretTarget,
    name: string,
    id: string,
    body: unknown,
  ): Promise<ChangeRequest> {
    return this.decision(target, name, id, 'reject', body);
  }

  private async decision(
    target: SecretTarget,
    name: string,
    id: string,
    decision: 'approve' | 'reject',
    body: unknown,
  ): Promise<ChangeRequest> {
    const comment = parseChangeTextBody(body, 'comment', decision === 'reject');
    const event =
      decision === 'approve'
        ? AUDIT_EVENTS.changeApprove
        : AUDIT_EVENTS.changeReject;
    return this.act(target, name, id, event, async (ctx, actor, now) => {
      const after = await this.store.transition(
        ctx.cluster.name,
        id,
        current => {
          const state = decide(current, actor, decision, now);
          const at = now.toISOString();
          return {
            state,
            decision: { by: actor.ref, decision, comment, at },
            ...(state === 'rejected' ? { ended: { at, by: actor.ref } } : {}),
          };
        },
        now,
      );
      if (after.state === 'approved')
        return this.apply(ctx, after, 'applied', actor.ref);
      return this.ended(ctx.gateways.krypton, after, actor.ref);
    });
  }

  /** The requester takes their request back; an administrator may end a request that nobody decides. */
  async withdraw(
    target: SecretTarget,
    name: string,
    id: string,
    body: unknown,
  ): Promise<ChangeRequest> {
    const comment = parseChangeTextBody(body, 'comment', false);
    const event = AUDIT_EVENTS.changeWithdraw;
    return this.act(target, name, id, event, async (ctx, actor, now) => {
      const refs = [actor.ref, ...actor.ownership];
      const isAdmin = this.deps.config.admins.some(ref => refs.includes(ref));
      const after = await this.store.transition(
        ctx.cluster.name,
        id,
        current => {
          admitWithdrawal(current, actor, isAdmin);
          return {
            state: 'withdrawn',
            ended: {
              at: now.toISOString(),
              by: actor.ref,
              ...(comment ? { note: comment } : {}),
            },
          };
        },
        now,
      );
      return this.ended(ctx.gateways.krypton, after, actor.ref);
    });
  }

  /** A soft policy's bypass: a member of its bypass groups applies the change, with a reason. */
  async bypass(
    target: SecretTarget,
    name: string,
    id: string,
    body: unknown,
  ): Promise<ChangeRequest> {
    const reason = parseChangeTextBody(body, 'reason', true);
    const event = AUDIT_EVENTS.changeBypass;
    return this.act(target, name, id, event, async (ctx, actor, now) => {
      const after = await this.store.transition(
        ctx.cluster.name,
        id,
        current => {
          admitBypass(current, actor, now);
          return {
            state: 'approved',
            bypass: { by: actor.ref, reason, at: now.toISOString() },
          };
        },
        now,
      );
      return this.apply(ctx, after, 'bypassed', actor.ref);
    });
  }

  /**
   * One person's decision on a request, audited with the state it left: made in person, by
   * someone who may read the Secret now (once it is gone, by one of the request's parties).
   */
  private async act(
    target: SecretTarget,
    name: string,
    id: string,
    event: AuditEvent,
    run: (
      ctx: SecretRequestContext,
      actor: ChangeActor,
      now: Date,
    ) => Promise<StoredChangeRequest>,
  ): Promise<ChangeRequest> {
    admitSecretName(name);
    admitRequestId(id);
    const ctx = await this.deps.callers.context(target);
    const meta = { ...ctx.auditMeta(name), changeRequest: id };
    return this.deps.audited(ctx, event, meta, async () => {
      admitInPerson(ctx);
      await this.load(ctx, name, id);
      const after = await run(ctx, actorOf(ctx), new Date());
      return {
        result: publicRequest(after),
        meta: {
          state: after.state,
          ...(after.appliedVersion !== undefined
            ? { appliedVersion: after.appliedVersion }
            : {}),
        },
      };
    });
  }

  /** What follows a request's end by a person: its proposal removed, its parties told. */
  private async ended(
    krypton: KubeGateway,
    request: StoredChangeRequest,
    by: string,
  ): Promise<StoredChangeRequest> {
    if (request.state !== 'pending') await this.discard(krypton, request);
    this.deps.changeNotifier.requestChanged(publicRequest(request), by);
    return request;
  }

  /**
   * Applies a request that its last approval or a bypass left `approved`: as the person who did
   * it (their identity and gates), recording the requester and the approvers, once the requester
   * is proven still allowed. An apply that throws (the approver may not write, the API server
   * failed) writes nothing and leaves the request waiting again, without that approval or bypass.
   */
  private async apply(
    ctx: SecretRequestContext,
    request: StoredChangeRequest,
    done: 'applied' | 'bypassed',
    by: string,
  ): Promise<StoredChangeRequest> {
    const approvedBy =
      done === 'bypassed'
        ? [by]
        : request.decisions
            .filter(d => d.decision === 'approve')
            .map(d => d.by);
    // The person who acts writes, with their identity and gates; history names the requester
    // and the approvers.
    const engines = this.deps.callers.enginesOf(ctx, {
      actor: request.requestedBy,
      approvedBy,
    });
    const requester = this.deps.callers.requesterParty(ctx.cluster, {
      userEntityRef: request.requestedBy,
      ownershipEntityRefs: [request.requestedBy, ...request.requesterGroups],
    });
    const engine = this.engineWith(ctx.gateways.krypton);
    // The Secret as the write's own gate read it, for the notice of a delete.
    const { gate, admitted } = rememberingGate(ctx.gate);
    let outcome: ChangeApplyOutcome;
    try {
      outcome = await engine.apply(
        request,
        request.proposalUid,
        { live: engines.live, versioned: engines.versioned, gate },
        requester,
      );
    } catch (err) {
      const now = new Date();
      await this.store.transition(
        ctx.cluster.name,
        request.id,
        current =>
          current.state === 'approved'
            ? {
                state: 'pending',
                ...(done === 'bypassed'
                  ? { undoBypass: true }
                  : { undoDecisionBy: by }),
              }
            : {},
        now,
      );
      throw err;
    }
    this.announce(ctx, request, outcome, admitted());
    const now = new Date();
    const end = endOf(outcome, done);
    const appliedVersion = appliedVersionOf(outcome);
    const update: ChangeRequestUpdate = {
      state: end.state,
      ended: {
        at: now.toISOString(),
        by: end.note ? KRYPTON : by,
        ...(end.note ? { note: end.note } : {}),
      },
      ...(appliedVersion !== undefined ? { appliedVersion } : {}),
    };
    const after = await this.store.transition(
      ctx.cluster.name,
      request.id,
      () => update,
      now,
    );
    return this.ended(ctx.gateways.krypton, after, by);
  }

  /**
   * Tells of an applied change as a direct write tells of itself: the owners of the entities that
   * link the Secret are notified, and its open pages are signalled, so that the requester's page
   * sees the Secret move.
   */
  private announce(
    ctx: SecretRequestContext,
    request: StoredChangeRequest,
    outcome: ChangeApplyOutcome,
    admitted: NativeSecret | undefined,
  ) {
    if (outcome.outcome !== 'applied') return;
    const { change } = request;
    const write = outcome.write;
    if ('secret' in write) {
      const written = {
        version: ctx.live.toSummary(write.secret).version,
        resourceVersion: write.secret.metadata.resourceVersion ?? '',
        ...ctx.changeOf(write.secret),
        owned: write.owned,
      };
      this.deps.notifier.notify(
        change.operation === 'restore'
          ? { event: 'restore', restoredVersion: change.version, ...written }
          : { event: 'update', ...written },
      );
    } else if (admitted) {
      this.deps.notifier.notify({
        event: 'delete',
        ...write.result,
        ...ctx.changeOf(admitted),
        owned: write.owned,
      });
    }
  }

  /** Removes an ended request's proposal; a failure leaves it to the storage rewrite and the sweep. */
  private async discard(krypton: KubeGateway, request: StoredChangeRequest) {
    if (request.change.operation !== 'update' || !request.change.values) return;
    await this.engineWith(krypton)
      .discard(request)
      .catch(err =>
        this.deps.logger.warn(
          `Could not remove the proposal of change request ${request.id}`,
          { error: String(err instanceof Error ? err.message : err) },
        ),
      );
  }

  /**
   * Ends what nobody ended: pending requests whose time is up (`expired`) and requests left
   * `approved` longer than an apply takes, by a replica that stopped (`stale`, interrupted). Each
   * transition is taken under the row's lock, so that replicas sweeping at once end each once.
   */
  async sweep(
    now: Date = new Date(),
  ): Promise<{ expired: number; interrupted: number }> {
    const clusters = new Map(this.deps.clusters.map(c => [c.name, c]));
    let expired = 0;
    let interrupted = 0;
    const end = async (
      request: StoredChangeRequest,
      rule: (current: StoredChangeRequest) => boolean,
      state: ChangeRequestState,
      event: AuditEvent,
      note?: string,
    ) => {
      const cluster = clusters.get(request.cluster);
      let after: StoredChangeRequest;
      try {
        after = await this.store.transition(
          request.cluster,
          request.id,
          current => {
            if (!rule(current))
              throw new KryptonError(
                'conflict',
                CHANGE_REQUEST_MESSAGES.notOpen,
              );
            return {
              state,
              ended: {
                at: now.toISOString(),
                by: KRYPTON,
                ...(note ? { note } : {}),
              },
            };
          },
          now,
        );
      } catch (err) {
        if (err instanceof KryptonError) return false;
        throw err;
      }
      await this.deps.auditor
        .createEvent({
          eventId: event.eventId,
          severityLevel: event.severityLevel,
          meta: {
            actor: KRYPTON,
            cluster: after.cluster,
            namespace: after.namespace,
            name: after.name,
            changeRequest: after.id,
            state,
          },
        })
        .then(recorded => recorded.success());
      if (cluster)
        await this.discard(
          new HttpKubeGateway(cluster.transport, this.deps.logger),
          after,
        );
      this.deps.changeNotifier.requestChanged(publicRequest(after), KRYPTON);
      return true;
    };
    for (const request of await this.store.due(now, SWEEP_LIMIT)) {
      if (
        await end(
          request,
          current => current.state === 'pending' && isExpired(current, now),
          'expired',
          AUDIT_EVENTS.changeExpire,
        )
      )
        expired++;
    }
    const before = new Date(now.getTime() - APPLY_STUCK_MS);
    for (const request of await this.store.stuck(before, SWEEP_LIMIT)) {
      if (
        await end(
          request,
          current =>
            current.state === 'approved' &&
            Date.parse(current.updatedAt) < before.getTime(),
          'stale',
          AUDIT_EVENTS.changeInterrupted,
          CHANGE_REQUEST_MESSAGES.interrupted,
        )
      )
        interrupted++;
    }
    return { expired, interrupted };
  }
}
