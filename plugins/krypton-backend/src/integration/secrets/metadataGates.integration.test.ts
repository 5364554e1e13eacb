import {
  FaultProxy,
  startFaultProxy,
  testClusterState,
  useTestNamespace,
  ClusterAdmin,
  eventually,
} from '@krypton/kube-testenv';
import request from 'supertest';
import { b64 } from '../../__testUtils__/history';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from '../../__testUtils__/testBackend';

const METADATA = /;as=PartialObjectMetadata(List)?;/;

/**
 * Routes that never use the values gate on the live Secret's metadata: its labels, rules, UID and
 * revision. The values of the live Secret never cross the connection for them.
 */
describe.each(['impersonation', 'hybrid'])(
  'gates that read metadata only, %s mode',
  identity => {
    const ns = useTestNamespace();
    const admin = new ClusterAdmin();
    let proxy: FaultProxy;
    let krypton: KryptonTestBackend;
    const path = (name: string) =>
      `/api/krypton/namespaces/${ns.name}/secrets/${name}`;
    const liveReads = (name: string) =>
      proxy.requests.filter(
        r =>
          r.method === 'GET' &&
          r.path === `/api/v1/namespaces/${ns.name}/secrets/${name}`,
      );

    beforeAll(async () => {
      const state = testClusterState();
      proxy = await startFaultProxy({
        target: state.server,
        caFile: state.caFile || undefined,
      });
      krypton = await startKryptonBackend(
        { kubernetes: { identity }, restart: { enabled: true } },
        { clusterUrl: proxy.url },
      );
      await admin.grantSecrets(ns.name, {
        kind: 'User',
        name: 'user:default/root',
      });
      await admin.grant(
        ns.name,
        'root-workloads',
        { kind: 'Group', name: 'group:default/krypton-admins' },
        [
          {
            apiGroups: ['apps'],
            resources: ['deployments', 'statefulsets', 'daemonsets'],
            verbs: ['get', 'list', 'patch'],
          },
        ],
      );
      await admin.createSecret(ns.name, {
        metadata: {
          name: 'large',
          labels: { 'krypton.io/managed-by': 'krypton' },
        },
        data: { k: b64('x'.repeat(100_000)) },
      });
      await eventually(
        () =>
          request(krypton.server)
            .get(`${path('large')}/versions`)
            .set('Authorization', as('root')),
        r => r.status === 200,
      );
    });
    afterAll(async () => {
      await krypton.stop();
      await proxy.close();
      admin.close();
    });

    it.each([
      ['the version list', 'get', '/versions', 200],
      ['the consumers dry run', 'get', '/consumers', 200],
      ['the last restart', 'get', '/restart-consumers/last', 200],
    ] as const)('%s', async (_what, method, suffix, status) => {
      proxy.resetRecordings();
      const res = await request(krypton.server)
        [method](`${path('large')}${suffix}`)
        .set('Authorization', as('root'));
      expect(res.status).toBe(status);
      const reads = liveReads('large');
      expect(reads).toHaveLength(1);
      expect(reads[0].headers.accept?.[0]).toMatch(METADATA);
    });

    it('a restart reads the whole Secret only for the dry run of hybrid mode', async () => {
      proxy.resetRecordings();
      const res = await request(krypton.server)
        .post(`${path('large')}/restart-consumers`)
        .set('Authorization', as('root'));
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('no_targets');
      const [read] = liveReads('large');
      expect(read.headers.accept?.[0]).toMatch(
        identity === 'hybrid' ? /^application\/json$/ : METADATA,
      );
    });

    it('a delete reads metadata only, from the gate to the final recheck', async () => {
      const created = await admin.createSecret(ns.name, {
        metadata: {
          name: `gone-${identity.toLowerCase()}`,
          labels: { 'krypton.io/managed-by': 'krypton' },
        },
        data: { k: b64('x'.repeat(100_000)) },
      });
      proxy.resetRecordings();
      const res = await request(krypton.server)
        .delete(path(`gone-${identity.toLowerCase()}`))
        .query({ resourceVersion: created.metadata.resourceVersion })
        .set('Authorization', as('root'));
      expect(res.status).toBe(200);
      const gets = proxy.requests.filter(r => r.method === 'GET');
      expect(gets.length).toBeGreaterThan(0);
      for (const get of gets) expect(get.headers.accept?.[0]).toMatch(METADATA);
    });
  },
);
