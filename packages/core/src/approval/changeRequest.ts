import { AccessRules } from '../dto';
import { KryptonError } from '../errors';
import { ApprovalEnforcement, ApprovalPolicy } from './policy';

/**
 * Where a change request stands. `pending` waits for approvals; `approved` has its quorum (or a
 * bypass) and is being applied; the others are ended: `applied` (written), `bypassed` (written by
 * a soft policy's bypass), `rejected`, `withdrawn`, `expired`, and `stale` (the live Secret moved
 * past the base revision, so nothing was written).
 *
 * @public
 */
export type ChangeRequestState =
  | 'pending'
  | 'approved'
  | 'applied'
  | 'rejected'
  | 'withdrawn'
  | 'expired'
  | 'stale'
  | 'bypassed';

/**
 * The change a request asks for, without values: an update's proposed values live in its
 * proposal Secret (`values: true`), never here.
 *
 * @public
 */
export type ProposedChange = (
  | {
      operation: 'update';
      /** Whether the update replaces values, which its proposal Secret then holds. */
      values: boolean;
      type?: string;
      immutable?: boolean;
      description?: string;
      access?: Partial<AccessRules>;
    }
  | { operation: 'restore'; version: number }
  | { operation: 'delete'; keepHistory: boolean }
) & { ownedEditReason?: string };

/**
 * The policy a request was made under, frozen when it was made: a later change of the rules or
 * of the Secret's owners never changes who may approve a request that is waiting.
 *
 * @public
 */
export interface ChangeRequestPolicy {
  requiredApprovals: number;
  /** Normalized user and group refs: someone who is one of them, or a member, may approve. */
  approvers: string[];
  allowSelfApproval: boolean;
  enforcement: ApprovalEnforcement;
  bypassGroups: string[];
}

/** @public */
export interface ChangeDecision {
  by: string;
  decision: 'approve' | 'reject';
  /** Empty when none was given (approvals only). */
  comment: string;
  at: string;
}

/**
 * A change request as the routes answer it: never a value.
 *
 * @public
 */
export interface ChangeRequest {
  id: string;
  cluster: string;
  namespace: string;
  /** The live Secret's name and the UID and revision the change was planned against. */
  name: string;
  uid: string;
  baseRevision: string;
  change: ProposedChange;
  /** Why the requester asks for the change. */
  reason: string;
  requestedBy: string;
  requestedAt: string;
  expiresAt: string;
  policy: ChangeRequestPolicy;
  state: ChangeRequestState;
  decisions: ChangeDecision[];
  /** The soft policy's bypass: who, why, when. */
  bypass?: { by: string; reason: string; at: string };
  /** Set when the request ended: when, by whom (`krypton` for expiry and stale), and why. */
  ended?: { at: string; by: string; note?: string };
  /** The version the applied change saved the replaced state as. */
  appliedVersion?: number;
}

/**
 * The answer of an update, restore or delete of a Secret whose changes need approval: the change
 * request that now waits, with status 202.
 *
 * @public
 */
export interface ChangeRequestAnswer {
  changeRequest: ChangeRequest;
}

/** @public */
export interface ChangeRequestList {
  items: ChangeRequest[];
}

/**
 * What a Secret's summary says of its approval policy: who may approve a change requested now
 * (empty when nobody may, and requests are refused), and what else the policy asks.
 *
 * @public
 */
export interface SecretApproval extends ChangeRequestPolicy {
  expiresAfterHours: number;
  /** Why the Secret's own annotation was read as one approval. */
  annotationProblem?: string;
}

/**
 * A policy as a Secret's summary shows it.
 *
 * @public
 */
export function describeApproval(
  policy: ApprovalPolicy,
  owners: readonly string[],
): SecretApproval {
  return {
    requiredApprovals: policy.requiredApprovals,
    approvers:
      policy.approvers.kind === 'groups'
        ? policy.approvers.groups
        : [...owners],
    allowSelfApproval: policy.allowSelfApproval,
    enforcement: policy.enforcement,
    bypassGroups: policy.bypassGroups,
    expiresAfterHours: policy.expiresAfterHours,
    ...(policy.annotationProblem
      ? { annotationProblem: policy.annotationProblem }
      : {}),
  };
}

/**
 * Who acts on a request: the signed-in user's ref and every ref they own through (their groups).
 *
 * @public
 */
