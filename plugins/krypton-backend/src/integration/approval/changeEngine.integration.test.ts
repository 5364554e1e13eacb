import { mockServices } from '@backstage/backend-test-utils';
import {
  ClusterAdmin,
  eventually,
  kubeConfigFor,
  useTestNamespace,
} from '@krypton/kube-testenv';
import {
  ChangeParty,
  ChangeRequest,
  ChangeRequestEngine,
  NativeSecret,
  RBAC_ONLY_GATE,
  SecretProposals,
  createEngines,
  parseHistoryLimit,
  proposalName,
} from '@krypton/core';
import { randomUUID } from 'node:crypto';
import { HttpKubeGateway } from '../../kubernetes/kubeGateway';
import { KubeTransport } from '../../kubernetes/transport';

const b64 = (text: string) => Buffer.from(text).toString('base64');
const text = (value?: string) => Buffer.from(value ?? '', 'base64').toString();
const ALICE = 'user:default/alice';
const BOB = 'user:default/bob';

/**
 * The change request engine on a real kube-apiserver, in impersonation mode: the requester's
 * checks and dry run as the requester, the proposal as Krypton, and the approver's write with
 * the base revision as its precondition. The gates are Kubernetes RBAC here; the backend's own
 * gates are proven through its routes.
 */
