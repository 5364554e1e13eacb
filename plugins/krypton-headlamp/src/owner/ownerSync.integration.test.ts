import {
  ClusterAdmin,
  OWNER_KINDS,
  createOwner,
  eventually,
  installOwnerKinds,
  ownerPath,
  useTestNamespace,
} from '@krypton/kube-testenv';
import { KryptonError, OWNER_SYNC_MESSAGES } from '@krypton/core';
import {
  CLUSTER,
  HeadlampSession,
  headlampAs,
  untilSecretsListable,
} from '../__testUtils__/testCluster';
import { headlampActor } from '../actor';
import { HeadlampKrypton, headlampKrypton } from '../engines';

const ES = OWNER_KINDS.ExternalSecret;

// Token identities for the unprivileged users exist only on the control plane that the test run
// starts; an existing cluster (KRYPTON_TEST_KUBECONFIG) knows them as impersonated names only.
const describeLocalCluster = process.env.KRYPTON_TEST_KUBECONFIG
  ? describe.skip
  : describe;

// The owner sync as Headlamp runs it: the core's engine on the browser gateway, through the
// stand-in for Headlamp's server with the user's own token, against the real API server with the
// ExternalSecret CRD. The user's RBAC is the only gate, and the patch is theirs.
describeLocalCluster('owner sync in Headlamp', () => {
  const ns = useTestNamespace('krypton-hl');
  const admin = new ClusterAdmin();
  const sessions: HeadlampSession[] = [];
  async function kryptonOf(user: 'alice' | 'bob'): Promise<HeadlampKrypton> {
    const session = await headlampAs(user);
    sessions.push(session);
    await untilSecretsListable(session, ns.name);
    return headlampKrypton({
      gateway: session.gateway,
      cluster: CLUSTER,
      actor: headlampActor(session.send),
      // External Secrets writes Secrets that Krypton does not manage.
      settings: { managedOnly: false },
    });
  }

  beforeAll(async () => {
    await installOwnerKinds(admin);
    for (const user of ['alice', 'bob']) {
      await admin.grantSecrets(ns.name, { kind: 'User', name: user });
    }
    await admin.grant(
      ns.name,
      'alice-externalsecrets',
      { kind: 'User', name: 'alice' },
      [{ apiGroups: [ES.group], resources: [ES.plural], verbs: ['patch'] }],
    );
    const owner = await createOwner(admin, ns.name, ES, 'db-source');
    await admin.createSecret(ns.name, {
      metadata: { name: 'db', ownerReferences: [owner] },
      data: { password: Buffer.from('from-the-store').toString('base64') },
    });
  });
  afterAll(async () => {
    await Promise.all(sessions.map(s => s.server.close()));
    admin.close();
  });

  it("offers the sync to a user who may patch the ExternalSecret, and annotates it with the user's own token", async () => {
    const krypton = await kryptonOf('alice');
    const target = {
      tool: 'external-secrets',
      kind: 'ExternalSecret',
      name: 'db-source',
    };
    // The authorizer learns of alice's new RoleBinding a moment after it is written.
    const offer = await eventually(
      () => krypton.ownerSync.offer(ns.name, 'db', krypton.gate),
      answer => answer.available,
    );
    expect(offer).toEqual({ available: true, target });
    const result = await krypton.ownerSync.request(ns.name, 'db', krypton.gate);
    expect(result).toMatchObject({
      target,
      annotation: { key: 'force-sync' },
    });
    const es = await admin.expect<{
      metadata: {
        annotations?: Record<string, string>;
        managedFields?: Array<{ manager: string; operation: string }>;
      };
    }>(200, { method: 'GET', path: ownerPath(ES, ns.name, 'db-source') });
    expect(es.metadata.annotations?.['force-sync']).toBe(
      result.annotation.value,
    );
    // Headlamp's writes name Krypton as their field manager, this one too.
    expect(es.metadata.managedFields).toContainEqual(
      expect.objectContaining({ manager: 'krypton', operation: 'Update' }),
    );
  });

  it('refuses a user whom RBAC does not let patch the ExternalSecret', async () => {
    const krypton = await kryptonOf('bob');
    expect(
      await krypton.ownerSync.offer(ns.name, 'db', krypton.gate),
    ).toMatchObject({ available: false, refusal: 'forbidden' });
    let error: unknown;
    try {
      await krypton.ownerSync.request(ns.name, 'db', krypton.gate);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(KryptonError);
    expect((error as KryptonError).message).toBe(OWNER_SYNC_MESSAGES.forbidden);
  });
});
