import { Entity } from '@backstage/catalog-model';
import {
  useTestNamespace,
  ClusterAdmin,
  container,
  createWorkload,
} from '@krypton/kube-testenv';
import request from 'supertest';
import { b64 } from '../../__testUtils__/history';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from '../../__testUtils__/testBackend';

/** Values and a key name written through the API; no notification may contain them. */
const CANARIES = [
  'notify-canary-5e1f',
  'notify-canary-a07c',
  'notify-canary-3d92',
];
const KEY = 'notify-key-canary';
const forbidden = [KEY, ...CANARIES.flatMap(value => [value, b64(value)])];

/** The rules of the Secrets that the first tests change: they admit every legitimate owner. */
const RULES = {
  owners: ['user:default/root'],
  editors: ['group:default/team-a'],
  viewers: ['user:default/bob', 'user:default/carol'],
};

/** A notification as the notifications backend lists it to its recipient. */
interface Received {
  id: string;
  user: string;
  origin: string;
  updated: string | null;
  payload: {
    title: string;
    description: string;
    link: string;
    severity: string;
    topic: string;
    scope: string;
    icon: string | null;
  };
}

/** Polls until the check passes: delivery runs after the answer, on purpose. */
async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(
        `Timed out waiting for ${what}: ${JSON.stringify(value)}`,
      );
    }
    await new Promise(resolve => setTimeout(resolve, 50));
  }
}

/**
 * The catalog: Secret db is linked by name with its cluster (owner team-a, where alice is), by a
 * label selector (owner bob) and by name without a cluster (owner root, who acts); Secret other by
 * carol's entity, which also owns near misses of db: the same selector in another namespace and
 * the same name on another cluster. The Secrets name all of these owners in their rules.
 *
 * Then the entities that anyone could publish, owned by guest, whom no Secret admits: one names
 * Secret guarded, one selects every Krypton-managed Secret of the namespace. Secret guarded (with
 * rules) is also linked by bob, a viewer in its rules, and by dana, an admin; Secret bare (no
 * rules) by bob and by dana.
 */
function catalog(namespace: string): Entity[] {
  const component = (
    name: string,
    owner: string,
    annotations: Record<string, string>,
  ): Entity => ({
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: { name, annotations },
    spec: { type: 'service', lifecycle: 'production', owner },
  });
  return [
    // First, so that without the fix guest would come first among each Secret's owners.
    component('exfil', 'user:default/guest', {
      'krypton.io/secrets': `${namespace}/guarded`,
    }),
    component('exfil-all', 'user:default/guest', {
      'krypton.io/secrets-selector': 'krypton.io/managed-by=krypton',
      'krypton.io/secrets-namespace': namespace,
    }),
    {
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'Group',
      metadata: { name: 'team-a' },
      spec: { type: 'team', children: [] },
      relations: [{ type: 'hasMember', targetRef: 'user:default/alice' }],
    },
    component('payments-api', 'team-a', {
      'krypton.io/secrets': `test/${namespace}/db`,
    }),
    component('payments-worker', 'user:default/bob', {
      'krypton.io/secrets-selector': 'app=payments',
      'krypton.io/secrets-namespace': namespace,
    }),
    component('ops-console', 'user:default/root', {
      'krypton.io/secrets': `${namespace}/db`,
    }),
    component('billing', 'user:default/carol', {
      'krypton.io/secrets': `${namespace}/other`,
    }),
    component('payments-elsewhere', 'user:default/carol', {
      'krypton.io/secrets-selector': 'app=payments',
      'krypton.io/secrets-namespace': 'elsewhere',
    }),
    component('payments-staging', 'user:default/carol', {
      'krypton.io/secrets': `staging/${namespace}/db`,
    }),
    component('unlinked', 'user:default/carol', {}),
    component('guarded-api', 'user:default/bob', {
      'krypton.io/secrets': `${namespace}/guarded`,
    }),
    component('guarded-ops', 'user:default/dana', {
      'krypton.io/secrets': `${namespace}/guarded`,
    }),
    component('bare-api', 'user:default/bob', {
      'krypton.io/secrets': `${namespace}/bare`,
    }),
    component('bare-ops', 'user:default/dana', {
      'krypton.io/secrets': `${namespace}/bare`,
    }),
  ];
}

/**
 * Notifications of Secret changes, through the real notifications backend's HTTP API as each
 * recipient reads them, against the real kube-apiserver.
 */
