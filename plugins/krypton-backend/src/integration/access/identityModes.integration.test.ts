import { useTestNamespace, ClusterAdmin } from '@krypton/kube-testenv';
import request from 'supertest';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from '../../__testUtils__/testBackend';

const SNAPSHOT = 'krypton-h-0123456789abcdef0123456789abcdef-v3';

describe('identity modes and KRYPTON_MANAGED_ONLY=false', () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  const base = () => `/api/krypton/namespaces/${ns.name}/secrets`;

  beforeAll(async () => {
    await admin.createSecret(ns.name, {
      metadata: {
        name: 'shared',
        labels: { 'krypton.io/managed-by': 'krypton' },
        annotations: { 'krypton.io/viewers': 'group:default/team-a' },
      },
      data: { k: 'dg==' },
    });
    await admin.createSecret(ns.name, {
      metadata: { name: 'unmanaged' },
      data: { k: 'dg==' },
    });
    await admin.createSecret(ns.name, {
      metadata: {
        name: 'ruleless',
        labels: { 'krypton.io/managed-by': 'krypton' },
      },
      data: { k: 'dg==' },
    });
    await admin.createSecret(ns.name, {
      metadata: { name: SNAPSHOT, labels: { 'krypton.io/kind': 'history' } },
      data: { k: 'dg==' },
    });
  });
  afterAll(() => admin.close());

  describe('serviceAccount mode', () => {
    let krypton: KryptonTestBackend;
    beforeAll(async () => {
      krypton = await startKryptonBackend({
        kubernetes: { identity: 'serviceAccount' },
      });
    });
    afterAll(() => krypton.stop());

    it("reads with Krypton's identity, so users need no RBAC of their own", async () => {
      // alice has no RoleBinding in this namespace; team-a is a viewer of the Secret.
      const res = await request(krypton.server)
        .get(`${base()}/shared`)
        .set('Authorization', as('alice'));
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ k: 'v' });
    });

    it("leaves the Secret's access rules as the gate", async () => {
      const res = await request(krypton.server)
        .get(`${base()}/shared`)
        .set('Authorization', as('bob'));
      expect(res.status).toBe(403);
    });

    it('serves a Secret without access rules to admins only, since no RBAC stands behind it', async () => {
      const alice = await request(krypton.server)
        .get(`${base()}/ruleless`)
        .set('Authorization', as('alice'));
      expect(alice.status).toBe(403);
      expect(alice.body).toEqual({
        error: "You are not allowed to do this by the Secret's access rules.",
      });
      const list = await request(krypton.server)
        .get(base())
        .set('Authorization', as('alice'));
      expect(list.body.items.map((s: { name: string }) => s.name)).toEqual([
        'shared',
      ]);
      const root = await request(krypton.server)
        .get(`${base()}/ruleless`)
        .set('Authorization', as('root'));
      expect(root.status).toBe(200);
    });
  });

  describe('impersonation templates', () => {
    let krypton: KryptonTestBackend;
    beforeAll(async () => {
      krypton = await startKryptonBackend({
        kubernetes: {
          identity: 'impersonation',
          impersonation: { groupTemplate: 'system:{{name}}' },
        },
      });
    });
    afterAll(() => krypton.stop());

    it('refuse a Backstage identity that would map to a system: name', async () => {
      const res = await request(krypton.server)
        .get(`${base()}/shared`)
        .set('Authorization', as('alice'));
      expect(res.status).toBe(403);
      expect(res.body.error).toMatch(/reserved or malformed Kubernetes name/);
    });
  });

  // In hybrid mode too, reads and writes of the live Secret impersonate the user.
  describe.each(['impersonation', 'hybrid'])('%s mode', identity => {
    let krypton: KryptonTestBackend;
    beforeAll(async () => {
      krypton = await startKryptonBackend({ kubernetes: { identity } });
    });
    afterAll(() => krypton.stop());

    it('refuses the same read when the user has no RBAC', async () => {
      const res = await request(krypton.server)
        .get(`${base()}/shared`)
        .set('Authorization', as('alice'));
      expect(res.status).toBe(403);
      expect(res.body.error).toMatch(/Check Kubernetes permissions/);
    });
  });

  describe('an invalid KRYPTON_HISTORY_LIMIT', () => {
    let krypton: KryptonTestBackend;
    beforeAll(async () => {
      krypton = await startKryptonBackend({
        historyLimit: 0,
        kubernetes: { identity: 'serviceAccount' },
      });
    });
    afterAll(() => krypton.stop());

    it('refuses data-changing writes with 503 and lets metadata edits through', async () => {
      const read = await request(krypton.server)
        .get(`${base()}/shared`)
        .set('Authorization', as('root'));
      const rv = read.body.resourceVersion;
      const write = await request(krypton.server)
        .put(`${base()}/shared`)
        .set('Authorization', as('root'))
        .send({ resourceVersion: rv, data: { k: 'changed' } });
      expect(write.status).toBe(503);
      expect(write.body).toEqual({
        error: 'KRYPTON_HISTORY_LIMIT must be a decimal integer from 1 to 100',
      });
      const meta = await request(krypton.server)
        .put(`${base()}/shared`)
        .set('Authorization', as('root'))
        .send({ resourceVersion: rv, description: 'still editable' });
      expect(meta.status).toBe(200);
      expect(meta.body.data).toEqual({ k: 'v' });
    });
  });

  describe('managedOnly: false', () => {
    let krypton: KryptonTestBackend;
    beforeAll(async () => {
      krypton = await startKryptonBackend({
        managedOnly: false,
        kubernetes: { identity: 'serviceAccount' },
      });
    });
    afterAll(() => krypton.stop());

    it('serves unmanaged Secrets but still never snapshots', async () => {
      const list = await request(krypton.server)
        .get(base())
        .set('Authorization', as('root'));
      const names = list.body.items.map((s: { name: string }) => s.name);
      expect(names).toEqual(['ruleless', 'shared', 'unmanaged']);
      const unmanaged = await request(krypton.server)
        .get(`${base()}/unmanaged`)
        .set('Authorization', as('root'));
      expect(unmanaged.status).toBe(200);
      expect(unmanaged.body.managed).toBe(false);
      const snapshot = await request(krypton.server)
        .get(`${base()}/${SNAPSHOT}`)
        .set('Authorization', as('root'));
      expect(snapshot.status).toBe(404);
    });
  });
});