export interface ChangeActor {
  ref: string;
  ownership: readonly string[];
}

/**
 * Krypton's fixed texts for change requests.
 *
 * @public
 */
export const CHANGE_REQUEST_MESSAGES = {
  notOpen: 'This change request has ended.',
  notPending: 'This change request is no longer waiting for approval.',
  expired: 'This change request has expired.',
  notApprover: 'You are not an approver of this change request.',
  selfApproval: 'You cannot approve your own change request.',
  selfRejection: 'Withdraw your own change request instead of rejecting it.',
  alreadyDecided: 'You have already decided on this change request.',
  notRequester: 'Only the requester can withdraw this change request.',
  notBypasser: 'You may not bypass the approval of this change request.',
  hardPolicy: 'The approval of this Secret cannot be bypassed.',
  noApprovers:
    'No one may approve changes to this Secret: it has no owners, and the approval rule names no approver groups.',
  notFound: 'Change request not found.',
  inPerson:
    'Change requests are decided by people signed in to Backstage, never by a service on their behalf.',
  approvalRequired:
    'Changes to this Secret need approval: the change was requested instead of written.',
  stale:
    'The Secret changed after this change was requested, so nothing was written. Request the change again.',
  requesterLostRight:
    'The requester may no longer make this change, so nothing was written.',
  proposalGone:
    'The proposed values are gone, so nothing was written. Request the change again.',
  proposalMissing:
    'The proposed values of this change request are gone. Request the change again.',
  versionGone:
    'The version that this change request would restore is no longer in the history.',
  interrupted:
    "Krypton stopped while applying this change. The Secret's history shows whether it was written; request it again if it was not.",
} as const;

const conflict = (message: string) => new KryptonError('conflict', message);
const forbidden = (message: string) => new KryptonError('forbidden', message);

/**
 * The policy a request is made under: the approvers are the policy's groups, or the Secret's
 * owners as its annotation names them at that moment. Refused (409) when that leaves nobody.
 *
 * @public
 */
export function freezePolicy(
  policy: ApprovalPolicy,
  owners: readonly string[],
): ChangeRequestPolicy {
  const { approvers, requiredApprovals, allowSelfApproval, enforcement } =
    describeApproval(policy, owners);
  if (approvers.length === 0)
    throw conflict(CHANGE_REQUEST_MESSAGES.noApprovers);
  return {
    requiredApprovals,
    approvers,
    allowSelfApproval,
    enforcement,
    bypassGroups: policy.bypassGroups,
  };
}

const isOneOf = (actor: ChangeActor, refs: readonly string[]) =>
  actor.ownership.some(ref => refs.includes(ref)) || refs.includes(actor.ref);

/** @public */
export function isChangeApprover(
  request: Pick<ChangeRequest, 'policy'>,
  actor: ChangeActor,
): boolean {
  return isOneOf(actor, request.policy.approvers);
}

/** @public */
export function isExpired(
  request: Pick<ChangeRequest, 'expiresAt'>,
  now: Date,
) {
  return now.getTime() >= Date.parse(request.expiresAt);
}

/**
 * The approvals that count toward the quorum: one per approver, and the requester's only where
 * the policy allows self-approval.
 *
 * @public
 */
export function countedApprovals(
  request: Pick<ChangeRequest, 'decisions' | 'policy' | 'requestedBy'>,
): number {
  const by = new Set<string>();
  for (const d of request.decisions) {
    if (d.decision !== 'approve') continue;
    if (d.by === request.requestedBy && !request.policy.allowSelfApproval)
      continue;
    by.add(d.by);
  }
  return by.size;
}

/**
 * Refuses (409) a request that no longer waits: being applied, or ended.
 *
 * @public
 */
export function admitWaiting(request: ChangeRequest) {
  if (request.state !== 'pending') {
    throw conflict(
      request.state === 'approved'
        ? CHANGE_REQUEST_MESSAGES.notPending
        : CHANGE_REQUEST_MESSAGES.notOpen,
    );
  }
}

/** admitWaiting, and refuses (409) a request whose time is up. */
function admitPending(request: ChangeRequest, now: Date) {
  admitWaiting(request);
  if (isExpired(request, now)) throw conflict(CHANGE_REQUEST_MESSAGES.expired);
}

/**
 * Checks an approval or a rejection, and answers the state it leaves: an approval that completes
 * the quorum leaves the request `approved` (to be applied), one rejection ends it.
 *
 * @public
 */
