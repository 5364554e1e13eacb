import { Postgres, startPostgres } from '@krypton/kube-testenv';
import {
  CHANGE_REQUEST_MESSAGES,
  ChangeActor,
  ChangeRequestState,
  decide,
} from '@krypton/core';
import knexFactory, { Knex } from 'knex';
import { randomUUID } from 'node:crypto';
import { ChangeRequestStore, StoredChangeRequest } from './changeRequests';
import { migratedClient } from './migrate';

const NOW = new Date('2026-12-06T08:00:00.000Z');
const bob: ChangeActor = {
  ref: 'user:default/bob',
  ownership: ['user:default/bob', 'group:default/payments'],
};
const carol: ChangeActor = {
  ref: 'user:default/carol',
  ownership: ['user:default/carol', 'group:default/sre'],
};

function newRequest(
  overrides: Partial<StoredChangeRequest> = {},
): StoredChangeRequest {
  return {
    id: randomUUID(),
    cluster: 'test',
    namespace: 'payments',
    name: 'db',
    uid: randomUUID(),
    baseRevision: '41',
    change: {
      operation: 'update',
      values: true,
      description: 'the payments database',
    },
    reason: 'rotate the password',
    requestedBy: 'user:default/alice',
    requestedAt: '2026-12-06T07:00:00.000Z',
    updatedAt: '2026-12-06T07:00:00.000Z',
    expiresAt: '2026-12-07T07:00:00.000Z',
    policy: {
      requiredApprovals: 1,
      approvers: ['group:default/payments', 'group:default/sre'],
      allowSelfApproval: false,
      enforcement: 'hard',
      bypassGroups: [],
    },
    state: 'pending',
    decisions: [],
    proposalUid: randomUUID(),
    requesterGroups: ['group:default/payments'],
    ...overrides,
  };
}

const ids = (list: StoredChangeRequest[]) => list.map(r => r.id);

/** The store's transition for one decision, with the core's rule deciding under the lock. */
const decideIn =
  (store: ChangeRequestStore) =>
  (id: string, actor: ChangeActor, decision: 'approve' | 'reject') =>
    store.transition(
      'test',
      id,
      current => ({
        state: decide(current, actor, decision, NOW),
        decision: {
          by: actor.ref,
          decision,
          comment: `${decision} by ${actor.ref}`,
          at: NOW.toISOString(),
        },
      }),
      NOW,
    );

