import {
  ClusterAdmin,
  createOwner,
  eventually,
  installOwnerKinds,
  ownerPath,
  OWNER_KINDS,
  useTestNamespace,
} from '@krypton/kube-testenv';
import request from 'supertest';
import { b64 } from '../../__testUtils__/history';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
  testPolicy,
} from '../../__testUtils__/testBackend';

const ES = OWNER_KINDS.ExternalSecret;
const FORBIDDEN =
  'Kubernetes does not let you patch the ExternalSecret that owns this Secret.';
const REQUESTED =
  'External Secrets was asked to read the values from its store again. Its controller writes the Secret after this answer; Krypton does not wait for it.';

/** Krypton's own ServiceAccount, as RBAC names it. */
const KRYPTON_SA = {
  kind: 'User' as const,
  name: 'system:serviceaccount:krypton-system:krypton',
};

/**
 * Asking External Secrets to sync a Secret from its store (`force-sync` on the ExternalSecret
 * that controls it), against the real API server with the ExternalSecret CRD: only as the user,
 * only where the user's RBAC lets them patch that ExternalSecret, only behind the Secret's update
 * gates, and only on the object that owns the Secret.
 */
describe('owner sync', () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  let impersonating: KryptonTestBackend;
  let hybrid: KryptonTestBackend;
  let serviceAccount: KryptonTestBackend;
  const path = (name: string) =>
    `/api/krypton/namespaces/${ns.name}/secrets/${name}/owner-sync`;
  const externalSecret = (name: string) =>
    admin.expect<{
      metadata: { uid: string; annotations?: Record<string, string> };
    }>(200, { method: 'GET', path: ownerPath(ES, ns.name, name) });

  /** A Secret controlled by a new ExternalSecret of `source`, as its controller writes one. */
  async function synced(name: string, source: string) {
    const owner = await createOwner(admin, ns.name, ES, source);
    await admin.createSecret(ns.name, {
      metadata: {
        name,
        ownerReferences: [owner],
        labels: { 'reconcile.external-secrets.io/managed': 'true' },
        annotations: { 'reconcile.external-secrets.io/data-hash': 'h1' },
      },
      data: { password: b64('from-the-store') },
    });
    return owner;
  }

  beforeAll(async () => {
    await installOwnerKinds(admin);
    // Secrets that External Secrets writes are not Krypton's: they are served where
    // managedOnly is off.
    const open = { managedOnly: false };
    impersonating = await startKryptonBackend(open);
    hybrid = await startKryptonBackend({
      ...open,
      kubernetes: { identity: 'hybrid' },
    });
    serviceAccount = await startKryptonBackend({
      ...open,
      kubernetes: { identity: 'serviceAccount' },
    });
    for (const user of ['alice', 'bob']) {
      await admin.grantSecrets(ns.name, {
        kind: 'User',
        name: `user:default/${user}`,
      });
    }
    const patchExternalSecrets = [
      {
        apiGroups: [ES.group],
        resources: [ES.plural],
        verbs: ['patch'],
      },
    ];
    await admin.grant(
      ns.name,
      'alice-externalsecrets',
      { kind: 'User', name: 'user:default/alice' },
      patchExternalSecrets,
    );
    // Krypton itself may patch them here, so that a refusal of bob's proves whose right counts.
    await admin.grant(
      ns.name,
      'krypton-externalsecrets',
      KRYPTON_SA,
      patchExternalSecrets,
    );
    await admin.untilAllowed(
      { user: KRYPTON_SA.name },
      {
        namespace: ns.name,
        verb: 'patch',
        group: ES.group,
        resource: ES.plural,
      },
    );
    await synced('db', 'db-source');
    await eventually(
      () =>
        request(impersonating.server)
          .get(path('db'))
          .set('Authorization', as('alice')),
      res => res.body.available === true,
    );
  });
  afterAll(async () => {
    await impersonating.stop();
    await hybrid.stop();
    await serviceAccount.stop();
    admin.close();
  });
  afterEach(() => testPolicy.reset());

  it.each([
    ['impersonation', () => impersonating],
    ['hybrid', () => hybrid],
  ])(
    'in %s mode, offers the sync to a user who may patch the ExternalSecret, then annotates it as that user',
    async (_mode, backend) => {
      const krypton = backend();
      const before = await admin.secret(ns.name, 'db');
      const esBefore = await externalSecret('db-source');
      const offer = await request(krypton.server)
        .get(path('db'))
        .set('Authorization', as('alice'));
      expect([offer.status, offer.body]).toEqual([
        200,
        {
          available: true,
          target: {
            tool: 'external-secrets',
            kind: 'ExternalSecret',
            name: 'db-source',
          },
        },
      ]);
      // The offer's proof was a dry run: the ExternalSecret is as it was.
      expect((await externalSecret('db-source')).metadata).toEqual(
        esBefore.metadata,
      );

      const started = Math.floor(Date.now() / 1000);
      const res = await request(krypton.server)
        .post(path('db'))
        .set('Authorization', as('alice'));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        target: {
          tool: 'external-secrets',
          kind: 'ExternalSecret',
          name: 'db-source',
        },
        annotation: { key: 'force-sync', value: expect.any(String) },
        requestedAt: expect.any(String),
        message: REQUESTED,
      });
      const value = Number(res.body.annotation.value);
      expect(value).toBeGreaterThanOrEqual(started);
      expect(value).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
      const es = await externalSecret('db-source');
      expect(es.metadata.annotations?.['force-sync']).toBe(
        res.body.annotation.value,
      );
      // Krypton asked the owner; the Secret itself is the owner's to write.
      const after = await admin.secret(ns.name, 'db');
      expect(after.metadata.resourceVersion).toBe(
        before.metadata.resourceVersion,
      );
      expect(
        krypton.sink.audits.find(
          a => a.eventId === 'secret-owner-sync' && a.status === 'succeeded',
        ),
      ).toMatchObject({
        severityLevel: 'high',
        actor: 'user:default/alice',
        meta: {
          name: 'db',
          namespace: ns.name,
          ownerKind: 'ExternalSecret',
          ownerName: 'db-source',
          annotation: `force-sync=${res.body.annotation.value}`,
        },
      });
    },
  );

  it.each([
    ['impersonation', () => impersonating],
    ['hybrid', () => hybrid],
  ])(
    "in %s mode, refuses a user whom RBAC does not let patch the ExternalSecret, though Krypton's identity could",
    async (_mode, backend) => {
      const krypton = backend();
      const before = await externalSecret('db-source');
      const offer = await request(krypton.server)
        .get(path('db'))
        .set('Authorization', as('bob'));
      expect(offer.body).toEqual({
        available: false,
        target: {
          tool: 'external-secrets',
          kind: 'ExternalSecret',
          name: 'db-source',
        },
        refusal: 'forbidden',
        message: FORBIDDEN,
      });
      const res = await request(krypton.server)
        .post(path('db'))
        .set('Authorization', as('bob'));
      expect([res.status, res.body]).toEqual([403, { error: FORBIDDEN }]);
      const after = await externalSecret('db-source');
      expect(after.metadata.annotations).toEqual(before.metadata.annotations);
      expect(
        krypton.sink.audits.find(
          a =>
            a.eventId === 'secret-owner-sync' &&
            a.status === 'failed' &&
            a.actor === 'user:default/bob',
        ),
      ).toBeDefined();
    },
  );

  it("never patches another tool's object as Krypton: in serviceAccount mode the sync is refused", async () => {
    await admin.createSecret(ns.name, {
      metadata: {
        name: 'sa-db',
        ownerReferences: [
          await createOwner(admin, ns.name, ES, 'sa-db-source'),
        ],
        annotations: { 'krypton.io/owners': 'user:default/alice' },
      },
      data: { password: b64('from-the-store') },
    });
    const message =
      'Krypton asks an owner to sync only as the signed-in user, and this installation acts on Kubernetes as its own service account.';
    const offer = await request(serviceAccount.server)
      .get(path('sa-db'))
      .set('Authorization', as('alice'));
    expect(offer.body).toMatchObject({
      available: false,
      refusal: 'identity',
      message,
    });
    const res = await request(serviceAccount.server)
      .post(path('sa-db'))
      .set('Authorization', as('alice'));
    expect([res.status, res.body]).toEqual([403, { error: message }]);
    expect(
      (await externalSecret('sa-db-source')).metadata.annotations,
    ).toBeUndefined();
  });

  it('gates on the Secret first: a user who may not update it learns nothing of its owner', async () => {
    testPolicy.denied.add('user:default/alice:krypton.secret.update');
    const offer = await request(impersonating.server)
      .get(path('db'))
      .set('Authorization', as('alice'));
    const res = await request(impersonating.server)
      .post(path('db'))
      .set('Authorization', as('alice'));
    for (const answer of [offer, res]) {
      expect(answer.status).toBe(403);
      expect(JSON.stringify(answer.body)).not.toMatch(/db-source|External/);
    }
    // carol has no RBAC on Secrets at all.
    const carol = await request(impersonating.server)
      .post(path('db'))
      .set('Authorization', as('carol'));
    expect(carol.status).toBe(403);
    expect(JSON.stringify(carol.body)).not.toMatch(/db-source|External/);
  });

  it('annotates only the ExternalSecret that owns the Secret, not another one created under its name', async () => {
    await synced('replaced', 'replaced-source');
    await admin.expect(200, {
      method: 'DELETE',
      path: ownerPath(ES, ns.name, 'replaced-source'),
    });
    await createOwner(admin, ns.name, ES, 'replaced-source');
    const offer = await request(impersonating.server)
      .get(path('replaced'))
      .set('Authorization', as('alice'));
    expect(offer.body).toMatchObject({ available: false, refusal: 'replaced' });
    const res = await request(impersonating.server)
      .post(path('replaced'))
      .set('Authorization', as('alice'));
    expect([res.status, res.body]).toEqual([
      409,
      {
        error:
          'The ExternalSecret of that name is not the one that owns this Secret: it was deleted and created again. Reload the Secret.',
      },
    ]);
    expect(
      (await externalSecret('replaced-source')).metadata.annotations,
    ).toBeUndefined();
  });

  it('says when the ExternalSecret is gone', async () => {
    await synced('orphan', 'orphan-source');
    await admin.expect(200, {
      method: 'DELETE',
      path: ownerPath(ES, ns.name, 'orphan-source'),
    });
    const offer = await request(impersonating.server)
      .get(path('orphan'))
      .set('Authorization', as('alice'));
    expect(offer.body).toMatchObject({
      available: false,
      refusal: 'not_found',
    });
    const res = await request(impersonating.server)
      .post(path('orphan'))
      .set('Authorization', as('alice'));
    expect([res.status, res.body]).toEqual([
      404,
      { error: 'The ExternalSecret that owns this Secret no longer exists.' },
    ]);
  });

  it('offers nothing for a Secret that no ExternalSecret controls, and takes no body or query', async () => {
    await admin.createSecret(ns.name, {
      metadata: {
        name: 'merged',
        labels: { 'reconcile.external-secrets.io/managed': 'true' },
      },
      data: { password: b64('x') },
    });
    const offer = await request(impersonating.server)
      .get(path('merged'))
      .set('Authorization', as('alice'));
    expect(offer.body).toEqual({
      available: false,
      refusal: 'not_supported',
      message:
        'Krypton asks an owner to sync only for a Secret that an ExternalSecret controls, through the owner reference that names it.',
    });
    const res = await request(impersonating.server)
      .post(path('merged'))
      .set('Authorization', as('alice'));
    expect(res.status).toBe(409);

    const withBody = await request(impersonating.server)
      .post(path('db'))
      .set('Authorization', as('alice'))
      .send({ force: true });
    expect([withBody.status, withBody.body]).toEqual([
      400,
      { error: 'owner-sync takes no request body.' },
    ]);
    const withQuery = await request(impersonating.server)
      .post(`${path('db')}?dryRun=true`)
      .set('Authorization', as('alice'));
    expect(withQuery.status).toBe(400);
  });
});
