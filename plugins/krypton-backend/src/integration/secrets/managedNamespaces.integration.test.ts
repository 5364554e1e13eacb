import {
  ClusterAdmin,
  eventually,
  useTestNamespace,
} from '@krypton/kube-testenv';
import { MANAGED_NAMESPACES_MAX, messages } from '@krypton/core';
import { randomBytes } from 'crypto';
import request from 'supertest';
import { b64 } from '../../__testUtils__/history';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
  testPolicy,
} from '../../__testUtils__/testBackend';

const ROUTE = '/api/krypton/managed-namespaces';

/**
 * The platform page's first view: the namespaces that hold managed Secrets the user may list, with
 * how many. Every count is the Secret list the user would see there. The namespaces of this file
 * start with "0", so they sort before every other test's namespace and are the first that the
 * route looks in, however many namespaces other test files leave behind.
 */
describe('GET /managed-namespaces', () => {
  const listed = useTestNamespace('0mns-a');
  const hidden = useTestNamespace('0mns-b');
  const unmanagedOnly = useTestNamespace('0mns-c');
  const admin = new ClusterAdmin();
  // Users of this file only: no other test's user gains a cluster-wide right while it runs.
  const suffix = randomBytes(4).toString('hex');
  const lister = `mnslister-${suffix}`;
  const writer = `mnswriter-${suffix}`;
  const grant = `krypton-test-${lister}`;
  let krypton: KryptonTestBackend;

  const get = (user: string | undefined, path = ROUTE) => {
    const req = request(krypton.server).get(path);
    return user === undefined ? req : req.set('Authorization', as(user));
  };
  const createManaged = async (
    namespace: string,
    name: string,
    access?: Record<string, string[]>,
  ) => {
    const res = await request(krypton.server)
      .post(`/api/krypton/namespaces/${namespace}/secrets`)
      .set('Authorization', as(writer))
      .send({ name, data: { token: b64(`value-${name}`) }, access });
    if (res.status !== 201)
      throw new Error(`create ${namespace}/${name}: ${res.status}`);
  };
  const createUnmanaged = (namespace: string, name: string) =>
    admin.createSecret(namespace, {
      metadata: { name },
      data: { token: b64('unmanaged') },
    });
  const grantSecrets = (namespace: string, user: string) =>
    admin.grantSecrets(namespace, {
      kind: 'User',
      name: `user:default/${user}`,
    });

  beforeAll(async () => {
    // With managedOnly off the Secret list shows unmanaged Secrets too; the first view still
    // counts only managed ones.
    krypton = await startKryptonBackend({ managedOnly: false });
    await admin.grantClusterWide(
      grant,
      { kind: 'User', name: `user:default/${lister}` },
      [{ apiGroups: [''], resources: ['namespaces'], verbs: ['list'] }],
    );
    for (const ns of [listed, hidden, unmanagedOnly])
      await grantSecrets(ns.name, writer);
    await grantSecrets(listed.name, lister);
    await grantSecrets(unmanagedOnly.name, lister);
    await admin.untilAllowed(
      { user: `user:default/${writer}` },
      {
        namespace: hidden.name,
        verb: 'create',
        resource: 'secrets',
      },
    );
    await createManaged(listed.name, 'db');
    await createManaged(listed.name, 'api');
    // The access rules name only the writer: the lister's list leaves it out, so the count does.
    await createManaged(listed.name, 'writers-only', {
      owners: [`user:default/${writer}`],
    });
    await createUnmanaged(listed.name, 'plain');
    await createManaged(hidden.name, 'db');
    await createUnmanaged(unmanagedOnly.name, 'plain');
    await eventually(
      () => get(lister),
      r => r.status === 200,
    );
  });
  afterAll(async () => {
    await admin.revokeClusterWide(grant).catch(() => undefined);
    await krypton.stop();
    admin.close();
  });
  afterEach(() => testPolicy.reset());

  it('names only the namespaces where the user may list managed Secrets, with the counts of their lists', async () => {
    const auditsBefore = krypton.sink.audits.length;
    for (const path of [
      ROUTE,
      '/api/krypton/clusters/test/managed-namespaces',
    ]) {
      const res = await get(lister, path);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(Object.keys(res.body).sort()).toEqual(['items', 'notLookedIn']);
      const ours = (res.body.items as Array<{ namespace: string }>).filter(
        item => item.namespace.startsWith('0mns-'),
      );
      // Not the namespace whose Secrets the lister may not list, nor the one without a managed
      // Secret; the unmanaged Secret and the one whose access rules leave the lister out are not
      // counted.
      expect(ours).toEqual([{ namespace: listed.name, secrets: 2 }]);
      expect(res.text).not.toContain(hidden.name);
      expect(res.text).not.toContain(unmanagedOnly.name);
      // The answer names namespaces and counts, nothing of the Secrets.
      expect(res.text).not.toContain('writers-only');
      expect(res.text).not.toContain('value-');
      // The Secret list shows the lister the same two, and the unmanaged one.
      const list = await get(
        lister,
        `/api/krypton/namespaces/${listed.name}/secrets`,
      );
      expect(list.body.items.map((i: { name: string }) => i.name)).toEqual([
        'api',
        'db',
        'plain',
      ]);
    }
    // The writer may list all three namespaces' Secrets but not the namespaces: the picker's
    // refusal, with no names.
    const refused = await get(writer);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: messages.forbiddenKubernetes });
    // Reading lists reveals no values and changes nothing: no audit event.
    expect(krypton.sink.audits.slice(auditsBefore)).toEqual([]);
  });

  it("in serviceAccount mode, looks in the allow-list's namespaces and counts what the access rules let the user list", async () => {
    // Krypton's own identity lists here, and a Secret without rules is open to no one but
    // Krypton's admins: the writer, whom one Secret's rules name, counts that one only.
    const serviceAccount = await startKryptonBackend({
      managedOnly: false,
      kubernetes: {
        identity: 'serviceAccount',
        serviceAccountMode: {
          namespaces: [listed.name, hidden.name, unmanagedOnly.name],
        },
      },
    });
    try {
      const res = await request(serviceAccount.server)
        .get(ROUTE)
        .set('Authorization', as(writer));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        items: [{ namespace: listed.name, secrets: 1 }],
        notLookedIn: 0,
      });
      // carol has no RBAC at all and no rules name her: nothing is named, not even the
      // allow-list's namespaces.
      const carol = await request(serviceAccount.server)
        .get(ROUTE)
        .set('Authorization', as('carol'));
      expect(carol.status).toBe(200);
      expect(carol.body).toEqual({ items: [], notLookedIn: 0 });
    } finally {
      await serviceAccount.stop();
    }
  });

  it('refuses a user whom the permission policy denies krypton.secret.read, and anyone Kubernetes refuses the namespaces', async () => {
    testPolicy.denied.add(`user:default/${lister}:krypton.secret.read`);
    const denied = await get(lister);
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ error: messages.forbiddenPermission });
    expect(denied.text).not.toContain(listed.name);
    const carol = await get('carol');
    expect(carol.status).toBe(403);
    expect(carol.body).toEqual({ error: messages.forbiddenKubernetes });
  });

  it('refuses query parameters, unknown clusters and callers without a sign-in', async () => {
    for (const query of ['?limit=5', '?namespace=x']) {
      const res = await get(lister, `${ROUTE}${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^Unknown query parameter/);
    }
    const unknown = await get(
      lister,
      '/api/krypton/clusters/elsewhere/managed-namespaces',
    );
    expect(unknown.status).toBe(404);
    const anonymous = await get(undefined);
    expect(anonymous.status).toBe(401);
    expect(anonymous.text).not.toContain(listed.name);
  });

  it(`looks in the first ${MANAGED_NAMESPACES_MAX} namespaces by name and says how many it did not`, async () => {
    // Namespaces "0mns-z-…" sort after this file's other three, so the last of them is past the
    // budget, and holds a managed Secret that the lister may list.
    const batch = `0mns-z-${randomBytes(3).toString('hex')}`;
    const names = Array.from(
      { length: MANAGED_NAMESPACES_MAX },
      (_, i) => `${batch}-${String(i).padStart(3, '0')}`,
    );
    const last = names[names.length - 1];
    try {
      for (const name of names) await admin.createNamespace(name);
      await grantSecrets(last, writer);
      await grantSecrets(last, lister);
      await admin.untilAllowed(
        { user: `user:default/${writer}` },
        {
          namespace: last,
          verb: 'create',
          resource: 'secrets',
        },
      );
      await createManaged(last, 'db');
      await admin.untilAllowed(
        { user: `user:default/${lister}` },
        {
          namespace: last,
          verb: 'list',
          resource: 'secrets',
        },
      );
      const res = await get(lister);
      expect(res.status).toBe(200);
      // Three namespaces of this file come first, so at least the last of the batch is past the
      // first hundred; other test files' namespaces may add more.
      expect(res.body.notLookedIn).toBeGreaterThanOrEqual(3);
      expect(res.text).not.toContain(last);
      expect(res.body.items).toContainEqual({
        namespace: listed.name,
        secrets: 2,
      });
    } finally {
      for (const name of names)
        await admin.deleteNamespace(name).catch(() => undefined);
    }
  });
});