export function decide(
  request: ChangeRequest,
  actor: ChangeActor,
  decision: ChangeDecision['decision'],
  now: Date,
): ChangeRequestState {
  admitPending(request, now);
  const own = actor.ref === request.requestedBy;
  if (own && decision === 'reject')
    throw conflict(CHANGE_REQUEST_MESSAGES.selfRejection);
  if (own && !request.policy.allowSelfApproval)
    throw forbidden(CHANGE_REQUEST_MESSAGES.selfApproval);
  if (!isChangeApprover(request, actor))
    throw forbidden(CHANGE_REQUEST_MESSAGES.notApprover);
  if (request.decisions.some(d => d.by === actor.ref))
    throw conflict(CHANGE_REQUEST_MESSAGES.alreadyDecided);
  if (decision === 'reject') return 'rejected';
  const after = countedApprovals({
    ...request,
    decisions: [
      ...request.decisions,
      { by: actor.ref, decision, comment: '', at: now.toISOString() },
    ],
  });
  return after >= request.policy.requiredApprovals ? 'approved' : 'pending';
}

/**
 * Checks a withdrawal: the requester's, or an administrator's for a request stuck waiting.
 *
 * @public
 */
export function admitWithdrawal(
  request: ChangeRequest,
  actor: ChangeActor,
  isAdmin: boolean,
): void {
  admitWaiting(request);
  if (actor.ref !== request.requestedBy && !isAdmin)
    throw forbidden(CHANGE_REQUEST_MESSAGES.notRequester);
}

/**
 * Checks a bypass of a soft policy: by a member of its bypass groups, while the request waits.
 *
 * @public
 */
export function admitBypass(
  request: ChangeRequest,
  actor: ChangeActor,
  now: Date,
): void {
  admitPending(request, now);
  if (request.policy.enforcement !== 'soft')
    throw forbidden(CHANGE_REQUEST_MESSAGES.hardPolicy);
  if (!isOneOf(actor, request.policy.bypassGroups))
    throw forbidden(CHANGE_REQUEST_MESSAGES.notBypasser);
}

/**
 * How long a comment or a reason may be.
 *
 * @public
 */
export const CHANGE_COMMENT_MAX = 1000;

/**
 * A reason, comment or bypass reason from a client: trimmed, at most 1,000 characters, no
 * control characters but line breaks. `required` refuses an empty one.
 *
 * @public
 */
export function parseChangeText(
  raw: unknown,
  field: string,
  required: boolean,
): string {
  if (raw === undefined) {
    if (required)
      throw new KryptonError('invalid_request', `"${field}" is required.`);
    return '';
  }
  if (typeof raw !== 'string')
    throw new KryptonError('invalid_request', `"${field}" must be text.`);
  if (raw.length > CHANGE_COMMENT_MAX * 2)
    throw new KryptonError(
      'invalid_request',
      `"${field}" must be at most ${CHANGE_COMMENT_MAX} characters.`,
    );
  const text = raw.trim();
  if (text.length > CHANGE_COMMENT_MAX)
    throw new KryptonError(
      'invalid_request',
      `"${field}" must be at most ${CHANGE_COMMENT_MAX} characters.`,
    );
  if (required && text.length === 0)
    throw new KryptonError('invalid_request', `"${field}" is required.`);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (
      (c < 0x20 && c !== 0x0a) ||
      (c >= 0x7f && c <= 0x9f) ||
      c === 0x2028 ||
      c === 0x2029
    )
      throw new KryptonError(
        'invalid_request',
        `"${field}" must not hold control characters.`,
      );
  }
  return text;
}

/**
 * Takes a change's reason out of an update, restore or delete body, so that the write's own
 * parser sees the body it always has; the reason is optional text (`parseChangeText`).
 *
 * @public
 */
export function splitChangeReason(raw: unknown): {
  body: unknown;
  changeReason: string;
} {
  if (
    typeof raw !== 'object' ||
    raw === null ||
    Array.isArray(raw) ||
    !Object.prototype.hasOwnProperty.call(raw, 'changeReason')
  )
    return { body: raw, changeReason: '' };
  const { changeReason, ...body } = raw as Record<string, unknown>;
  return {
    body,
    changeReason: parseChangeText(changeReason, 'changeReason', false),
  };
}
