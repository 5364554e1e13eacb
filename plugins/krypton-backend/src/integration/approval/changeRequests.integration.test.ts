import { Entity } from '@backstage/catalog-model';
import { mockCredentials } from '@backstage/backend-test-utils';
import {
  ClusterAdmin,
  Postgres,
  startPostgres,
  useTestNamespace,
} from '@krypton/kube-testenv';
import {
  CHANGE_REQUEST_MESSAGES,
  ChangeRequest,
  ChangeRequestDiff,
} from '@krypton/core';
import knexFactory, { Knex } from 'knex';
import request from 'supertest';
import { b64 } from '../../__testUtils__/history';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
  testPolicy,
} from '../../__testUtils__/testBackend';

const ALICE = 'user:default/alice';
const BOB = 'user:default/bob';
const CAROL = 'user:default/carol';
const DAVE = 'user:default/dave';
const FRANK = 'user:default/frank';
const FRANK_SUBJECT = { kind: 'User' as const, name: FRANK };
const SWEEP = 'krypton-change-request-sweep';
/** Values proposed through the API: none may appear anywhere but the live Secret and proposal. */
const CANARIES = [
  'four-eyes-canary-1c7e',
  'four-eyes-canary-8d02',
  'four-eyes-canary-e5a9',
  'four-eyes-canary-40bf',
];
const forms = (value: string) => [value, b64(value)];

/** Groups with members, so that the notifications backend can reach a group's people. */
const group = (name: string, members: string[]): Entity => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Group',
  metadata: { name },
  spec: { type: 'team', children: [] },
  relations: members.map(targetRef => ({ type: 'hasMember', targetRef })),
});

interface Answer {
  status: number;
  body: ChangeRequest & { changeRequest: ChangeRequest; error?: string };
  text: string;
}

/**
 * Change requests through Krypton's routes, against the real kube-apiserver, the real
 * notifications backend and two replicas on one real PostgreSQL: a write to a Secret whose changes
 * need approval becomes a request, the approver's decision applies it with both people recorded,
 * and every end leaves nothing behind.
 */
