import { mockServices } from '@backstage/backend-test-utils';
import {
  ClusterAdmin,
  eventually,
  kubeConfigFor,
  useTestNamespace,
} from '@krypton/kube-testenv';
import { NativeSecret, SecretProposals, proposalName } from '@krypton/core';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { HttpKubeGateway } from '../../kubernetes/kubeGateway';
import { KubeTransport } from '../../kubernetes/transport';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from '../../__testUtils__/testBackend';

const CANARY = 'proposed-canary-4c1d';
const b64 = (text: string) => Buffer.from(text).toString('base64');

/**
 * Where a change request's proposed values live: an immutable Secret beside the live one, saved
 * and removed with Krypton's identity, and never served by Krypton as a Secret or a version.
 */
describe('proposal Secrets against a real kube-apiserver', () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  let krypton: KryptonTestBackend;
  let transport: KubeTransport;
  let proposals: SecretProposals;
  const api = () => request(krypton.server);
  const base = () => `/api/krypton/namespaces/${ns.name}`;

  async function liveSecret(name: string): Promise<NativeSecret> {
    const res = await api()
      .post(`${base()}/secrets`)
      .set('Authorization', as('alice'))
      .send({ name, data: { password: 'live-value' } });
    expect(res.status).toBe(201);
    return admin.secret(ns.name, name) as Promise<NativeSecret>;
  }

  const propose = (live: NativeSecret, requestId = randomUUID()) =>
    proposals.save(live, {
      requestId,
      data: { password: b64(CANARY) },
      by: 'user:default/alice',
    });

  beforeAll(async () => {
    krypton = await startKryptonBackend();
    for (const user of ['alice', 'root']) {
      await admin.grantSecrets(ns.name, {
        kind: 'User',
        name: `user:default/${user}`,
      });
    }
    transport = new KubeTransport(kubeConfigFor('krypton'));
    proposals = new SecretProposals({
      gateway: new HttpKubeGateway(transport, mockServices.logger.mock()),
      annotationPrefix: 'krypton.io',
    });
    await eventually(
      () => api().get(`${base()}/secrets`).set('Authorization', as('alice')),
      r => r.status === 200,
    );
  });
  afterAll(async () => {
    await krypton.stop();
    transport.close();
    admin.close();
  });

  it('saves an immutable proposal owned by the live Secret, read back only by its request and UID', async () => {
    const live = await liveSecret('db');
    const requestId = randomUUID();
    const record = await propose(live, requestId);

    const stored = await admin.secret(ns.name, proposalName(requestId));
    expect(stored).toMatchObject({
      type: 'Opaque',
      immutable: true,
      data: { password: b64(CANARY) },
      metadata: {
        uid: record.uid,
        labels: {
          'krypton.io/managed-by': 'krypton',
          'krypton.io/kind': 'proposal',
        },
        annotations: {
          'krypton.io/proposal-of': 'db',
          'krypton.io/source-uid': live.metadata.uid,
          'krypton.io/source-resource-version': live.metadata.resourceVersion,
          'krypton.io/proposed-by': 'user:default/alice',
        },
        ownerReferences: [
          {
            apiVersion: 'v1',
            kind: 'Secret',
            name: 'db',
            uid: live.metadata.uid,
          },
        ],
      },
    });
    expect(await proposals.read(ns.name, requestId, record.uid)).toEqual(
      record,
    );
    expect(
      await proposals.read(ns.name, requestId, randomUUID()),
    ).toBeUndefined();
    // Kubernetes keeps it as it was saved.
    const edit = await admin.request({
      method: 'PUT',
      path: `/api/v1/namespaces/${ns.name}/secrets/${proposalName(requestId)}`,
      body: { ...stored, data: { password: b64('changed') } },
    });
    expect(edit.status).toBe(422);
  });

  it('never takes a Secret recreated under the proposal name for the proposal', async () => {
    const live = await liveSecret('replaced');
    const requestId = randomUUID();
    const record = await propose(live, requestId);
    const name = proposalName(requestId);
    const stored = await admin.secret(ns.name, name);
    await admin.expect(200, {
      method: 'DELETE',
      path: `/api/v1/namespaces/${ns.name}/secrets/${name}`,
    });
    const { uid, resourceVersion, creationTimestamp, ...metadata } =
      stored.metadata;
    await admin.createSecret(ns.name, {
      ...stored,
      metadata,
      data: { password: b64('someone else') },
    });

    expect(
      await proposals.read(ns.name, requestId, record.uid),
    ).toBeUndefined();
  });

  it('removes a proposal once, and a second remove finds none', async () => {
    const live = await liveSecret('ending');
    const requestId = randomUUID();
    await propose(live, requestId);

    expect(await proposals.remove(ns.name, requestId)).toBe(true);
    expect(
      (await admin.getSecret(ns.name, proposalName(requestId))).status,
    ).toBe(404);
    expect(await proposals.remove(ns.name, requestId)).toBe(false);
  });

  it('refuses a second proposal under a request id that is taken', async () => {
    const live = await liveSecret('twice');
    const requestId = randomUUID();
    await propose(live, requestId);
    await expect(propose(live, requestId)).rejects.toMatchObject({
      code: 'conflict',
    });
  });

  it('never serves a proposal through any named route, list or history, even to an admin', async () => {
    const live = await liveSecret('served');
    const requestId = randomUUID();
    await propose(live, requestId);
    const name = proposalName(requestId);
    const rv = (await admin.secret(ns.name, name)).metadata.resourceVersion;

    const named = [
      api().get(`${base()}/secrets/${name}`),
      api().get(`${base()}/secrets/${name}/versions`),
      api().get(`${base()}/secrets/${name}/versions/1`),
      api().get(`${base()}/secrets/${name}/consumers`),
      api().put(`${base()}/secrets/${name}`).send({ resourceVersion: rv }),
      api()
        .post(`${base()}/secrets/${name}/restore`)
        .send({ version: 1, resourceVersion: rv }),
      api().delete(`${base()}/secrets/${name}`).send({ resourceVersion: rv }),
    ];
    for (const call of named) {
      const res = await call.set('Authorization', as('root'));
      expect([res.status, res.body]).toEqual([
        404,
        { error: 'Secret not found' },
      ]);
    }
    for (const query of [{}, { adoptable: 'true' }]) {
      const list = await api()
        .get(`${base()}/secrets`)
        .query(query)
        .set('Authorization', as('root'));
      expect(list.status).toBe(200);
      expect(JSON.stringify(list.body)).not.toContain('krypton-p-');
    }
    const versions = await api()
      .get(`${base()}/secrets/served/versions`)
      .set('Authorization', as('root'));
    expect(versions.status).toBe(200);
    expect(versions.body.items).toEqual([]);
    const created = await api()
      .post(`${base()}/secrets`)
      .set('Authorization', as('root'))
      .send({ name: proposalName(randomUUID()), data: { k: 'v' } });
    expect([created.status, created.body]).toEqual([
      400,
      {
        error:
          'Names starting with "krypton-p-" are reserved for Krypton\'s change requests.',
      },
    ]);
    expect(krypton.sink.text()).not.toContain(b64(CANARY));
    expect(krypton.sink.text()).not.toContain(CANARY);
  });
});