/** What both databases must do alike. */
function storeContract(open: () => Promise<Knex>) {
  let db: Knex;
  let store: ChangeRequestStore;

  beforeAll(async () => {
    db = await migratedClient({ getClient: open } as never);
    store = new ChangeRequestStore(db);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  it('keeps a request as it was made and answers it by cluster and id', async () => {
    const request = newRequest();
    await store.create(request);
    expect(await store.get('test', request.id)).toEqual(request);
    expect(await store.get('other', request.id)).toBeUndefined();
  });

  it('records decisions with their comments and moves to approved at the quorum', async () => {
    const request = newRequest({
      policy: { ...newRequest().policy, requiredApprovals: 2 },
    });
    await store.create(request);
    const first = await decideIn(store)(request.id, bob, 'approve');
    expect(first.state).toBe('pending');
    const second = await decideIn(store)(request.id, carol, 'approve');
    expect(second.state).toBe('approved');
    expect(second.decisions).toEqual([
      {
        by: bob.ref,
        decision: 'approve',
        comment: `approve by ${bob.ref}`,
        at: NOW.toISOString(),
      },
      {
        by: carol.ref,
        decision: 'approve',
        comment: `approve by ${carol.ref}`,
        at: NOW.toISOString(),
      },
    ]);
  });

  it('takes back the approval or bypass of an apply that failed, leaving the request waiting', async () => {
    const request = newRequest();
    await store.create(request);
    const approved = await decideIn(store)(request.id, bob, 'approve');
    expect(approved.state).toBe('approved');
    const undone = await store.transition(
      'test',
      request.id,
      () => ({ state: 'pending', undoDecisionBy: bob.ref }),
      NOW,
    );
    expect([undone.state, undone.decisions]).toEqual(['pending', []]);
    // The approver may approve again once the cause is mended.
    expect((await decideIn(store)(request.id, bob, 'approve')).state).toBe(
      'approved',
    );

    const bypassed = newRequest();
    await store.create(bypassed);
    await store.transition(
      'test',
      bypassed.id,
      () => ({
        state: 'approved',
        bypass: { by: carol.ref, reason: 'outage', at: NOW.toISOString() },
      }),
      NOW,
    );
    const back = await store.transition(
      'test',
      bypassed.id,
      () => ({ state: 'pending', undoBypass: true }),
      NOW,
    );
    expect(back.state).toBe('pending');
    expect(back.bypass).toBeUndefined();
  });

  it('writes nothing when the rule refuses, and refuses a second decision by the key too', async () => {
    const request = newRequest({
      policy: { ...newRequest().policy, requiredApprovals: 2 },
    });
    await store.create(request);
    await decideIn(store)(request.id, bob, 'approve');
    await expect(
      decideIn(store)(request.id, bob, 'reject'),
    ).rejects.toMatchObject({
      code: 'conflict',
      message: CHANGE_REQUEST_MESSAGES.alreadyDecided,
    });
    // A replica whose rule let it through would still be stopped by the key. (The driver's
    // error is not always an Error of this realm, so the outcome is read, not matched.)
    const forced = await store
      .transition(
        'test',
        request.id,
        () => ({
          decision: {
            by: bob.ref,
            decision: 'reject',
            comment: '',
            at: NOW.toISOString(),
          },
          state: 'rejected',
        }),
        NOW,
      )
      .then(
        () => 'written',
        () => 'refused',
      );
    expect(forced).toBe('refused');
    const after = await store.get('test', request.id);
    expect(after?.state).toBe('pending');
    expect(after?.decisions.map(d => d.decision)).toEqual(['approve']);
  });

  it('answers 404 for a transition of a request it does not hold', async () => {
    await expect(
      store.transition('test', randomUUID(), () => ({}), NOW),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('lists by Secret, state, requester and approver, newest first', async () => {
    const ns = `list-${randomUUID().slice(0, 8)}`;
    const made: StoredChangeRequest[] = [];
    for (const [i, state, approvers] of [
      [1, 'pending', ['group:default/payments']],
      [2, 'applied', ['group:default/payments']],
      [3, 'pending', ['user:default/dora']],
    ] as Array<[number, ChangeRequestState, string[]]>) {
      const request = newRequest({
        namespace: ns,
        state,
        requestedAt: `2026-12-06T0${i}:00:00.000Z`,
        policy: { ...newRequest().policy, approvers },
      });
      await store.create(request);
      made.push(request);
    }
    expect(
      ids(await store.list('test', { namespace: ns, name: 'db', limit: 10 })),
    ).toEqual([made[2].id, made[1].id, made[0].id]);
    expect(
      ids(
        await store.list('test', {
          namespace: ns,
          states: ['pending'],
          approvers: bob.ownership,
          limit: 10,
        }),
      ),
    ).toEqual([made[0].id]);
    expect(
      ids(
        await store.list('test', {
          namespace: ns,
          approvers: ['user:default/dora', 'group:default/payments'],
          limit: 2,
        }),
      ),
    ).toEqual([made[2].id, made[1].id]);
    expect(
      await store.list('test', {
        namespace: ns,
        requestedBy: 'user:default/nobody',
        limit: 10,
      }),
    ).toEqual([]);
  });

  it('finds the pending requests whose time is up, and those left being applied', async () => {
    const due = newRequest({ expiresAt: '2000-01-01T00:00:00.000Z' });
    const applying = newRequest({ state: 'approved' });
    await store.create(due);
    await store.create(applying);
    expect(ids(await store.due(NOW, 100))).toContain(due.id);
    expect(ids(await store.due(NOW, 100))).not.toContain(applying.id);
    // The row's updated_at is its requested_at until a transition writes it.
    expect(ids(await store.stuck(NOW, 100))).toContain(applying.id);
    expect(
      ids(await store.stuck(new Date('2026-12-06T06:00:00.000Z'), 100)),
    ).not.toContain(applying.id);
  });
}

describe('change requests in SQLite', () => {
  storeContract(async () =>
    knexFactory({
      client: 'better-sqlite3',
      connection: { filename: ':memory:' },
      useNullAsDefault: true,
    }),
  );
});

describe('change requests in PostgreSQL', () => {
  let postgres: Postgres;
  const clients: Knex[] = [];
  const connect = () => {
    const client = knexFactory({
      client: 'pg',
      connection: { ...postgres.connection, database: 'postgres' },
      pool: { min: 0, max: 4 },
    });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    postgres = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await Promise.all(clients.map(c => c.destroy()));
    await postgres?.stop();
  });

  describe('the store', () => {
    storeContract(async () => connect());
  });

  it('applies once when two replicas complete the quorum at the same moment', async () => {
    const replicas = [
      new ChangeRequestStore(
        await migratedClient({ getClient: async () => connect() } as never),
      ),
      new ChangeRequestStore(
        await migratedClient({ getClient: async () => connect() } as never),
      ),
    ];
    for (let round = 0; round < 10; round++) {
      const request = newRequest();
      await replicas[0].create(request);
      const outcomes = await Promise.allSettled([
        decideIn(replicas[0])(request.id, bob, 'approve'),
        decideIn(replicas[1])(request.id, carol, 'approve'),
      ]);
      const won = outcomes.filter(o => o.status === 'fulfilled');
      const lost = outcomes.filter(
        (o): o is PromiseRejectedResult => o.status === 'rejected',
      );
      // One approval reached the quorum; the other found the request no longer waiting.
      expect(won).toHaveLength(1);
      expect(lost.map(o => o.reason.message)).toEqual([
        CHANGE_REQUEST_MESSAGES.notPending,
      ]);
      const after = await replicas[1].get('test', request.id);
      expect(after?.state).toBe('approved');
      expect(after?.decisions).toHaveLength(1);
    }
  });

  it('counts both approvals when two replicas record them at once toward a quorum of two', async () => {
    const replicas = [
      new ChangeRequestStore(
        await migratedClient({ getClient: async () => connect() } as never),
      ),
      new ChangeRequestStore(
        await migratedClient({ getClient: async () => connect() } as never),
      ),
    ];
    for (let round = 0; round < 10; round++) {
      const request = newRequest({
        policy: { ...newRequest().policy, requiredApprovals: 2 },
      });
      await replicas[0].create(request);
      const states = await Promise.all([
        decideIn(replicas[0])(request.id, bob, 'approve'),
        decideIn(replicas[1])(request.id, carol, 'approve'),
      ]);
      // Serialized by the row lock: the second decided on what the first wrote.
      expect(states.map(s => s.state).sort()).toEqual(['approved', 'pending']);
      expect((await replicas[0].get('test', request.id))?.state).toBe(
        'approved',
      );
    }
  });
});
