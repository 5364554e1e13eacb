import {
  useTestNamespace,
  ClusterAdmin,
  eventually,
} from '@krypton/kube-testenv';
import {
  AuthorizeResult,
  PolicyDecision,
  isResourcePermission,
} from '@backstage/plugin-permission-common';
import {
  PermissionPolicy,
  PolicyQuery,
  PolicyQueryUser,
} from '@backstage/plugin-permission-node';
import {
  KRYPTON_SECRET_RESOURCE_TYPE,
  kryptonSecretCreatePermission,
  kryptonSecretReadPermission,
  newSecretResourceRef,
  secretResourceRef,
} from '@krypton/plugin-krypton-common';
import { messages } from '@krypton/core';
import request from 'supertest';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from '../../__testUtils__/testBackend';
import {
  createKryptonSecretConditionalDecision,
  kryptonSecretConditions as is,
} from '../../index';

/**
 * For alice, a policy scoped by Krypton's conditions: she reads Secrets labelled team=a, reveals
 * those whose own rules make her at least an editor, creates only in her own namespace, and never
 * updates. Everyone else is allowed everything.
 */
class ScopedPolicy implements PermissionPolicy {
  constructor(private readonly home: string) {}

  async handle(
    query: PolicyQuery,
    user?: PolicyQueryUser,
  ): Promise<PolicyDecision> {
    const permission = query.permission;
    if (
      user?.info.userEntityRef !== 'user:default/alice' ||
      !isResourcePermission(permission, KRYPTON_SECRET_RESOURCE_TYPE)
    )
      return { result: AuthorizeResult.ALLOW };
    switch (permission.name) {
      case 'krypton.secret.read':
        return createKryptonSecretConditionalDecision(
          permission,
          is.hasLabel({ label: 'team', value: 'a' }),
        );
      case 'krypton.secret.reveal':
        return createKryptonSecretConditionalDecision(
          permission,
          is.hasAccessRole({
            role: 'editor',
            claims: user.info.ownershipEntityRefs,
          }),
        );
      case 'krypton.secret.create':
        return createKryptonSecretConditionalDecision(
          permission,
          is.isNamespace({ namespace: this.home }),
        );
      case 'krypton.secret.update':
        return { result: AuthorizeResult.DENY };
      default:
        return { result: AuthorizeResult.ALLOW };
    }
  }
}