describe('ChangeRequestEngine against a real kube-apiserver', () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  let transport: KubeTransport;
  let engine: ChangeRequestEngine;
  const settings = {
    annotationPrefix: 'krypton.io',
    managedOnly: true,
    historyLimit: parseHistoryLimit('5'),
  };

  const gateway = (user?: string) =>
    new HttpKubeGateway(
      transport,
      mockServices.logger.mock(),
      user ? { user, groups: [] } : undefined,
    );

  /** A person's engines; an approver's record the requester as actor and the approvers. */
  function party(
    user: string,
    record: { actor: string; approvedBy?: string[] } = { actor: user },
  ): ChangeParty & { actor: string } {
    const engines = createEngines({
      mode: 'impersonation',
      gateways: { user: gateway(user), krypton: gateway() },
      cluster: 'test',
      settings,
      actor: record.actor,
      approvedBy: record.approvedBy,
    });
    return { ...engines, gate: RBAC_ONLY_GATE, actor: user };
  }
  /** Applies a request as bob, its approver, with its requester's engines for their proof. */
  const applyAsBob = (request: ChangeRequest, proposalUid?: string) =>
    engine.apply(
      request,
      proposalUid,
      party(BOB, { actor: request.requestedBy, approvedBy: [BOB] }),
      party(request.requestedBy),
    );

  async function managed(name: string, password: string) {
    return (await admin.createSecret(ns.name, {
      metadata: {
        name,
        labels: { 'krypton.io/managed-by': 'krypton' },
      },
      data: { password: b64(password) },
    })) as NativeSecret;
  }

  /** Proposes as alice and answers the request as the backend would store it. */
  async function requestOf(
    name: string,
    requested: Parameters<ChangeRequestEngine['propose']>[3],
    requester = ALICE,
  ) {
    const id = randomUUID();
    const proposed = await engine.propose(
      ns.name,
      name,
      id,
      requested,
      party(requester),
    );
    const request: ChangeRequest = {
      id,
      cluster: 'test',
      namespace: ns.name,
      name,
      uid: proposed.live.metadata.uid!,
      baseRevision: proposed.live.metadata.resourceVersion!,
      change: proposed.change,
      reason: 'because',
      requestedBy: requester,
      requestedAt: new Date().toISOString(),
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      policy: {
        requiredApprovals: 1,
        approvers: [BOB],
        allowSelfApproval: false,
        enforcement: 'hard',
        bypassGroups: [],
      },
      state: 'approved',
      decisions: [],
    };
    return { request, proposed };
  }

  const live = (name: string) =>
    admin.secret(ns.name, name) as Promise<NativeSecret>;

  beforeAll(async () => {
    transport = new KubeTransport(kubeConfigFor('krypton'));
    engine = new ChangeRequestEngine(
      new SecretProposals({
        gateway: gateway(),
        annotationPrefix: 'krypton.io',
      }),
    );
    for (const user of [ALICE, BOB]) {
      await admin.grant(
        ns.name,
        `secrets-${user.split('/')[1]}`,
        {
          kind: 'User',
          name: user,
        },
        [
          {
            apiGroups: [''],
            resources: ['secrets'],
            verbs: ['get', 'list', 'create', 'update', 'patch', 'delete'],
          },
        ],
      );
      await admin.untilAllowed(
        { user },
        { namespace: ns.name, verb: 'update', resource: 'secrets' },
      );
    }
  });
  afterAll(() => {
    transport.close();
    admin.close();
  });

  it('proposes an update without writing it, and applies exactly the proposed values as the approver', async () => {
    const created = await managed('db', 'old');
    const { request, proposed } = await requestOf('db', {
      operation: 'update',
      request: {
        resourceVersion: created.metadata.resourceVersion!,
        data: { password: 'new', user: 'app' },
        description: 'the payments database',
      },
    });
    expect(proposed.change).toEqual({
      operation: 'update',
      values: true,
      description: 'the payments database',
    });
    expect(proposed.proposal?.data).toEqual({
      password: b64('new'),
      user: b64('app'),
    });
    // Nothing live changed yet.
    expect((await live('db')).metadata.resourceVersion).toBe(
      created.metadata.resourceVersion,
    );

    const outcome = await applyAsBob(request, proposed.proposal!.uid);

    expect(outcome.outcome).toBe('applied');
    const after = await live('db');
    expect(after.data).toEqual({ password: b64('new'), user: b64('app') });
    expect(after.metadata.annotations?.['krypton.io/description']).toBe(
      'the payments database',
    );
    const [snapshot] = await admin.snapshots(ns.name);
    expect(snapshot.data).toEqual({ password: b64('old') });
    expect(snapshot.metadata.annotations).toMatchObject({
      'krypton.io/history-of': 'db',
      'krypton.io/snapshot-by': ALICE,
      'krypton.io/approved-by': BOB,
    });
    const versions = await party(ALICE).versioned.versions(
      ns.name,
      'db',
      RBAC_ONLY_GATE,
    );
    expect(versions[0]).toMatchObject({
      version: 1,
      snapshotBy: ALICE,
      approvedBy: [BOB],
    });
    expect(await engine.discard(request)).toBe(true);
    expect(
      (await admin.getSecret(ns.name, proposalName(request.id))).status,
    ).toBe(404);
  });

  it('writes nothing when the Secret moved past the base revision', async () => {
    const created = await managed('moved', 'old');
    const { request, proposed } = await requestOf('moved', {
      operation: 'update',
      request: {
        resourceVersion: created.metadata.resourceVersion!,
        data: { password: 'proposed' },
      },
    });
    const patched = await admin.request({
      method: 'PATCH',
      path: `/api/v1/namespaces/${ns.name}/secrets/moved`,
      body: { data: { password: b64('someone else') } },
      contentType: 'application/merge-patch+json',
    });
    expect(patched.status).toBe(200);

    expect(await applyAsBob(request, proposed.proposal!.uid)).toEqual({
      outcome: 'stale',
    });
    expect(text((await live('moved')).data?.password)).toBe('someone else');
    expect(await admin.snapshots(ns.name)).not.toContainEqual(
      expect.objectContaining({
        metadata: expect.objectContaining({
          annotations: expect.objectContaining({
            'krypton.io/history-of': 'moved',
          }),
        }),
      }),
    );
  });

  it('writes nothing when the Secret was deleted and made again under its name', async () => {
    const created = await managed('again', 'old');
    const { request } = await requestOf('again', {
      operation: 'delete',
      request: {
        resourceVersion: created.metadata.resourceVersion!,
        keepHistory: true,
      },
    });
    await admin.expect(200, {
      method: 'DELETE',
      path: `/api/v1/namespaces/${ns.name}/secrets/again`,
    });
    await managed('again', 'new lifetime');

    expect(await applyAsBob(request)).toEqual({ outcome: 'stale' });
    expect(text((await live('again')).data?.password)).toBe('new lifetime');
  });

  it('writes nothing when the requester lost the right before approval', async () => {
    const requester = 'user:default/dora';
    await admin.grant(
      ns.name,
      'secrets-dora',
      { kind: 'User', name: requester },
      [
        {
          apiGroups: [''],
          resources: ['secrets'],
          verbs: ['get', 'list', 'update'],
        },
      ],
    );
    await admin.untilAllowed(
      { user: requester },
      { namespace: ns.name, verb: 'update', resource: 'secrets' },
    );
    const created = await managed('revoked', 'old');
    const { request, proposed } = await requestOf(
      'revoked',
      {
        operation: 'update',
        request: {
          resourceVersion: created.metadata.resourceVersion!,
          data: { password: 'proposed' },
        },
      },
      requester,
    );
    await admin.expect(200, {
      method: 'DELETE',
      path: `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns.name}/rolebindings/secrets-dora`,
    });
    await eventually(
      () =>
        party(requester)
          .live.dryRunReplace({ ...created, data: { password: b64('x') } })
          .then(
            () => 'allowed',
            (err: { code?: string }) => err.code,
          ),
      answer => answer === 'forbidden',
    );

    expect(await applyAsBob(request, proposed.proposal!.uid)).toEqual({
      outcome: 'requesterLostRight',
    });
    expect(text((await live('revoked')).data?.password)).toBe('old');
  });

  it('writes nothing when the proposal is gone or was replaced', async () => {
    const created = await managed('lost', 'old');
    const { request, proposed } = await requestOf('lost', {
      operation: 'update',
      request: {
        resourceVersion: created.metadata.resourceVersion!,
        data: { password: 'proposed' },
      },
    });
    expect(await applyAsBob(request, randomUUID())).toEqual({
      outcome: 'proposalGone',
    });
    await engine.discard(request);
    expect(await applyAsBob(request, proposed.proposal!.uid)).toEqual({
      outcome: 'proposalGone',
    });
    expect(text((await live('lost')).data?.password)).toBe('old');
  });

  it('restores a version and deletes a Secret as requested, with no proposal Secret', async () => {
    const created = await managed('rolled', 'v1');
    const updated = await party(ALICE).versioned.update(
      ns.name,
      'rolled',
      {
        resourceVersion: created.metadata.resourceVersion!,
        data: { password: 'v2' },
      },
      RBAC_ONLY_GATE,
    );
    const restore = await requestOf('rolled', {
      operation: 'restore',
      request: {
        version: 1,
        resourceVersion: updated.secret.metadata.resourceVersion!,
      },
    });
    expect(restore.proposed).toEqual({
      live: expect.anything(),
      change: { operation: 'restore', version: 1 },
    });
    expect((await applyAsBob(restore.request)).outcome).toBe('applied');
    const restored = await live('rolled');
    expect(text(restored.data?.password)).toBe('v1');

    const remove = await requestOf('rolled', {
      operation: 'delete',
      request: {
        resourceVersion: restored.metadata.resourceVersion!,
        keepHistory: false,
      },
    });
    const deleted = await applyAsBob(remove.request);
    expect(deleted).toMatchObject({
      outcome: 'applied',
      write: { result: { status: 'deleted', history: 'cleaned' } },
    });
    expect((await admin.getSecret(ns.name, 'rolled')).status).toBe(404);
  });

  it('refuses to propose what the requester may not write, and saves no proposal', async () => {
    const created = await managed('guarded', 'old');
    const id = randomUUID();
    await expect(
      engine.propose(
        ns.name,
        'guarded',
        id,
        {
          operation: 'update',
          request: {
            resourceVersion: created.metadata.resourceVersion!,
            data: { password: 'mine' },
          },
        },
        party('user:default/mallory'),
      ),
    ).rejects.toMatchObject({ code: 'forbidden' });
    expect((await admin.getSecret(ns.name, proposalName(id))).status).toBe(404);
    await expect(
      engine.propose(
        ns.name,
        'guarded',
        randomUUID(),
        {
          operation: 'update',
          request: { resourceVersion: '1', data: { password: 'stale' } },
        },
        party(ALICE),
      ),
    ).rejects.toMatchObject({ code: 'conflict' });
  });
});