describe('change requests (four eyes)', () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  let postgres: Postgres;
  let db: Knex;
  let krypton: KryptonTestBackend;
  let replica: KryptonTestBackend;
  const tasks = new Map<string, (signal: AbortSignal) => Promise<void>>();
  /** Every answer that the test read, to search for values. */
  const answers: string[] = [];

  const base = () => `/api/krypton/namespaces/${ns.name}/secrets`;
  const call = async (res: request.Test, user: string): Promise<Answer> => {
    const out = await res.set('Authorization', as(user));
    answers.push(out.text);
    return out as unknown as Answer;
  };
  const api = (backend = krypton) => request(backend.server);
  const live = (name: string) => admin.secret(ns.name, name);
  const password = async (name: string) =>
    Buffer.from((await live(name)).data?.password ?? '', 'base64').toString();
  const revision = async (name: string) =>
    (await live(name)).metadata.resourceVersion!;

  const put = async (
    name: string,
    body: Record<string, unknown>,
    user = 'alice',
  ) =>
    call(
      api()
        .put(`${base()}/${name}`)
        .send({ resourceVersion: await revision(name), ...body }),
      user,
    );
  const propose = async (name: string, value: string, user = 'alice') => {
    const res = await put(
      name,
      { data: { password: value }, changeReason: `rotate ${name}` },
      user,
    );
    expect(res.status).toBe(202);
    return res.body.changeRequest;
  };
  const decide = (
    name: string,
    id: string,
    action: 'approve' | 'reject' | 'withdraw' | 'bypass',
    user: string,
    body: Record<string, unknown> = {},
    backend = krypton,
  ) =>
    call(
      api(backend)
        .post(`${base()}/${name}/change-requests/${id}/${action}`)
        .send(body),
      user,
    );
  /** The Secret's version list as alice reads it. */
  const versionsOf = async (name: string) =>
    (
      (await call(api().get(`${base()}/${name}/versions`), 'alice'))
        .body as unknown as { items: unknown[] }
    ).items;
  const getRequest = (name: string, id: string, user = 'alice') =>
    call(api().get(`${base()}/${name}/change-requests/${id}`), user);
  const diffOf = (name: string, id: string, user: string, keys?: string) =>
    call(
      api().get(
        `${base()}/${name}/change-requests/${id}/diff${
          keys ? `?keys=${keys}` : ''
        }`,
      ),
      user,
    );
  const changesOf = (res: Answer) =>
    (res.body as unknown as ChangeRequestDiff).diff!.entries.map(e => [
      e.key,
      e.change,
      e.kind,
    ]);
  const proposalOf = (id: string) =>
    admin.getSecret(ns.name, `krypton-p-${id}`);

  /** A managed Secret under the prod rule (or another tier), with bob as its owner. */
  async function secret(
    name: string,
    options: {
      tier?: string;
      owners?: string;
      annotations?: Record<string, string>;
      data?: Record<string, string>;
    } = {},
  ) {
    const res = await admin.createSecret(ns.name, {
      metadata: {
        name,
        labels: {
          'krypton.io/managed-by': 'krypton',
          ...(options.tier ? { tier: options.tier } : {}),
        },
        annotations: {
          'krypton.io/owners': options.owners ?? BOB,
          'krypton.io/editors': `${ALICE}, ${DAVE}`,
          'krypton.io/viewers': CAROL,
          ...options.annotations,
        },
      },
      data: options.data ?? { password: b64('before') },
    });
    return res;
  }

  beforeAll(async () => {
    postgres = await startPostgres();
    const config = {
      notifications: { enabled: true },
      approval: {
        rules: [
          {
            namespaces: [ns.name],
            labelSelector: 'tier=prod',
            requiredApprovals: 1,
          },
          {
            namespaces: [ns.name],
            labelSelector: 'tier=soft',
            requiredApprovals: 1,
            enforcement: 'soft',
            bypassGroups: ['group:default/krypton-admins'],
          },
        ],
      },
    };
    const entities = [
      group('team-a', [ALICE]),
      group('team-b', [BOB]),
      group('team-c', [BOB]),
      group('krypton-admins', ['user:default/root']),
    ];
    [krypton, replica] = await Promise.all([
      startKryptonBackend(config, {
        postgres,
        notifications: true,
        catalog: { entities },
        scheduledTasks: tasks,
      }),
      startKryptonBackend(config, { postgres }),
    ]);
    db = knexFactory({
      client: 'pg',
      connection: {
        ...postgres.connection,
        database: 'backstage_plugin_krypton',
      },
    });
    for (const user of ['alice', 'bob', 'carol', 'dave', 'root']) {
      await admin.grantSecrets(ns.name, {
        kind: 'User',
        name: `user:default/${user}`,
      });
    }
    // Frank may get one Secret only: the one whose request the comparison test reviews.
    await admin.grant(ns.name, 'frank-compare-only', FRANK_SUBJECT, [
      {
        apiGroups: [''],
        resources: ['secrets'],
        resourceNames: ['compare'],
        verbs: ['get'],
      },
    ]);
  });

  afterAll(async () => {
    await db?.destroy();
    await Promise.all([krypton?.stop(), replica?.stop()]);
    await postgres?.stop();
    admin.close();
  });

  it('makes an update a request; the approver applies it, and history records both people', async () => {
    await secret('db', { tier: 'prod' });
    const summary = await call(api().get(`${base()}/db/summary`), 'alice');
    expect(summary.body).toMatchObject({
      approval: {
        requiredApprovals: 1,
        approvers: [BOB],
        allowSelfApproval: false,
        enforcement: 'hard',
        expiresAfterHours: 24,
      },
    });

    const created = await propose('db', CANARIES[0]);
    expect(created).toMatchObject({
      state: 'pending',
      requestedBy: ALICE,
      reason: 'rotate db',
      change: { operation: 'update', values: true },
      policy: { requiredApprovals: 1, approvers: [BOB] },
      decisions: [],
    });
    // Nothing was written; the values wait in the proposal, which no route serves or lists.
    expect(await password('db')).toBe('before');
    const proposal = await proposalOf(created.id);
    expect(proposal.status).toBe(200);
    expect(
      Buffer.from(
        (proposal.body as { data: Record<string, string> }).data.password,
        'base64',
      ).toString(),
    ).toBe(CANARIES[0]);
    const direct = await call(
      api().get(`${base()}/krypton-p-${created.id}`),
      'root',
    );
    expect(direct.status).toBe(404);
    const list = await call(api().get(base()), 'root');
    expect(
      (list.body as unknown as { items: { name: string }[] }).items.map(
        s => s.name,
      ),
    ).not.toContain(`krypton-p-${created.id}`);

    // Waiting for bob, not for alice, who asked.
    const waitingFor = async (user: string) =>
      (
        (await call(api().get('/api/krypton/change-requests'), user))
          .body as unknown as { items: ChangeRequest[] }
      ).items.map(r => r.id);
    expect(await waitingFor('bob')).toContain(created.id);
    expect(await waitingFor('alice')).not.toContain(created.id);

    const self = await decide('db', created.id, 'approve', 'alice');
    expect(self.status).toBe(403);
    expect(self.body.error).toBe(CHANGE_REQUEST_MESSAGES.selfApproval);
    const stranger = await decide('db', created.id, 'approve', 'carol');
    expect(stranger.status).toBe(403);
    expect(stranger.body.error).toBe(CHANGE_REQUEST_MESSAGES.notApprover);

    const approved = await decide('db', created.id, 'approve', 'bob', {
      comment: 'looks right',
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      state: 'applied',
      decisions: [{ by: BOB, decision: 'approve', comment: 'looks right' }],
      ended: { by: BOB },
      appliedVersion: 1,
    });
    expect(await password('db')).toBe(CANARIES[0]);
    expect((await versionsOf('db'))[0]).toMatchObject({
      version: 1,
      snapshotBy: ALICE,
      approvedBy: [BOB],
    });
    expect((await proposalOf(created.id)).status).toBe(404);
    expect(await waitingFor('bob')).not.toContain(created.id);

    const again = await decide('db', created.id, 'approve', 'bob');
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(CHANGE_REQUEST_MESSAGES.notOpen);

    // The update was refused as a write and recorded as a request; the approval applied it.
    const events = krypton.sink.audits.filter(
      a => a.meta.name === 'db' && a.status !== 'initiated',
    );
    expect(
      events.map(a => [a.eventId, a.status, a.meta.state ?? null]),
    ).toEqual([
      ['secret-update', 'failed', null],
      ['secret-change-request', 'succeeded', 'pending'],
      ['change-request-approve', 'failed', null],
      ['change-request-approve', 'failed', null],
      ['change-request-approve', 'succeeded', 'applied'],
      ['change-request-approve', 'failed', null],
    ]);
    expect(events[0].error).toContain(CHANGE_REQUEST_MESSAGES.approvalRequired);
  });

  it('ends a request by rejection, withdrawal or an administrator, writing nothing and removing the proposal', async () => {
    await secret('ends', { tier: 'prod' });
    const rejected = await propose('ends', CANARIES[1]);
    const noComment = await decide('ends', rejected.id, 'reject', 'bob');
    expect(noComment.status).toBe(400);
    const rejection = await decide('ends', rejected.id, 'reject', 'bob', {
      comment: 'not now',
    });
    expect(rejection.body).toMatchObject({
      state: 'rejected',
      ended: { by: BOB },
      decisions: [{ by: BOB, decision: 'reject', comment: 'not now' }],
    });
    expect((await proposalOf(rejected.id)).status).toBe(404);

    const withdrawn = await propose('ends', CANARIES[1]);
    const notTheirs = await decide('ends', withdrawn.id, 'withdraw', 'carol');
    expect(notTheirs.status).toBe(403);
    expect(notTheirs.body.error).toBe(CHANGE_REQUEST_MESSAGES.notRequester);
    const own = await decide('ends', withdrawn.id, 'withdraw', 'alice', {
      comment: 'wrong value',
    });
    expect(own.body).toMatchObject({
      state: 'withdrawn',
      ended: { by: ALICE, note: 'wrong value' },
    });
    expect((await proposalOf(withdrawn.id)).status).toBe(404);

    const stuck = await propose('ends', CANARIES[1]);
    const byAdmin = await decide('ends', stuck.id, 'withdraw', 'root');
    expect(byAdmin.body).toMatchObject({
      state: 'withdrawn',
      ended: { by: 'user:default/root' },
    });
    expect(await password('ends')).toBe('before');
    expect(await versionsOf('ends')).toHaveLength(0);
  });

  it('makes a request stale when the Secret moved past its base, writing nothing', async () => {
    await secret('moved', { tier: 'prod' });
    const created = await propose('moved', CANARIES[2]);
    await admin.patchSecret(ns.name, 'moved', {
      data: { password: b64('changed elsewhere') },
    });
    const approved = await decide('moved', created.id, 'approve', 'bob');
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      state: 'stale',
      ended: { by: 'krypton', note: CHANGE_REQUEST_MESSAGES.stale },
    });
    expect(approved.body.appliedVersion).toBeUndefined();
    expect(await password('moved')).toBe('changed elsewhere');
    expect((await proposalOf(created.id)).status).toBe(404);
  });

  it('refuses at apply a requester who lost the right since asking, writing nothing', async () => {
    await secret('revoked', { tier: 'prod' });
    const created = await propose('revoked', CANARIES[3], 'dave');
    const rbac = `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns.name}/rolebindings`;
    const bindings = await admin.request({ method: 'GET', path: rbac });
    const daves = (
      bindings.body as {
        items: { metadata: { name: string }; subjects?: { name: string }[] }[];
      }
    ).items.filter(b => b.subjects?.some(s => s.name === DAVE));
    expect(daves).toHaveLength(1);
    await admin.request({
      method: 'DELETE',
      path: `${rbac}/${daves[0].metadata.name}`,
    });
    // The authorizer learns of the removal a moment later: approve once it has.
    const attributes = {
      namespace: ns.name,
      verb: 'update',
      resource: 'secrets',
      name: 'revoked',
    };
    for (let i = 0; i < 100; i++) {
      const review = await admin.request({
        method: 'POST',
        path: '/apis/authorization.k8s.io/v1/subjectaccessreviews',
        body: {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SubjectAccessReview',
          spec: { user: DAVE, resourceAttributes: attributes },
        },
      });
      if (!(review.body as { status?: { allowed?: boolean } }).status?.allowed)
        break;
      await new Promise(resolve => setTimeout(resolve, 50));
    }
    const approved = await decide('revoked', created.id, 'approve', 'bob');
    expect(approved.body).toMatchObject({
      state: 'rejected',
      ended: {
        by: 'krypton',
        note: CHANGE_REQUEST_MESSAGES.requesterLostRight,
      },
    });
    expect(await password('revoked')).toBe('before');
    expect((await proposalOf(created.id)).status).toBe(404);
  });

  it('makes restores and deletes requests too, and needs every approval that the annotation asks', async () => {
    // Version 1 is saved while nothing asks for approval; then the owners ask for two.
    await secret('pair', { owners: `${BOB}, ${CAROL}` });
    const direct = await put('pair', { data: { password: 'second' } });
    expect(direct.status).toBe(200);
    await admin.patchSecret(ns.name, 'pair', {
      metadata: { annotations: { 'krypton.io/required-approvals': '2' } },
    });

    const restore = await call(
      api()
        .post(`${base()}/pair/restore`)
        .send({
          version: 1,
          resourceVersion: await revision('pair'),
          changeReason: 'undo',
        }),
      'alice',
    );
    expect(restore.status).toBe(202);
    const restoring = restore.body.changeRequest;
    expect(restoring).toMatchObject({
      change: { operation: 'restore', version: 1 },
      policy: { requiredApprovals: 2, approvers: [BOB, CAROL] },
    });
    // A restore proposes no values: the version holds them, and the review compares with it.
    expect((await proposalOf(restoring.id)).status).toBe(404);
    expect(changesOf(await diffOf('pair', restoring.id, 'bob'))).toEqual([
      ['password', 'changed', 'text'],
    ]);
    const one = await decide('pair', restoring.id, 'approve', 'bob');
    expect(one.body).toMatchObject({ state: 'pending' });
    expect(await password('pair')).toBe('second');
    const two = await decide('pair', restoring.id, 'approve', 'carol');
    expect(two.body).toMatchObject({ state: 'applied', appliedVersion: 2 });
    const ended = await diffOf('pair', restoring.id, 'bob');
    expect(ended.status).toBe(409);
    expect(ended.body.error).toBe(CHANGE_REQUEST_MESSAGES.notOpen);
    expect(await password('pair')).toBe('before');
    expect((await versionsOf('pair'))[0]).toMatchObject({
      version: 2,
      snapshotBy: ALICE,
      approvedBy: [BOB, CAROL],
    });

    const removal = await call(
      api()
        .delete(
          `${base()}/pair?resourceVersion=${await revision(
            'pair',
          )}&keepHistory=true`,
        )
        .send({ changeReason: 'retired' }),
      // Editors may not delete; an administrator may, through the group that the request keeps.
      'root',
    );
    expect(removal.status).toBe(202);
    const deleting = removal.body.changeRequest;
    expect(deleting).toMatchObject({
      state: 'pending',
      reason: 'retired',
      change: { operation: 'delete', keepHistory: true },
    });
    expect((await admin.getSecret(ns.name, 'pair')).status).toBe(200);
    expect(changesOf(await diffOf('pair', deleting.id, 'carol'))).toEqual([
      ['password', 'removed', 'text'],
    ]);
    await decide('pair', deleting.id, 'approve', 'bob');
    const gone = await decide('pair', deleting.id, 'approve', 'carol');
    expect(gone.body).toMatchObject({ state: 'applied' });
    expect((await admin.getSecret(ns.name, 'pair')).status).toBe(404);
    // Once the Secret is gone, its requester and approvers still see the request; nobody else.
    expect((await getRequest('pair', deleting.id, 'root')).body.state).toBe(
      'applied',
    );
    expect((await getRequest('pair', deleting.id, 'carol')).status).toBe(200);
    expect((await getRequest('pair', deleting.id, 'alice')).status).toBe(404);
  });

  it('answers a conflict when the version that a waiting restore would bring back is no longer kept, with values or keys only', async () => {
    await secret('lost', { owners: BOB });
    expect((await put('lost', { data: { password: 'second' } })).status).toBe(
      200,
    );
    await admin.patchSecret(ns.name, 'lost', {
      metadata: { annotations: { 'krypton.io/required-approvals': '1' } },
    });
    const restore = await call(
      api()
        .post(`${base()}/lost/restore`)
        .send({ version: 1, resourceVersion: await revision('lost') }),
      'alice',
    );
    expect(restore.status).toBe(202);
    const { id } = restore.body.changeRequest;
    const [kept] = (await admin.snapshots(ns.name)).filter(
      s =>
        s.metadata.annotations?.['krypton.io/history-of'] === 'lost' &&
        s.metadata.annotations?.['krypton.io/version'] === '1',
    );
    await admin.expect(200, {
      method: 'DELETE',
      path: `/api/v1/namespaces/${ns.name}/secrets/${kept.metadata.name}`,
    });

    // Bob may reveal: the version's values are read, and it is gone.
    const withValues = await diffOf('lost', id, 'bob');
    expect(withValues.status).toBe(409);
    expect(withValues.body.error).toBe(CHANGE_REQUEST_MESSAGES.versionGone);
    // Without the reveal permission, the version's recorded keys are looked up, and it is gone.
    testPolicy.denied.add(`${BOB}:krypton.secret.reveal`);
    try {
      const keysOnly = await diffOf('lost', id, 'bob');
      expect(keysOnly.status).toBe(409);
      expect(keysOnly.body.error).toBe(CHANGE_REQUEST_MESSAGES.versionGone);
    } finally {
      testPolicy.denied.delete(`${BOB}:krypton.secret.reveal`);
    }
  });

  it('compares a waiting update with the live Secret key by key: values only for who may reveal them, texts only for keys named', async () => {
    await secret('compare', {
      tier: 'prod',
      annotations: { 'krypton.io/viewers': `${CAROL}, ${FRANK}` },
      data: {
        password: b64('before'),
        keep: b64('same'),
        drop: b64('gone'),
        cert: Buffer.from([0xff, 0x00, 0xfe]).toString('base64'),
      },
    });
    const res = await put('compare', {
      data: { password: CANARIES[3], keep: 'same', fresh: 'revealed-after' },
    });
    expect(res.status).toBe(202);
    const { id } = res.body.changeRequest;

    // Bob, the approver, may reveal: the values are compared, and none is in the answer.
    const masked = await diffOf('compare', id, 'bob');
    expect(masked.status).toBe(200);
    expect(masked.body).toMatchObject({
      resourceVersion: await revision('compare'),
      diff: {
        valuesCompared: true,
        counts: { added: 1, removed: 1, changed: 1, unchanged: 2, present: 0 },
      },
    });
    expect(changesOf(masked)).toEqual([
      ['cert', 'unchanged', 'binary'],
      ['drop', 'removed', 'text'],
      ['fresh', 'added', 'text'],
      ['keep', 'unchanged', 'text'],
      ['password', 'changed', 'text'],
    ]);
    expect(masked.text).not.toMatch(/"before"|"after"/);

    // Without the reveal permission, keys only; naming keys is a value read, refused as one.
    testPolicy.denied.add(`${BOB}:krypton.secret.reveal`);
    try {
      const keysOnly = await diffOf('compare', id, 'bob');
      expect(keysOnly.status).toBe(200);
      expect(
        (keysOnly.body as unknown as ChangeRequestDiff).diff!.valuesCompared,
      ).toBe(false);
      expect(changesOf(keysOnly)).toEqual([
        ['cert', 'present', 'binary'],
        ['drop', 'removed', 'text'],
        ['fresh', 'added', 'text'],
        ['keep', 'present', 'text'],
        ['password', 'present', 'text'],
      ]);
      expect((await diffOf('compare', id, 'bob', 'fresh')).status).toBe(403);
    } finally {
      testPolicy.denied.delete(`${BOB}:krypton.secret.reveal`);
    }

    // Carol, a viewer, reveals two keys: their texts, and no other's.
    const revealed = await diffOf('compare', id, 'carol', 'fresh,keep');
    expect(revealed.status).toBe(200);
    const entries = (revealed.body as unknown as ChangeRequestDiff).diff!
      .entries;
    expect(entries.find(e => e.key === 'fresh')).toEqual({
      key: 'fresh',
      change: 'added',
      kind: 'text',
      after: 'revealed-after',
    });
    expect(entries.find(e => e.key === 'keep')).toMatchObject({
      before: 'same',
      after: 'same',
    });
    for (const key of ['password', 'drop', 'cert'])
      expect(entries.find(e => e.key === key)).not.toHaveProperty('after');
    expect(
      krypton.sink.audits
        .filter(
          a =>
            a.eventId === 'change-request-diff' &&
            a.meta.changeRequest === id &&
            a.status === 'succeeded',
        )
        .map(a => [a.meta.changeRequest, a.meta.keys ?? null]),
    ).toEqual([
      [id, null],
      [id, null],
      [id, 'fresh,keep'],
    ]);
    // Frank may reveal the live Secret, but Kubernetes lets him get that one Secret only: the
    // proposal is read as he is (user mode), so he gets no comparison of it.
    expect((await call(api().get(`${base()}/compare`), 'frank')).status).toBe(
      200,
    );
    expect((await diffOf('compare', id, 'frank')).status).toBe(403);

    // A stranger to the Secret learns nothing, not even that the request exists.
    const stranger = await diffOf('compare', id, 'eve');
    expect(stranger.status).toBe(403);

    // The live Secret moved: the comparison is with it now, and says which revision that is.
    await admin.patchSecret(ns.name, 'compare', {
      data: { drop: b64('changed elsewhere') },
    });
    const moved = (await diffOf('compare', id, 'bob'))
      .body as unknown as ChangeRequestDiff;
    expect(moved.resourceVersion).toBe(await revision('compare'));
    expect(moved.resourceVersion).not.toBe(res.body.changeRequest.baseRevision);

    // The proposal gone, there is nothing to compare with.
    await admin.request({
      method: 'DELETE',
      path: `/api/v1/namespaces/${ns.name}/secrets/krypton-p-${id}`,
    });
    const gone = await diffOf('compare', id, 'bob');
    expect(gone.status).toBe(409);
    expect(gone.body.error).toBe(CHANGE_REQUEST_MESSAGES.proposalMissing);
  });

  it('lets a soft policy be bypassed by its bypass group with a reason, and never a hard one', async () => {
    await secret('soft', { tier: 'soft' });
    await secret('hard', { tier: 'prod' });
    const hard = await propose('hard', 'value-h');
    const refusedHard = await decide('hard', hard.id, 'bypass', 'root', {
      reason: 'outage',
    });
    expect(refusedHard.status).toBe(403);
    expect(refusedHard.body.error).toBe(CHANGE_REQUEST_MESSAGES.hardPolicy);

    const soft = await propose('soft', 'value-s');
    const noReason = await decide('soft', soft.id, 'bypass', 'root');
    expect(noReason.status).toBe(400);
    const notBypasser = await decide('soft', soft.id, 'bypass', 'bob', {
      reason: 'outage',
    });
    expect(notBypasser.status).toBe(403);
    expect(notBypasser.body.error).toBe(CHANGE_REQUEST_MESSAGES.notBypasser);
    const bypassed = await decide('soft', soft.id, 'bypass', 'root', {
      reason: 'outage at 3am',
    });
    expect(bypassed.status).toBe(200);
    expect(bypassed.body).toMatchObject({
      state: 'bypassed',
      bypass: { by: 'user:default/root', reason: 'outage at 3am' },
      ended: { by: 'user:default/root' },
    });
    expect(await password('soft')).toBe('value-s');
  });

  it('expires a request whose time is up on the sweep, once, and removes its proposal', async () => {
    await secret('late', { tier: 'prod' });
    const created = await propose('late', 'value-late');
    await db('krypton_change_requests')
      .where({ id: created.id })
      .update({ expires_at: '2026-01-01T00:00:00.000Z' });
    const late = await decide('late', created.id, 'approve', 'bob');
    expect(late.status).toBe(409);
    expect(late.body.error).toBe(CHANGE_REQUEST_MESSAGES.expired);
    const sweep = tasks.get(SWEEP)!;
    await Promise.all([
      sweep(new AbortController().signal),
      sweep(new AbortController().signal),
    ]);
    const after = await getRequest('late', created.id);
    expect(after.body).toMatchObject({
      state: 'expired',
      ended: { by: 'krypton' },
    });
    expect((await proposalOf(created.id)).status).toBe(404);
    expect(
      krypton.sink.audits.filter(
        a =>
          a.eventId === 'change-request-expire' &&
          a.meta.changeRequest === created.id &&
          a.status === 'succeeded',
      ),
    ).toHaveLength(1);
    expect(await password('late')).toBe('before');
  });

  it('applies once when two replicas take the last approval at the same moment', async () => {
    for (const name of ['race-1', 'race-2', 'race-3']) {
      await secret(name, { tier: 'prod', owners: `${BOB}, ${CAROL}` });
      const created = await propose(name, `value-${name}`);
      const [first, second] = await Promise.all([
        decide(name, created.id, 'approve', 'bob', {}, krypton),
        decide(name, created.id, 'approve', 'carol', {}, replica),
      ]);
      const statuses = [first.status, second.status].sort();
      expect(statuses).toEqual([200, 409]);
      const won = first.status === 200 ? first : second;
      expect(won.body.state).toBe('applied');
      expect(await password(name)).toBe(`value-${name}`);
      expect(await versionsOf(name)).toHaveLength(1);
    }
  });

  it('refuses a decision that a plugin makes on a user\u2019s behalf', async () => {
    await secret('agent', { tier: 'prod' });
    const created = await propose('agent', 'value-agent');
    const token = mockCredentials.user.token(BOB, {
      actor: { subject: 'plugin:mcp-actions' },
    });
    const res = await api()
      .post(`${base()}/agent/change-requests/${created.id}/approve`)
      .set('Authorization', `Bearer ${token}`)
      .send({});
    expect(res.status).toBe(403);
    expect(res.body.error).toBe(CHANGE_REQUEST_MESSAGES.inPerson);
    const onBehalfOfAlice = mockCredentials.user.token(ALICE, {
      actor: { subject: 'plugin:mcp-actions' },
    });
    const withdrawal = await api()
      .post(`${base()}/agent/change-requests/${created.id}/withdraw`)
      .set('Authorization', `Bearer ${onBehalfOfAlice}`)
      .send({});
    expect(withdrawal.status).toBe(403);
    expect((await getRequest('agent', created.id)).body.state).toBe('pending');
    expect(await password('agent')).toBe('before');
  });

  it('lets an agent only propose: its restore becomes a request, which its read action lists', async () => {
    await secret('agentic');
    expect(
      (await put('agentic', { data: { password: 'agentic-value' } })).status,
    ).toBe(200);
    await admin.patchSecret(ns.name, 'agentic', {
      metadata: { annotations: { 'krypton.io/required-approvals': '1' } },
    });
    const invoke = async (action: string, input: object) => {
      const res = await api()
        .post(
          `/api/krypton/.backstage/actions/v1/actions/krypton:${action}/invoke`,
        )
        .set('Authorization', as('alice'))
        .send(input);
      answers.push(res.text);
      return res;
    };
    const restored = await invoke('restore-secret-version', {
      namespace: ns.name,
      name: 'agentic',
      version: 1,
      resourceVersion: await revision('agentic'),
      reason: 'the rotation broke the app',
    });
    expect(restored.status).toBe(200);
    expect(restored.body.output.secret).toBeUndefined();
    expect(restored.body.output.changeRequest).toMatchObject({
      state: 'pending',
      requestedBy: ALICE,
      reason: 'the rotation broke the app',
      change: { operation: 'restore', version: 1 },
    });
    expect(await password('agentic')).toBe('agentic-value');
    const listed = await invoke('list-change-requests', {
      namespace: ns.name,
      name: 'agentic',
    });
    expect(
      listed.body.output.items.map((r: ChangeRequest) => [r.id, r.state]),
    ).toEqual([[restored.body.output.changeRequest.id, 'pending']]);
    const half = await invoke('list-change-requests', { namespace: ns.name });
    expect(half.status).toBe(400);
    // No action decides: the registry offers none.
    const actions = await api()
      .get('/api/krypton/.backstage/actions/v1/actions')
      .set('Authorization', as('alice'));
    expect(
      actions.body.actions
        .map((a: { name: string }) => a.name)
        .filter((name: string) => /approve|reject|bypass|withdraw/.test(name)),
    ).toEqual([]);
  });

  it('tells the approvers and the requester, and never holds a value in the database, a log, an audit event, a notification or an answer', async () => {
    const inbox = async (user: string) => {
      const res = await api()
        .get('/api/notifications')
        .set('Authorization', as(user));
      answers.push(res.text);
      return res.body.notifications as {
        payload: { title: string; scope: string; link: string };
      }[];
    };
    const deadline = Date.now() + 15_000;
    let titles: string[] = [];
    let links: string[] = [];
    while (Date.now() < deadline) {
      const notes = await inbox('alice');
      titles = notes.map(n => n.payload.title);
      links = notes
        .filter(n => n.payload.title.startsWith('Change to '))
        .map(n => n.payload.link);
      if (
        titles.includes(`Change to Secret ${ns.name}/db approved and applied`)
      )
        break;
      await new Promise(resolve => setTimeout(resolve, 100));
    }
    expect(titles).toContain(
      `Change to Secret ${ns.name}/db approved and applied`,
    );
    // Each links to its review on the Secret's Changes tab.
    for (const link of links)
      expect(link).toMatch(
        new RegExp(
          `^/krypton/secret/${ns.name}/[a-z0-9-]+/changes\\?cluster=[^&]+&request=[0-9a-f-]{36}$`,
        ),
      );
    const bobs = (await inbox('bob')).map(n => n.payload.title);
    expect(bobs).toContain(`Change to Secret ${ns.name}/ends withdrawn`);

    const rows = JSON.stringify([
      await db('krypton_change_requests').select(),
      await db('krypton_change_request_decisions').select(),
      await db('krypton_change_request_approvers').select(),
    ]);
    const everything = [
      rows,
      krypton.sink.text(),
      replica.sink.text(),
      ...answers,
    ].join('\n');
    for (const value of CANARIES.flatMap(forms))
      expect(everything).not.toContain(value);
  });
});
