import {
  useTestNamespace,
  ClusterAdmin,
  container,
  createWorkload,
} from '@krypton/kube-testenv';
import { SNAPSHOT_NAME_PREFIX, messages } from '@krypton/core';
import { mockCredentials } from '@backstage/backend-test-utils';
import request from 'supertest';
import { b64 } from '../../__testUtils__/history';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
  testPolicy,
} from '../../__testUtils__/testBackend';

const ACTIONS = '/api/krypton/.backstage/actions/v1/actions';

/** Values written through the API; no action's output may contain them in any form. */
const CANARIES = ['canary-one-7f3a', 'canary-two-9c1e', 'canary-three-2b8d'];
const forms = (value: string) => [value, b64(value)];

/**
 * Krypton's actions over the actions registry's real HTTP endpoints, with the user's identity:
 * the same gates and audit as the routes, and never a value in or out.
 */
describe("Krypton's actions", () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  let krypton: KryptonTestBackend;
  const outputs: string[] = [];

  const invoke = async (name: string, input: object, user = 'root') => {
    const res = await request(krypton.server)
      .post(`${ACTIONS}/krypton:${name}/invoke`)
      .set('Authorization', as(user))
      .send(input);
    outputs.push(res.text);
    return res;
  };
  const ref = (name = 'db') => ({ namespace: ns.name, name });

  beforeAll(async () => {
    krypton = await startKryptonBackend({ restart: { enabled: true } });
    await admin.grantSecrets(ns.name, {
      kind: 'User',
      name: 'user:default/root',
    });
    await admin.grantWorkloads(ns.name, {
      kind: 'User',
      name: 'user:default/root',
    });
    const secrets = `/api/krypton/namespaces/${ns.name}/secrets`;
    const created = await request(krypton.server)
      .post(secrets)
      .set('Authorization', as('root'))
      .send({ name: 'db', data: { password: CANARIES[0], user: 'app' } });
    if (created.status !== 201) throw new Error(`create: ${created.status}`);
    const updated = await request(krypton.server)
      .put(`${secrets}/db`)
      .set('Authorization', as('root'))
      .send({
        resourceVersion: created.body.resourceVersion,
        data: { password: CANARIES[1], user: 'app', extra: CANARIES[2] },
      });
    if (updated.status !== 200) throw new Error(`update: ${updated.status}`);
    await createWorkload(admin, ns.name, 'Deployment', 'api', {
      containers: [container({ envFrom: [{ secretRef: { name: 'db' } }] })],
    });
  });
  afterAll(async () => {
    testPolicy.reset();
    await krypton.stop();
    admin.close();
  });

  it('lists every action with its attributes', async () => {
    const res = await request(krypton.server)
      .get(ACTIONS)
      .set('Authorization', as('root'));
    expect(res.status).toBe(200);
    const listed = Object.fromEntries(
      res.body.actions.map(
        (a: { id: string; attributes: Record<string, boolean> }) => [
          a.id,
          a.attributes,
        ],
      ),
    );
    const readOnly = { readOnly: true, idempotent: true, destructive: false };
    const destructive = {
      readOnly: false,
      idempotent: false,
      destructive: true,
    };
    expect(listed).toEqual({
      'krypton:list-secrets': readOnly,
      'krypton:get-secret-summary': readOnly,
      'krypton:list-secret-versions': readOnly,
      'krypton:diff-secret-versions': readOnly,
      'krypton:list-secret-consumers': readOnly,
      'krypton:get-last-restart': readOnly,
      'krypton:list-change-requests': readOnly,
      'krypton:restore-secret-version': destructive,
      'krypton:restart-secret-consumers': destructive,
    });
  });

  it('reads metadata, versions, a masked diff and consumers', async () => {
    const list = await invoke('list-secrets', { namespace: ns.name });
    expect(list.status).toBe(200);
    expect(list.body.output.items.map((s: { name: string }) => s.name)).toEqual(
      ['db'],
    );
    const summary = await invoke('get-secret-summary', ref());
    expect(summary.body.output.secret).toMatchObject({
      name: 'db',
      version: 2,
      keys: ['extra', 'password', 'user'],
    });
    const versions = await invoke('list-secret-versions', ref());
    expect(
      versions.body.output.items.map((v: { version: number }) => v.version),
    ).toEqual([1]);

    const diff = await invoke('diff-secret-versions', {
      ...ref(),
      from: 1,
      to: 'live',
    });
    expect(diff.status).toBe(200);
    expect(diff.body.output).toEqual({
      entries: [
        { key: 'extra', change: 'added', kind: 'text' },
        { key: 'password', change: 'changed', kind: 'text' },
        { key: 'user', change: 'unchanged', kind: 'text' },
      ],
      counts: { added: 1, removed: 0, changed: 1, unchanged: 1 },
    });

    const consumers = await invoke('list-secret-consumers', ref());
    expect(consumers.body.output.workloads).toMatchObject([
      { kind: 'Deployment', name: 'api', usages: [{ type: 'envFrom' }] },
    ]);
    // root may not list pods here: the versions they hold are unknown, never "none", and the
    // answer carries groups without each pod's containers.
    const [api] = consumers.body.output.workloads;
    expect(api).toMatchObject({
      groups: [],
      podsFailure: { code: 'forbidden', httpStatus: 403 },
    });
    expect(api).not.toHaveProperty('pods');
    expect(consumers.body.output.summary).toMatchObject({
      unreadWorkloads: 1,
      allCurrent: false,
    });
  });

  it('restarts consumers and reads the last result, audited for the user', async () => {
    const restarted = await invoke('restart-secret-consumers', ref());
    expect(restarted.status).toBe(200);
    expect(restarted.body.output).toMatchObject({
      status: 'requested',
      requested: [{ kind: 'Deployment', name: 'api' }],
    });
    const last = await invoke('get-last-restart', ref());
    expect(last.body.output.last).toMatchObject({
      requestedBy: 'user:default/root',
      result: { status: 'requested' },
    });
    expect(
      krypton.sink.audits.filter(
        a => a.eventId === 'secret-restart' && a.status === 'succeeded',
      ),
    ).toEqual([
      expect.objectContaining({
        meta: expect.objectContaining({
          actor: 'user:default/root',
          name: 'db',
          namespace: ns.name,
        }),
      }),
    ]);
  });

  it('restores a version with the expected resourceVersion, and refuses a stale one', async () => {
    const live = await admin.secret(ns.name, 'db');
    const stale = await invoke('restore-secret-version', {
      ...ref(),
      version: 1,
      resourceVersion: '1',
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error.message).toBe(messages.staleRevision);
    const restored = await invoke('restore-secret-version', {
      ...ref(),
      version: 1,
      resourceVersion: live.metadata.resourceVersion,
    });
    expect(restored.status).toBe(200);
    expect(restored.body.output.secret).toMatchObject({
      name: 'db',
      version: 3,
      keys: ['password', 'user'],
    });
    expect(Object.keys(restored.body.output.secret)).not.toContain('data');
    const after = await admin.secret(ns.name, 'db');
    expect(after.data?.password).toBe(b64(CANARIES[0]));
  });

  it('refuses what the routes refuse, as the registry answers it', async () => {
    // No RBAC at all in the namespace.
    const carol = await invoke('get-secret-summary', ref(), 'carol');
    expect(carol.status).toBe(403);
    // A snapshot name is never a Secret, and a malformed name is a 400.
    const snapshot = await invoke(
      'get-secret-summary',
      ref(`${SNAPSHOT_NAME_PREFIX}db-1`),
    );
    expect(snapshot.status).toBe(404);
    expect(snapshot.body.error.message).toBe(messages.notFound);
    const hostile = await invoke('get-secret-summary', ref('../kube-system'));
    expect(hostile.status).toBe(400);
    const unknownInput = await invoke('diff-secret-versions', {
      ...ref(),
      from: 'yesterday',
      to: 'live',
    });
    expect(unknownInput.status).toBe(400);
    // A service acts for no user, so it has no Secrets to act on: a refusal, not an error.
    const service = await request(krypton.server)
      .post(`${ACTIONS}/krypton:get-secret-summary/invoke`)
      .set('Authorization', mockCredentials.service.header())
      .send(ref());
    outputs.push(service.text);
    expect(service.status).toBe(403);
    expect(service.body.error.message).toBe(
      "Krypton's actions act for a signed-in user.",
    );
  });

  it('leaves the routes that core services mount on its router to their own sign-in', async () => {
    // Krypton's own routes answer a missing sign-in with its envelope; /health needs none.
    expect(
      (await request(krypton.server).get('/api/krypton/health')).status,
    ).toBe(200);
    const config = await request(krypton.server).get('/api/krypton/config');
    expect(config.status).toBe(401);
    expect(config.body).toEqual({ error: messages.unauthenticated });
    // The actions registry and the permission integration are not Krypton's to open.
    for (const path of [
      ACTIONS,
      '/api/krypton/.well-known/backstage/permissions/metadata',
    ]) {
      const res = await request(krypton.server).get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 401 });
    }
    const apply = await request(krypton.server)
      .post('/api/krypton/.well-known/backstage/permissions/apply-conditions')
      .send({ items: [] });
    expect(apply.status).toBe(401);
  });

  it('hides actions that the visibility permissions deny', async () => {
    testPolicy.denied.add('krypton.actions.write');
    try {
      const res = await request(krypton.server)
        .get(ACTIONS)
        .set('Authorization', as('root'));
      const ids = res.body.actions.map((a: { id: string }) => a.id);
      expect(ids).toContain('krypton:get-secret-summary');
      expect(ids).not.toContain('krypton:restart-secret-consumers');
      const refused = await invoke('restart-secret-consumers', ref());
      expect(refused.status).toBe(404);
    } finally {
      testPolicy.denied.delete('krypton.actions.write');
    }
  });

  it('never returned a value, in any action output or error', () => {
    expect(outputs.length).toBeGreaterThan(10);
    const text = outputs.join('\n');
    for (const canary of CANARIES) {
      for (const form of forms(canary)) expect(text).not.toContain(form);
    }
    for (const canary of CANARIES) {
      expect(krypton.sink.text()).not.toContain(canary);
    }
  });
});
