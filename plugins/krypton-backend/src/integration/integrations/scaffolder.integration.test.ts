import { Entity } from '@backstage/catalog-model';
import { JsonObject } from '@backstage/types';
import {
  useTestNamespace,
  ClusterAdmin,
  eventually,
} from '@krypton/kube-testenv';
import { messages } from '@krypton/core';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { parse } from 'yaml';
import { b64 } from '../../__testUtils__/history';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
  testPolicy,
} from '../../__testUtils__/testBackend';

/** The example template, as the catalog would hold it. */
const template: Entity = parse(
  fs.readFileSync(
    path.resolve(__dirname, '../../../../../examples/krypton-secret-template.yaml'),
    'utf8',
  ),
);
template.metadata.namespace = 'default';

/** A fresh value per run: none may show up in a log, an event, an output or the task. */
const canary = () => `scaffold-canary-${randomBytes(8).toString('hex')}`;

/** What a run of the template left behind, as its initiator can read it. */
interface Run {
  status: string;
  /** The task and its events, as the scaffolder's API answers them. */
  text: string;
  /** The task's log lines. */
  log: string[];
  /** The template's output, from the completion event. */
  output: JsonObject | undefined;
}

/**
 * The example template run through the real scaffolder backend, whose `krypton:secret:create`
 * calls Krypton's HTTP API as the initiator, against the real kube-apiserver.
 */
describe('the krypton:secret:create scaffolder action', () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  let krypton: KryptonTestBackend;

  /** Runs the template as a user, the way the scaffolder frontend does, to its end. */
  const run = async (
    user: string,
    name: string,
    secrets?: Record<string, string>,
  ): Promise<Run> => {
    const api = () => request(krypton.server);
    const created = await api()
      .post('/api/scaffolder/v2/tasks')
      .set('Authorization', as(user))
      .send({
        templateRef: 'template:default/krypton-create-secret',
        // The Secret field leaves a mask in the values; the value goes in the secrets.
        values: {
          namespace: ns.name,
          name,
          description: 'Made from a template',
          password: '********',
        },
        secrets,
      });
    if (created.status !== 201) {
      throw new Error(`task: ${created.status} ${created.text}`);
    }
    const taskUrl = `/api/scaffolder/v2/tasks/${created.body.id}`;
    const task = await eventually(
      () => api().get(taskUrl).set('Authorization', as(user)),
      res => ['completed', 'failed'].includes(res.body.status),
      200,
    );
    const events = await api()
      .get(`${taskUrl}/events`)
      .set('Authorization', as(user));
    const body = events.body as Array<{ type: string; body: JsonObject }>;
    return {
      status: task.body.status,
      text: `${task.text}\n${events.text}`,
      log: body.filter(e => e.type === 'log').map(e => String(e.body.message)),
      output: body.find(e => e.type === 'completion')?.body.output as
        | JsonObject
        | undefined,
    };
  };
  const leaks = (result: Run, value: string) =>
    [result.text, krypton.sink.text()].filter(
      text => text.includes(value) || text.includes(b64(value)),
    );
  const audits = (name: string) =>
    krypton.sink.audits
      .filter(a => a.eventId === 'secret-create' && a.meta.name === name)
      .map(a => a.status);

  beforeAll(async () => {
    krypton = await startKryptonBackend(
      {},
      { scaffolder: true, catalog: { entities: [template] } },
    );
    // alice may manage Secrets in the namespace; bob has no Kubernetes rights there.
    await admin.grantSecrets(ns.name, {
      kind: 'User',
      name: 'user:default/alice',
    });
    await eventually(
      () =>
        request(krypton.server)
          .get(`/api/krypton/namespaces/${ns.name}/secrets`)
          .set('Authorization', as('alice')),
      r => r.status === 200,
    );
  });
  afterAll(async () => {
    await krypton.stop();
    admin.close();
  });
  afterEach(() => testPolicy.reset());

  it('creates the managed Secret as its initiator, and no value leaves the Secret', async () => {
    const password = canary();
    const done = await run('alice', 'db-password', { password });

    expect(done.status).toBe('completed');
    const secret = await admin.secret(ns.name, 'db-password');
    expect(Buffer.from(secret.data?.PASSWORD ?? '', 'base64').toString()).toBe(
      password,
    );
    expect(Object.keys(secret.data ?? {})).toEqual(['PASSWORD']);
    expect(secret.metadata.labels).toMatchObject({
      'krypton.io/managed-by': 'krypton',
    });
    expect(secret.metadata.annotations).toMatchObject({
      'krypton.io/version': '1',
      'krypton.io/description': 'Made from a template',
      // The template makes its user the owner when no owner is chosen.
      'krypton.io/owners': 'user:default/alice',
    });
    expect(done.output).toEqual({
      links: [
        {
          title: 'Open the Secret in Krypton',
          url: `/krypton/secret/${ns.name}/db-password?cluster=test`,
        },
      ],
    });
    expect(done.log.join('\n')).toContain(
      `Created Secret ${ns.name}/db-password on cluster test at version 1`,
    );
    // Krypton decided as alice, and audited the creation.
    expect(testPolicy.requests).toContainEqual({
      permission: 'krypton.secret.create',
      user: 'user:default/alice',
    });
    expect(audits('db-password')).toEqual(['initiated', 'succeeded']);
    expect(leaks(done, password)).toEqual([]);
  });

  it('fails for a user without Kubernetes rights in the namespace, and creates nothing', async () => {
    const password = canary();
    const done = await run('bob', 'bobs-password', { password });

    expect(done.status).toBe('failed');
    expect((await admin.getSecret(ns.name, 'bobs-password')).status).toBe(404);
    expect(done.log.join('\n')).toContain(
      `Krypton refused to create ${ns.name}/bobs-password: 403 ${messages.forbiddenKubernetes}`,
    );
    expect(testPolicy.requests).toContainEqual({
      permission: 'krypton.secret.create',
      user: 'user:default/bob',
    });
    expect(audits('bobs-password')).toEqual(['initiated', 'failed']);
    expect(leaks(done, password)).toEqual([]);
  });

  it('fails without the template secret, before it asks Krypton', async () => {
    const done = await run('alice', 'no-password');

    expect(done.status).toBe('failed');
    expect((await admin.getSecret(ns.name, 'no-password')).status).toBe(404);
    expect(done.log.join('\n')).toContain(
      'InputError: Key "PASSWORD" needs the template secret "password", which the task was not given.',
    );
    expect(audits('no-password')).toEqual([]);
  });
});
