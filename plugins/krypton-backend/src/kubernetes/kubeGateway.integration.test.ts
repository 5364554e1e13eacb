import { mockServices } from '@backstage/backend-test-utils';
import {
  kubeConfigFor,
  useTestNamespace,
  ClusterAdmin,
} from '@krypton/kube-testenv';
import {
  DEPLOYMENTS,
  KubeApiError,
  NativeSecret,
  SECRETS,
  Workload,
} from '@krypton/core';
import { HttpKubeGateway } from './kubeGateway';
import { KubeTransport } from './transport';

async function failure(promise: Promise<unknown>): Promise<KubeApiError> {
  try {
    await promise;
  } catch (e) {
    return e as KubeApiError;
  }
  throw new Error('expected a rejection');
}

const secret = (
  name: string,
  extra: Partial<NativeSecret['metadata']> = {},
) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, ...extra },
  type: 'Opaque',
  data: { k: Buffer.from(`value of ${name}`).toString('base64') },
});

// The gateway that every engine is written against, proven on a real kube-apiserver: paths per
// resource, preconditions, metadata-only lists, JSON Patch and delete outcomes.
describe('HttpKubeGateway against a real kube-apiserver', () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  let transport: KubeTransport;
  let gateway: HttpKubeGateway;

  beforeAll(() => {
    transport = new KubeTransport(kubeConfigFor('krypton'));
    gateway = new HttpKubeGateway(transport, mockServices.logger.mock());
  });
  afterAll(() => {
    transport.close();
    admin.close();
  });

  it('creates, reads and replaces with UID and resourceVersion preconditions', async () => {
    const created = await gateway.create(SECRETS, ns.name, secret('a'));
    expect(created.metadata.uid).toBeTruthy();
    const read = await gateway.get(SECRETS, ns.name, 'a');
    expect(read.data).toEqual(created.data);
    const replaced = await gateway.replace(SECRETS, ns.name, 'a', {
      ...read,
      data: { k: 'dw==' },
    });
    expect(replaced.metadata.resourceVersion).not.toBe(
      read.metadata.resourceVersion,
    );
    const stale = await failure(
      gateway.replace(SECRETS, ns.name, 'a', { ...read, data: { k: 'eA==' } }),
    );
    expect(stale).toMatchObject({ status: 409, reason: 'Conflict' });
    await expect(
      gateway.replace(SECRETS, ns.name, 'a', {
        ...read,
        metadata: { ...read.metadata, uid: undefined },
      }),
    ).rejects.toThrow(/preconditions/);
    expect(
      await failure(gateway.create(SECRETS, ns.name, secret('a'))),
    ).toMatchObject({
      status: 409,
      reason: 'AlreadyExists',
    });
    expect(
      await failure(gateway.get(SECRETS, ns.name, 'missing')),
    ).toMatchObject({
      status: 404,
      reason: 'NotFound',
    });
  });

  it('lists in pages with continuation tokens, and stops a page at its byte budget', async () => {
    for (const name of ['p1', 'p2', 'p3', 'p4', 'p5']) {
      await gateway.create(
        SECRETS,
        ns.name,
        secret(name, { labels: { page: 'yes' } }),
      );
    }
    const names: string[] = [];
    let continueToken: string | undefined;
    let pages = 0;
    do {
      const page = await gateway.list(SECRETS, ns.name, {
        labelSelector: 'page=yes',
        limit: 2,
        continueToken,
        maxBytes: 1024 * 1024,
      });
      expect(page.items.length).toBeLessThanOrEqual(2);
      expect(page.bytes).toBeGreaterThan(0);
      names.push(...page.items.map(s => s.metadata.name!));
      continueToken = page.continueToken;
      pages++;
    } while (continueToken);
    expect(names).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
    expect(pages).toBe(3);
    const tooLarge = await failure(
      gateway.list(SECRETS, ns.name, { limit: 100, maxBytes: 64 }),
    );
    expect(tooLarge).toMatchObject({ status: 0, reason: 'ResponseTooLarge' });
  });

  it('lists metadata only: no values ever cross the wire', async () => {
    const page = await gateway.listMetadata(SECRETS, ns.name, {
      labelSelector: 'page=yes',
      limit: 100,
      maxBytes: 1024 * 1024,
    });
    expect(page.items.map(i => i.metadata.name)).toEqual([
      'p1',
      'p2',
      'p3',
      'p4',
      'p5',
    ]);
    for (const item of page.items) {
      expect(item.kind).toBe('PartialObjectMetadata');
      expect(item).not.toHaveProperty('data');
      expect(item.metadata.uid).toBeTruthy();
      expect(item.metadata.resourceVersion).toBeTruthy();
    }
    expect(JSON.stringify(page)).not.toContain(
      Buffer.from('value of p1').toString('base64'),
    );
  });

  it('reads an empty metadata-only list, which the server sends with null items', async () => {
    const page = await gateway.listMetadata(SECRETS, ns.name, {
      labelSelector: 'nothing=here',
      limit: 100,
      maxBytes: 1024 * 1024,
    });
    expect(page.items).toEqual([]);
  });

  it('patches a workload with a conditional RFC 6902 patch, escaping "/" in keys', async () => {
    const created = await admin.request({
      method: 'POST',
      path: `/apis/apps/v1/namespaces/${ns.name}/deployments`,
      body: {
        metadata: { name: 'web' },
        spec: {
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: {
              containers: [{ name: 'c', image: 'example.invalid/web:1' }],
            },
          },
        },
      },
    });
    expect(created.status).toBe(201);
    const web = await gateway.get(DEPLOYMENTS, ns.name, 'web');
    const conditional = (uid: string, resourceVersion: string) => [
      { op: 'test' as const, path: '/metadata/uid', value: uid },
      {
        op: 'test' as const,
        path: '/metadata/resourceVersion',
        value: resourceVersion,
      },
      {
        op: 'add' as const,
        path: '/spec/template/metadata/annotations',
        value: { 'krypton.io/restarted-at': '2026-11-30T00:00:00Z' },
      },
    ];
    const patched = await gateway.patch<Workload>(
      DEPLOYMENTS,
      ns.name,
      'web',
      conditional(web.metadata.uid!, web.metadata.resourceVersion!),
    );
    const template = (
      patched.spec as {
        template: { metadata: { annotations: Record<string, string> } };
      }
    ).template;
    expect(template.metadata.annotations['krypton.io/restarted-at']).toBe(
      '2026-11-30T00:00:00Z',
    );
    // An intervening edit fails the test operation: 422, and nothing changes.
    const stale = await failure(
      gateway.patch(
        DEPLOYMENTS,
        ns.name,
        'web',
        conditional(web.metadata.uid!, web.metadata.resourceVersion!),
      ),
    );
    expect(stale.status).toBe(422);
    const escaped = await gateway.patch<Workload>(DEPLOYMENTS, ns.name, 'web', [
      {
        op: 'test',
        path: '/metadata/resourceVersion',
        value: patched.metadata.resourceVersion,
      },
      {
        op: 'add',
        path: '/spec/template/metadata/annotations/krypton.io~1restarted-at',
        value: 'again',
      },
    ]);
    expect(
      (
        escaped.spec as {
          template: { metadata: { annotations: Record<string, string> } };
        }
      ).template.metadata.annotations['krypton.io/restarted-at'],
    ).toBe('again');
  });

  it('tells a delete that is gone from one that finalizers hold', async () => {
    const plain = await gateway.create(SECRETS, ns.name, secret('gone'));
    const pre = (s: NativeSecret) => ({
      uid: s.metadata.uid!,
      resourceVersion: s.metadata.resourceVersion!,
    });
    expect(
      await failure(
        gateway.delete(SECRETS, ns.name, 'gone', {
          ...pre(plain),
          resourceVersion: '1',
        }),
      ),
    ).toMatchObject({ status: 409 });
    expect(await gateway.delete(SECRETS, ns.name, 'gone', pre(plain))).toEqual({
      gone: true,
    });

    const held = await gateway.create(
      SECRETS,
      ns.name,
      secret('held', { finalizers: ['example.com/hold'] }),
    );
    const outcome = await gateway.delete(SECRETS, ns.name, 'held', pre(held));
    expect(outcome.gone).toBe(false);
    if (outcome.gone) throw new Error('unreachable');
    expect(outcome.object.metadata.deletionTimestamp).toBeTruthy();
    // Release it, so that the namespace can go.
    await gateway.replace(SECRETS, ns.name, 'held', {
      ...outcome.object,
      metadata: { ...outcome.object.metadata, finalizers: [] },
    });
    expect(await failure(gateway.get(SECRETS, ns.name, 'held'))).toMatchObject({
      status: 404,
    });
  });

  it('acts as the impersonated user when given one', async () => {
    const asCarol = new HttpKubeGateway(transport, mockServices.logger.mock(), {
      user: 'carol',
      groups: [],
    });
    expect(await failure(asCarol.get(SECRETS, ns.name, 'a'))).toMatchObject({
      status: 403,
      reason: 'Forbidden',
    });
  });
});
