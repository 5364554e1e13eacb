import {
  ChangeDecision,
  ChangeRequest,
  ChangeRequestPolicy,
  ChangeRequestState,
  KryptonError,
  ProposedChange,
} from '@krypton/core';
import { Knex } from 'knex';

const REQUESTS = 'krypton_change_requests';
const DECISIONS = 'krypton_change_request_decisions';
const APPROVERS = 'krypton_change_request_approvers';

interface Row {
  id: string;
  cluster: string;
  namespace: string;
  name: string;
  uid: string;
  base_revision: string;
  change: string;
  reason: string;
  requested_by: string;
  requested_at: string;
  expires_at: string;
  policy: string;
  state: ChangeRequestState;
  updated_at: string;
  proposal_uid: string | null;
  bypass: string | null;
  ended: string | null;
  applied_version: number | null;
  requester_groups: string;
}

interface DecisionRow {
  request_id: string;
  decided_by: string;
  decision: ChangeDecision['decision'];
  comment: string;
  at: string;
}

/**
 * A stored request with what only the backend needs: its proposal's UID, and the requester's
 * group refs as their sign-in gave them, which the apply's proof acts with.
 */
export interface StoredChangeRequest extends ChangeRequest {
  proposalUid?: string;
  requesterGroups: string[];
  /** When it last changed; a request `approved` for long was left by a replica that stopped. */
  updatedAt: string;
}

/**
 * What one transition writes: the new state, and a decision, bypass, end or applied version with
 * it. Fields left out stay as they are.
 */
export interface ChangeRequestUpdate {
  state?: ChangeRequestState;
  decision?: ChangeDecision;
  bypass?: ChangeRequest['bypass'];
  ended?: ChangeRequest['ended'];
  appliedVersion?: number;
  proposalUid?: string;
  /** Takes back this person's decision: an apply that failed undoes the approval it followed. */
  undoDecisionBy?: string;
  /** Takes back the bypass: a bypass whose apply failed. */
  undoBypass?: boolean;
}

/** A list's filter; every part narrows it. */
export interface ChangeRequestFilter {
  namespace?: string;
  name?: string;
  states?: readonly ChangeRequestState[];
  /** Requests that these refs (a user's own and their groups') may approve. */
  approvers?: readonly string[];
  requestedBy?: string;
  limit: number;
}

function toRequest(row: Row, decisions: DecisionRow[]): StoredChangeRequest {
  const request: StoredChangeRequest = {
    id: row.id,
    cluster: row.cluster,
    namespace: row.namespace,
    name: row.name,
    uid: row.uid,
    baseRevision: row.base_revision,
    change: JSON.parse(row.change) as ProposedChange,
    reason: row.reason,
    requestedBy: row.requested_by,
    requestedAt: row.requested_at,
    expiresAt: row.expires_at,
    policy: JSON.parse(row.policy) as ChangeRequestPolicy,
    state: row.state,
    requesterGroups: JSON.parse(row.requester_groups) as string[],
    updatedAt: row.updated_at,
    decisions: decisions
      .sort((a, b) => a.at.localeCompare(b.at))
      .map(d => ({
        by: d.decided_by,
        decision: d.decision,
        comment: d.comment,
        at: d.at,
      })),
  };
  if (row.bypass) request.bypass = JSON.parse(row.bypass);
  if (row.ended) request.ended = JSON.parse(row.ended);
  if (row.applied_version !== null)
    request.appliedVersion = row.applied_version;
  if (row.proposal_uid) request.proposalUid = row.proposal_uid;
  return request;
}

/**
 * Change requests in the plugin's database, shared by every replica. Every transition runs in a
 * transaction that first locks the request's row (on PostgreSQL; SQLite has one writer), reads it
 * again and asks `decide` what to write: two replicas that act on one request at once are
 * serialized, and the second decides on what the first wrote. Timestamps are ISO strings in UTC
 * of one length, so that they compare as text in SQL.
 */
export class ChangeRequestStore {
  constructor(private readonly db: Knex) {}

  async create(request: StoredChangeRequest): Promise<void> {
    await this.db.transaction(async trx => {
      await trx<Row>(REQUESTS).insert({
        id: request.id,
        cluster: request.cluster,
        namespace: request.namespace,
        name: request.name,
        uid: request.uid,
        base_revision: request.baseRevision,
        change: JSON.stringify(request.change),
        reason: request.reason,
        requested_by: request.requestedBy,
        requested_at: request.requestedAt,
        expires_at: request.expiresAt,
        policy: JSON.stringify(request.policy),
        state: request.state,
        updated_at: request.requestedAt,
        proposal_uid: request.proposalUid ?? null,
        bypass: null,
        ended: null,
        applied_version: null,
        requester_groups: JSON.stringify(request.requesterGroups),
      });
      await trx(APPROVERS).insert(
        request.policy.approvers.map(ref => ({ request_id: request.id, ref })),
      );
    });
  }

