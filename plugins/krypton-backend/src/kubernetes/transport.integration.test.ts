import { KubeConfig } from '@kubernetes/client-node';
import {
  kubeConfigFor,
  testClusterState,
  useTestNamespace,
} from '@krypton/kube-testenv';
import { KubeTransport } from './transport';

// Token identities for the unprivileged users exist only on the control plane that the test run
// starts; an existing cluster (KRYPTON_TEST_KUBECONFIG) knows them as impersonated names only.
const describeLocalCluster = process.env.KRYPTON_TEST_KUBECONFIG
  ? describe.skip
  : describe;

// The plumbing that everything else relies on, proven against a real kube-apiserver: byte-exact
// Secret data, resourceVersion preconditions and multi-group impersonation.
describe('KubeTransport against a real kube-apiserver', () => {
  const ns = useTestNamespace();
  let krypton: KubeTransport;
  let admin: KubeTransport;

  beforeAll(() => {
    krypton = new KubeTransport(kubeConfigFor('krypton'));
    admin = new KubeTransport(kubeConfigFor('admin'));
  });
  afterAll(() => {
    krypton.close();
    admin.close();
  });

  const secretsPath = () => `/api/v1/namespaces/${ns.name}/secrets`;
  const asBob = { user: 'bob', groups: ['team-b', 'team-c'] };

  it('talks to a real API server', async () => {
    const res = await admin.request({ method: 'GET', path: '/version' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ major: '1' });
  });

  it('writes a Secret and reads it back byte-exact, binary values included', async () => {
    const binary = Buffer.from([0x00, 0xff, 0xfe, 0x80, 0x0a, 0xc3, 0x28]);
    const bom = Buffer.from('\ufeffhello\n', 'utf8');
    const proto = Buffer.from('proto').toString('base64');
    // JSON.parse, unlike an object literal, makes "__proto__" an own data key.
    const data: Record<string, string> = JSON.parse(
      `{"__proto__":"${proto}","binary":"${binary.toString('base64')}",` +
        `"bom":"${bom.toString('base64')}","empty":""}`,
    );
    const created = await krypton.request({
      method: 'POST',
      path: secretsPath(),
      body: { metadata: { name: 'roundtrip' }, type: 'Opaque', data },
    });
    expect(created.status).toBe(201);

    const read = await krypton.request({
      method: 'GET',
      path: `${secretsPath()}/roundtrip`,
    });
    expect(read.status).toBe(200);
    const readData = (read.body as { data: Record<string, string> }).data;
    expect(Object.keys(readData).sort()).toEqual(
      ['__proto__', 'binary', 'bom', 'empty'].sort(),
    );
    expect(Buffer.from(readData.binary, 'base64').equals(binary)).toBe(true);
    expect(Buffer.from(readData.bom, 'base64').equals(bom)).toBe(true);
    expect(readData.empty).toBe('');
    expect(Object.getOwnPropertyDescriptor(readData, '__proto__')?.value).toBe(
      proto,
    );
  });

  it('refuses a write with a stale resourceVersion with 409', async () => {
    const created = await krypton.request({
      method: 'POST',
      path: secretsPath(),
      body: { metadata: { name: 'stale' }, stringData: { a: '1' } },
    });
    const staleRv = (created.body as { metadata: { resourceVersion: string } })
      .metadata.resourceVersion;
    const put = (value: string) =>
      krypton.request({
        method: 'PUT',
        path: `${secretsPath()}/stale`,
        body: {
          metadata: { name: 'stale', resourceVersion: staleRv },
          stringData: { a: value },
        },
      });
    expect((await put('2')).status).toBe(200);
    const conflict = await put('3');
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({ kind: 'Status', reason: 'Conflict' });
  });

  it('impersonates a user through every group, each on its own header line', async () => {
    await krypton.request({
      method: 'POST',
      path: secretsPath(),
      body: { metadata: { name: 'team-secret' }, stringData: { k: 'v' } },
    });
    const get = (groups: string[]) =>
      krypton.request({
        method: 'GET',
        path: `${secretsPath()}/team-secret`,
        impersonate: { user: 'bob', groups },
      });

    expect((await get(asBob.groups)).status).toBe(403);

    // Grant read access through bob's second group only.
    const rbac = `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns.name}`;
    const role = await admin.request({
      method: 'POST',
      path: `${rbac}/roles`,
      body: {
        metadata: { name: 'secret-reader' },
        rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }],
      },
    });
    expect(role.status).toBe(201);
    const binding = await admin.request({
      method: 'POST',
      path: `${rbac}/rolebindings`,
      body: {
        metadata: { name: 'team-c-reads' },
        roleRef: {
          apiGroup: 'rbac.authorization.k8s.io',
          kind: 'Role',
          name: 'secret-reader',
        },
        subjects: [
          {
            apiGroup: 'rbac.authorization.k8s.io',
            kind: 'Group',
            name: 'team-c',
          },
        ],
      },
    });
    expect(binding.status).toBe(201);

    // The apiserver's RBAC cache follows a watch; wait until the grant applies.
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await get(asBob.groups)).status;
      if (status !== 200) await new Promise(r => setTimeout(r, 100));
    }
    expect(status).toBe(200);

    // The same groups joined on one header line name a single group "team-b,team-c", which the
    // RoleBinding does not grant: this is why the transport sends separate lines.
    expect((await get(['team-b,team-c'])).status).toBe(403);
    // And the first group alone grants nothing.
    expect((await get(['team-b'])).status).toBe(403);
  });

  describeLocalCluster(
    'on the control plane that this test run started',
    () => {
      it('serves on loopback', () => {
        const state = testClusterState();
        expect(state.server).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
        expect(state.pid).toBeGreaterThan(0);
      });

      it('refuses impersonation by an identity that may not impersonate', async () => {
        const alice = new KubeTransport(kubeConfigFor('alice') as KubeConfig);
        const res = await alice.request({
          method: 'GET',
          path: `${secretsPath()}/team-secret`,
          impersonate: asBob,
        });
        alice.close();
        expect(res.status).toBe(403);
        expect(JSON.stringify(res.body)).toContain('cannot impersonate');
      });
    },
  );
});