describe('notifications to the owners of linking entities', () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  const secrets = `/api/krypton/namespaces/${ns.name}/secrets`;
  const entities = catalog(ns.name);
  const restart = { enabled: true };
  let krypton: KryptonTestBackend;
  let quiet: KryptonTestBackend;
  let failing: KryptonTestBackend;
  /** Every notifications answer the test read, to search for values. */
  const read: string[] = [];

  const inbox = async (backend: KryptonTestBackend, user: string) => {
    const res = await request(backend.server)
      .get('/api/notifications')
      .set('Authorization', as(user));
    if (res.status !== 200) throw new Error(`inbox ${user}: ${res.status}`);
    read.push(res.text);
    return res.body.notifications as Received[];
  };
  /** The inbox of a user of the main backend, once it satisfies the check. */
  const inboxWhen = (
    user: string,
    done: (items: Received[]) => boolean,
    what: string,
  ) => eventually(() => inbox(krypton, user), done, `${user}'s ${what}`);
  const scoped = (items: Received[], name: string, event: string) =>
    items.filter(
      n => n.payload.scope === `krypton:test/${ns.name}/${name}:${event}`,
    );

  const createLabelled = async (
    backend: KryptonTestBackend,
    name: string,
    app: string,
  ) => {
    const created = await request(backend.server)
      .post(secrets)
      .set('Authorization', as('root'))
      // Only owners whom the Secret admits hear of it: these rules name every linking owner.
      .send({ name, data: { [KEY]: CANARIES[0] }, access: RULES });
    if (created.status !== 201) throw new Error(`create: ${created.status}`);
    // Labels as a team's kubectl would set them; Krypton's API does not write labels.
    const labelled = await admin.patchSecret(ns.name, name, {
      metadata: { labels: { app } },
    });
    await createWorkload(admin, ns.name, 'Deployment', `${name}-app`, {
      containers: [container({ envFrom: [{ secretRef: { name } }] })],
    });
    return labelled.metadata.resourceVersion ?? '';
  };
  const update = (
    backend: KryptonTestBackend,
    name: string,
    rv: string,
    value: string,
  ) =>
    request(backend.server)
      .put(`${secrets}/${name}`)
      .set('Authorization', as('root'))
      .send({ resourceVersion: rv, data: { [KEY]: value } });
  const restore = (backend: KryptonTestBackend, name: string, rv: string) =>
    request(backend.server)
      .post(`${secrets}/${name}/restore`)
      .set('Authorization', as('root'))
      .send({ version: 1, resourceVersion: rv });
  const restartConsumers = (backend: KryptonTestBackend, name: string) =>
    request(backend.server)
      .post(`${secrets}/${name}/restart-consumers`)
      .set('Authorization', as('root'));
  const remove = (backend: KryptonTestBackend, name: string, rv: string) =>
    request(backend.server)
      .delete(`${secrets}/${name}`)
      .query({ resourceVersion: rv })
      .set('Authorization', as('root'));

  beforeAll(async () => {
    const enabled = {
      notifications: { enabled: true },
      restart,
      // dana is an admin in person, so that an admin can own an entity.
      admins: ['group:default/krypton-admins', 'user:default/dana'],
    };
    [krypton, quiet, failing] = await Promise.all([
      startKryptonBackend(enabled, {
        notifications: true,
        catalog: { entities },
      }),
      // The notifications backend is there, Krypton's notifications are not.
      startKryptonBackend(
        { restart },
        {
          notifications: true,
          catalog: { entities },
        },
      ),
      // Krypton sends, but no notifications backend answers.
      startKryptonBackend(enabled, { catalog: { entities } }),
    ]);
    const root = { kind: 'User' as const, name: 'user:default/root' };
    await admin.grantSecrets(ns.name, root);
    await admin.grant(ns.name, 'workloads-root', root, [
      {
        apiGroups: ['apps'],
        // Every kind restart-consumers lists, so that a restart is complete (requested).
        resources: ['deployments', 'statefulsets', 'daemonsets'],
        verbs: ['get', 'list', 'patch'],
      },
    ]);
  });
  afterAll(async () => {
    await Promise.all([krypton?.stop(), quiet?.stop(), failing?.stop()]);
    admin.close();
  });

  let dbVersion = '';

  it('tells the owners of every linking entity about an update, but not the actor or anyone else', async () => {
    const rv = await createLabelled(krypton, 'db', 'payments');
    await createLabelled(krypton, 'other', 'billing');
    const updated = await update(krypton, 'db', rv, CANARIES[1]);
    expect(updated.status).toBe(200);
    dbVersion = updated.body.resourceVersion;

    const expected = {
      title: `Secret ${ns.name}/db updated`,
      description: `user:default/root updated Secret ${ns.name}/db on cluster test. It is now version 2 (resourceVersion ${dbVersion}).`,
      link: `/krypton/secret/${ns.name}/db?cluster=test`,
      severity: 'normal',
      topic: 'krypton',
      scope: `krypton:test/${ns.name}/db:update`,
      icon: null,
    };
    for (const user of ['alice', 'bob']) {
      const items = await inboxWhen(
        user,
        got => got.length > 0,
        'notification',
      );
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({
        user: `user:default/${user}`,
        origin: 'plugin:krypton',
      });
      expect(items[0].payload).toEqual(expected);
    }
    // root owns ops-console, which links db, and made the change; carol owns only near misses.
    expect(await inbox(krypton, 'root')).toEqual([]);
    expect(await inbox(krypton, 'carol')).toEqual([]);
  });

  it('replaces the earlier notification of the same Secret and event instead of adding one', async () => {
    const [first] = await inbox(krypton, 'alice');
    const again = await update(krypton, 'db', dbVersion, CANARIES[2]);
    expect(again.status).toBe(200);
    dbVersion = again.body.resourceVersion;
    for (const user of ['alice', 'bob']) {
      const items = await inboxWhen(
        user,
        got => got.some(n => n.payload.description.includes('version 3 ')),
        'updated notification',
      );
      expect(items).toHaveLength(1);
      expect(items[0].payload.description).toBe(
        `user:default/root updated Secret ${ns.name}/db on cluster test. It is now version 3 (resourceVersion ${dbVersion}).`,
      );
      expect(items[0].updated).not.toBeNull();
    }
    const [latest] = await inbox(krypton, 'alice');
    expect(latest.id).toBe(first.id);
  });

  it('tells them about a restore, a restart and a delete, each with its outcome', async () => {
    const restored = await restore(krypton, 'db', dbVersion);
    expect(restored.status).toBe(200);
    const restarted = await restartConsumers(krypton, 'db');
    expect(restarted.status).toBe(200);
    expect(restarted.body.status).toBe('requested');
    const deleted = await remove(krypton, 'db', restored.body.resourceVersion);
    expect(deleted.status).toBe(200);

    const db = `${ns.name}/db`;
    for (const user of ['alice', 'bob']) {
      const items = await inboxWhen(
        user,
        got => got.length === 4,
        'four notifications',
      );
      expect(scoped(items, 'db', 'restore').map(n => n.payload)).toEqual([
        {
          title: `Secret ${db} restored to version 1`,
          description: `user:default/root restored version 1 of Secret ${db} on cluster test. It is now version 4 (resourceVersion ${restored.body.resourceVersion}).`,
          link: `/krypton/secret/${db}/history?cluster=test`,
          severity: 'normal',
          topic: 'krypton',
          scope: `krypton:test/${db}:restore`,
          icon: null,
        },
      ]);
      expect(scoped(items, 'db', 'restart').map(n => n.payload)).toEqual([
        {
          title: `Consumers of Secret ${db} restarted`,
          description: `user:default/root restarted the workloads that consume Secret ${db} on cluster test: status requested, 1 requested, 0 failed.`,
          link: `/krypton/secret/${db}/consumers?cluster=test`,
          severity: 'normal',
          topic: 'krypton',
          scope: `krypton:test/${db}:restart`,
          icon: null,
        },
      ]);
      expect(scoped(items, 'db', 'delete').map(n => n.payload)).toEqual([
        {
          title: `Secret ${db} deleted`,
          description: `user:default/root deleted Secret ${db} on cluster test. Its history was cleaned.`,
          link: `/krypton?cluster=test&namespace=${ns.name}`,
          severity: 'high',
          topic: 'krypton',
          scope: `krypton:test/${db}:delete`,
          icon: null,
        },
      ]);
      expect(scoped(items, 'db', 'update')).toHaveLength(1);
    }
    expect(await inbox(krypton, 'root')).toEqual([]);
    expect(await inbox(krypton, 'carol')).toEqual([]);
  });

  it("tells another Secret's owner about that Secret only, after an action too", async () => {
    const other = await admin.secret(ns.name, 'other');
    const updated = await update(
      krypton,
      'other',
      other.metadata.resourceVersion ?? '',
      CANARIES[1],
    );
    expect(updated.status).toBe(200);
    // The actions run through the same services as the routes, so they notify alike.
    const restored = await request(krypton.server)
      .post(
        '/api/krypton/.backstage/actions/v1/actions/krypton:restore-secret-version/invoke',
      )
      .set('Authorization', as('root'))
      .send({
        namespace: ns.name,
        name: 'other',
        version: 1,
        resourceVersion: updated.body.resourceVersion,
      });
    expect(restored.status).toBe(200);
    const items = await eventually(
      () => inbox(krypton, 'carol'),
      got => got.length === 2,
      "carol's notifications",
    );
    expect(items.map(n => n.payload.title).sort()).toEqual([
      `Secret ${ns.name}/other restored to version 1`,
      `Secret ${ns.name}/other updated`,
    ]);
    expect(await inbox(krypton, 'alice')).toHaveLength(4);
    expect(await inbox(krypton, 'bob')).toHaveLength(4);
  });

  describe('who hears what: only owners whom the Secret admits', () => {
    const create = async (name: string, access?: typeof RULES) => {
      const res = await request(krypton.server)
        .post(secrets)
        .set('Authorization', as('root'))
        .send({
          name,
          data: { [KEY]: CANARIES[0] },
          ...(access ? { access } : {}),
        });
      if (res.status !== 201) throw new Error(`create ${name}: ${res.status}`);
      return res.body.resourceVersion as string;
    };

    it('tells no one whom a hostile entity names, but still the owners in the rules and the admins', async () => {
      const rv = await create('guarded', {
        owners: ['user:default/root'],
        editors: [],
        viewers: ['user:default/bob'],
      });
      const updated = await update(krypton, 'guarded', rv, CANARIES[1]);
      expect(updated.status).toBe(200);
      // guest may not read the Secret that guest's entity names.
      const summary = await request(krypton.server)
        .get(`${secrets}/guarded/summary`)
        .set('Authorization', as('guest'));
      expect(summary.status).toBe(403);

      // One delivery sends to every admitted owner at once: once dana and bob have it, it is done.
      for (const user of ['dana', 'bob']) {
        await inboxWhen(
          user,
          got => scoped(got, 'guarded', 'update').length === 1,
          'guarded update',
        );
      }
      expect(await inbox(krypton, 'guest')).toEqual([]);
    });

    it('tells only the admin owners about a Secret without rules', async () => {
      const rv = await create('bare');
      const updated = await update(krypton, 'bare', rv, CANARIES[1]);
      expect(updated.status).toBe(200);

      const dana = await inboxWhen(
        'dana',
        got => scoped(got, 'bare', 'update').length === 1,
        'bare update',
      );
      expect(scoped(dana, 'bare', 'update')[0].payload.title).toBe(
        `Secret ${ns.name}/bare updated`,
      );
      // bob names bare in his entity, but neither its (absent) rules nor the admins name him.
      expect(scoped(await inbox(krypton, 'bob'), 'bare', 'update')).toEqual([]);
      expect(await inbox(krypton, 'guest')).toEqual([]);
    });
  });

  it('never carries a value, nor a key name, in any form', () => {
    expect(read.length).toBeGreaterThan(10);
    const text = [...read, krypton.sink.text()].join('\n');
    for (const needle of forbidden) expect(text).not.toContain(needle);
  });

  /** update, restore, restart and delete of a new Secret; answers without per-object ids. */
  const operate = async (backend: KryptonTestBackend, name: string) => {
    const rv = await createLabelled(backend, name, 'payments');
    const updated = await update(backend, name, rv, CANARIES[1]);
    const restored = await restore(backend, name, updated.body.resourceVersion);
    const restarted = await restartConsumers(backend, name);
    const deleted = await remove(backend, name, restored.body.resourceVersion);
    return [updated, restored, restarted, deleted].map(res => {
      const body = JSON.parse(res.text.replaceAll(name, 'NAME'));
      for (const id of [
        'uid',
        'resourceVersion',
        'creationTimestamp',
        'lastChange',
      ]) {
        delete body[id];
      }
      return { status: res.status, body };
    });
  };

  let calm: Awaited<ReturnType<typeof operate>>;

  it('sends nothing and asks the catalog nothing while notifications are disabled', async () => {
    calm = await operate(quiet, 'calm');
    expect(calm.map(a => a.status)).toEqual([200, 200, 200, 200]);
    // Delivery in the enabled backend takes milliseconds; a second covers it many times over.
    await new Promise(resolve => setTimeout(resolve, 1000));
    expect(quiet.catalogCalls).toEqual([]);
    // bob owns payments-worker, whose selector picks calm.
    expect(await inbox(quiet, 'bob')).toEqual([]);
    expect(quiet.sink.lines.filter(l => l.startsWith('warn'))).toEqual([]);
  });

  it('answers exactly as without notifications when the notifications backend fails', async () => {
    const flaky = await operate(failing, 'flaky');
    expect(flaky).toEqual(calm);
    expect(flaky[2].body).toMatchObject({ status: 'requested', matched: 1 });
    expect(flaky[3].body).toEqual({ status: 'deleted', history: 'cleaned' });
    const warnings = await eventually(
      async () =>
        failing.sink.lines.filter(l => l.includes('Could not notify')),
      lines => lines.length === 4,
      'four failed deliveries',
    );
    // Each failure is logged by its error's name, never its message.
    expect(warnings.map(l => l.slice(0, l.indexOf(' {'))).sort()).toEqual(
      ['delete', 'restart', 'restore', 'update'].map(
        event =>
          `warn Could not notify the owners of ${ns.name}/flaky about its ${event}: Error`,
      ),
    );
    expect(failing.catalogCalls).toContain('krypton:streamEntities');
    const text = failing.sink.text();
    for (const needle of forbidden) expect(text).not.toContain(needle);
  });
});