describe('a permission policy with Krypton conditions (real permission backend)', () => {
  const ns = useTestNamespace();
  const elsewhere = useTestNamespace();
  /** A namespace where alice has no RBAC at all. */
  const hidden = useTestNamespace();
  const admin = new ClusterAdmin();
  let krypton: KryptonTestBackend;
  const secrets = (namespace = ns.name) =>
    `/api/krypton/namespaces/${namespace}/secrets`;

  beforeAll(async () => {
    krypton = await startKryptonBackend(
      {},
      { policy: new ScopedPolicy(ns.name) },
    );
    for (const user of ['alice', 'root']) {
      await admin.grantSecrets(ns.name, {
        kind: 'User',
        name: `user:default/${user}`,
      });
    }
    await admin.grantSecrets(elsewhere.name, {
      kind: 'User',
      name: 'user:default/alice',
    });
    const create = (name: string, access?: Record<string, string[]>) =>
      eventually(
        () =>
          request(krypton.server)
            .post(secrets())
            .set('Authorization', as('root'))
            .send({ name, data: { token: `value-of-${name}` }, access }),
        r => r.status === 201,
      );
    await create('labelled-editor', { editors: ['user:default/alice'] });
    await create('labelled-other');
    await create('unlabelled');
    await admin.createSecret(hidden.name, {
      metadata: {
        name: 'team-a-hidden',
        labels: { team: 'a', 'krypton.io/managed-by': 'krypton' },
      },
      data: {},
    });
    for (const name of ['labelled-editor', 'labelled-other']) {
      await admin.patchSecret(ns.name, name, {
        metadata: { labels: { team: 'a' } },
      });
    }
  });
  afterAll(async () => {
    await krypton.stop();
  });

  it('filters the list by the conditions, for alice only', async () => {
    const mine = await request(krypton.server)
      .get(secrets())
      .set('Authorization', as('alice'));
    expect(mine.status).toBe(200);
    expect(mine.body.items.map((s: { name: string }) => s.name)).toEqual([
      'labelled-editor',
      'labelled-other',
    ]);
    const root = await request(krypton.server)
      .get(secrets())
      .set('Authorization', as('root'));
    expect(root.body.items.map((s: { name: string }) => s.name)).toEqual([
      'labelled-editor',
      'labelled-other',
      'unlabelled',
    ]);
  });

  it('judges each named route against the live Secret', async () => {
    const get = (name: string, suffix = '') =>
      request(krypton.server)
        .get(`${secrets()}/${name}${suffix}`)
        .set('Authorization', as('alice'));
    expect((await get('unlabelled', '/summary')).status).toBe(403);
    expect((await get('unlabelled', '/summary')).body).toEqual({
      error: messages.forbiddenPermission,
    });
    expect((await get('labelled-other', '/summary')).status).toBe(200);
    expect((await get('labelled-other', '/versions')).status).toBe(200);
    // Reveal: only where the Secret's own rules make alice an editor.
    const values = await get('labelled-editor');
    expect(values.status).toBe(200);
    expect(values.body.data).toEqual({ token: 'value-of-labelled-editor' });
    expect((await get('labelled-other')).status).toBe(403);

    // The label is the live object's: removing it withdraws the read at once.
    await admin.patchSecret(ns.name, 'labelled-other', {
      metadata: { labels: { team: null } },
    });
    expect((await get('labelled-other', '/summary')).status).toBe(403);
    await admin.patchSecret(ns.name, 'labelled-other', {
      metadata: { labels: { team: 'a' } },
    });
  });

  it('refuses a denied update and changes nothing', async () => {
    const before = await admin.secret(ns.name, 'labelled-editor');
    const res = await request(krypton.server)
      .put(`${secrets()}/labelled-editor`)
      .set('Authorization', as('alice'))
      .send({
        resourceVersion: before.metadata.resourceVersion,
        data: { token: 'changed' },
      });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: messages.forbiddenPermission });
    const after = await admin.secret(ns.name, 'labelled-editor');
    expect(after.metadata.resourceVersion).toBe(
      before.metadata.resourceVersion,
    );
  });

  it('scopes create by namespace, though RBAC would allow both', async () => {
    const home = await request(krypton.server)
      .post(secrets())
      .set('Authorization', as('alice'))
      .send({ name: 'created-at-home', data: { a: 'b' } });
    expect(home.status).toBe(201);
    const away = await request(krypton.server)
      .post(secrets(elsewhere.name))
      .set('Authorization', as('alice'))
      .send({ name: 'created-elsewhere', data: { a: 'b' } });
    expect(away.status).toBe(403);
    expect(away.body).toEqual({ error: messages.forbiddenPermission });
    expect(await admin.listSecrets(elsewhere.name)).toEqual([]);
  });

  it('answers the policy per action in the summary, judged on the live Secret read as the caller', async () => {
    const policyOf = async (name: string) => {
      const res = await request(krypton.server)
        .get(`${secrets()}/${name}/summary`)
        .set('Authorization', as('alice'));
      expect(res.status).toBe(200);
      return res.body.policy;
    };
    expect(await policyOf('labelled-editor')).toEqual({
      read: true,
      reveal: true,
      update: false,
      restore: true,
      restart: true,
      delete: true,
      manageAccess: false,
    });
    // Reveal is conditional on the Secret's own rules, which do not name alice here.
    expect(await policyOf('labelled-other')).toMatchObject({
      read: true,
      reveal: false,
      update: false,
    });
  });

  it('never reads a named Secret for the permission backend, whose callers choose the refs', async () => {
    const ask = async (
      permission:
        | typeof kryptonSecretReadPermission
        | typeof kryptonSecretCreatePermission,
      resourceRefs: string[],
    ) => {
      const res = await request(krypton.server)
        .post('/api/permission/authorize')
        .set('Authorization', as('alice'))
        .send({
          items: resourceRefs.map((resourceRef, i) => ({
            id: String(i),
            permission,
            resourceRef,
          })),
        });
      expect(res.status).toBe(200);
      return res.body.items.map((item: { result: string }) => item.result);
    };
    // A Secret whose labels meet alice's condition, in a namespace where she has no RBAC: read
    // with Krypton's identity, it would have answered ALLOW and told her that it exists.
    expect(
      await ask(kryptonSecretReadPermission, [
        secretResourceRef('test', hidden.name, 'team-a-hidden'),
      ]),
    ).toEqual([AuthorizeResult.DENY]);
    // A named Secret is unknown to the permission backend even where alice may read it: the
    // portal takes its answers from the summary route instead.
    expect(
      await ask(kryptonSecretReadPermission, [
        secretResourceRef('test', ns.name, 'labelled-other'),
        secretResourceRef('test', ns.name, 'unlabelled'),
        secretResourceRef('test', ns.name, 'missing'),
      ]),
    ).toEqual([
      AuthorizeResult.DENY,
      AuthorizeResult.DENY,
      AuthorizeResult.DENY,
    ]);
    // Hundreds of refs in one request cost no read of the cluster.
    const many = Array.from({ length: 300 }, (_, i) =>
      secretResourceRef('test', hidden.name, `guess-${i}`),
    );
    const answers = await ask(kryptonSecretReadPermission, many);
    expect(answers).toHaveLength(300);
    expect(new Set(answers)).toEqual(new Set([AuthorizeResult.DENY]));
    // A Secret not yet created is judged by where it would be, which needs no read.
    expect(
      await ask(kryptonSecretCreatePermission, [
        newSecretResourceRef('test', ns.name),
        newSecretResourceRef('test', elsewhere.name),
      ]),
    ).toEqual([AuthorizeResult.ALLOW, AuthorizeResult.DENY]);
  });
});