  private async load(db: Knex, rows: Row[]): Promise<StoredChangeRequest[]> {
    if (rows.length === 0) return [];
    const decisions = await db<DecisionRow>(DECISIONS).whereIn(
      'request_id',
      rows.map(r => r.id),
    );
    return rows.map(row =>
      toRequest(
        row,
        decisions.filter(d => d.request_id === row.id),
      ),
    );
  }

  async get(
    cluster: string,
    id: string,
  ): Promise<StoredChangeRequest | undefined> {
    const row = await this.db<Row>(REQUESTS).where({ cluster, id }).first();
    return row ? (await this.load(this.db, [row]))[0] : undefined;
  }

  /** Newest first. */
  async list(
    cluster: string,
    filter: ChangeRequestFilter,
  ): Promise<StoredChangeRequest[]> {
    const query = this.db<Row>(REQUESTS)
      .where({ cluster })
      .orderBy([
        { column: 'requested_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(filter.limit);
    if (filter.namespace) query.andWhere('namespace', filter.namespace);
    if (filter.name) query.andWhere('name', filter.name);
    if (filter.states) query.whereIn('state', [...filter.states]);
    if (filter.requestedBy) query.andWhere('requested_by', filter.requestedBy);
    if (filter.approvers) {
      const refs = [...filter.approvers];
      query.whereIn(
        'id',
        this.db(APPROVERS).select('request_id').whereIn('ref', refs),
      );
    }
    return this.load(this.db, await query);
  }

  /**
   * One transition: the request's row is locked and read again, `decide` answers what to write
   * (or throws, which writes nothing), and the update is written with it. Answers the request as
   * it is afterwards; 404 when there is none.
   */
  async transition(
    cluster: string,
    id: string,
    decide: (current: StoredChangeRequest) => ChangeRequestUpdate,
    now: Date,
  ): Promise<StoredChangeRequest> {
    return this.db.transaction(async trx => {
      const select = trx<Row>(REQUESTS).where({ cluster, id });
      if (trx.client.dialect === 'postgresql') select.forUpdate();
      const row = await select.first();
      if (!row)
        throw new KryptonError('not_found', 'Change request not found.');
      const [current] = await this.load(trx, [row]);
      const update = decide(current);
      if (update.undoDecisionBy !== undefined) {
        await trx<DecisionRow>(DECISIONS)
          .where({ request_id: id, decided_by: update.undoDecisionBy })
          .delete();
      }
      if (update.decision) {
        await trx<DecisionRow>(DECISIONS).insert({
          request_id: id,
          decided_by: update.decision.by,
          decision: update.decision.decision,
          comment: update.decision.comment,
          at: update.decision.at,
        });
      }
      const patch: Partial<Row> = { updated_at: now.toISOString() };
      if (update.state) patch.state = update.state;
      if (update.bypass) patch.bypass = JSON.stringify(update.bypass);
      if (update.undoBypass) patch.bypass = null;
      if (update.ended) patch.ended = JSON.stringify(update.ended);
      if (update.appliedVersion !== undefined)
        patch.applied_version = update.appliedVersion;
      if (update.proposalUid) patch.proposal_uid = update.proposalUid;
      await trx<Row>(REQUESTS).where({ cluster, id }).update(patch);
      const after = await trx<Row>(REQUESTS).where({ cluster, id }).first();
      return (await this.load(trx, [after!]))[0];
    });
  }

  /** The pending requests whose time is up, oldest first, at most `limit`. */
  async due(now: Date, limit: number): Promise<StoredChangeRequest[]> {
    const rows = await this.db<Row>(REQUESTS)
      .where({ state: 'pending' })
      .andWhere('expires_at', '<=', now.toISOString())
      .orderBy('expires_at', 'asc')
      .limit(limit);
    return this.load(this.db, rows);
  }

  /** The requests left `approved` (being applied) since before `before`: a replica stopped. */
  async stuck(before: Date, limit: number): Promise<StoredChangeRequest[]> {
    const rows = await this.db<Row>(REQUESTS)
      .where({ state: 'approved' })
      .andWhere('updated_at', '<', before.toISOString())
      .orderBy('updated_at', 'asc')
      .limit(limit);
    return this.load(this.db, rows);
  }
}
