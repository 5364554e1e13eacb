import {
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
  testPolicy,
} from '../../__testUtils__/testBackend';

const ACTIONS = '/api/krypton/.backstage/actions/v1/actions';
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** Only in the Secret's data, in kubectl's last-applied copy of it and in kubectl's change cause. */
const CANARY = 'canary-applied-4d7e19';
const leaks = (text: string) =>
  [CANARY, b64(CANARY), b64(b64(CANARY))].filter(form => text.includes(form));
/** Stands for External Secrets' hash of the data, which lets a reader test guesses of a value. */
const DATA_HASH = 'datahash-5b0c2e';
/** The annotations summaries withhold: the three copies, the hash, the change cause, the ticket. */
const WITHHELD_FROM_SUMMARIES = 6;

/**
 * A Secret's metadata facts (labels, annotations, owners, last change) reach readers who may not
 * reveal its values, so they carry only the annotations known to hold nothing derived from the
 * values: Krypton's own and a fixed list of other tools'. Everything else, kubectl's last-applied
 * copy and External Secrets' data hash included, never does: not through the summary route, the
 * list, a write's answer or an action. The answer with the values shows the rest, but never the
 * copies of the applied object.
 */
describe("a Secret's metadata facts", () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  let krypton: KryptonTestBackend;
  const secrets = () => `/api/krypton/namespaces/${ns.name}/secrets`;
  let ownerUid = '';

  beforeAll(async () => {
    // The Secret below is controlled by a ConfigMap: its edit needs the owner allowed, and a reason.
    krypton = await startKryptonBackend({
      ownedSecrets: { allowEdits: ['controller'] },
    });
    // Alice owns the Secret and may write it through Kubernetes, but the policy denies her its values.
    await admin.grantSecrets(ns.name, {
      kind: 'User',
      name: 'user:default/alice',
    });
    testPolicy.denied.add('user:default/alice:krypton.secret.reveal');
    // Root, an admin, may reveal the values.
    await admin.grantSecrets(ns.name, {
      kind: 'User',
      name: 'user:default/root',
    });
    const owner = await admin.request({
      method: 'POST',
      path: `/api/v1/namespaces/${ns.name}/configmaps`,
      body: { metadata: { name: 'owner' }, data: {} },
    });
    if (owner.status !== 201) throw new Error(`owner: ${owner.status}`);
    ownerUid = (owner.body as { metadata: { uid: string } }).metadata.uid;
    const applied = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'applied', namespace: ns.name },
      data: { password: b64(CANARY) },
      stringData: { token: CANARY },
    };
    await admin.createSecret(ns.name, {
      metadata: {
        name: 'applied',
        labels: { 'krypton.io/managed-by': 'krypton', app: 'payments' },
        annotations: {
          'krypton.io/version': '2',
          'krypton.io/owners': 'user:default/alice',
          'krypton.io/description': 'The payments database',
          'example.com/ticket': 'OPS-42',
          'meta.helm.sh/release-name': 'payments',
          'reconcile.external-secrets.io/data-hash': DATA_HASH,
          // kubectl --record keeps the command line, and with it a literal value.
          'kubernetes.io/change-cause': `kubectl create secret generic applied --from-literal=password=${CANARY} --record=true`,
          [LAST_APPLIED]: JSON.stringify(applied),
          // kapp's own copy of the applied object, and of its data.
          'kapp.k14s.io/original': JSON.stringify(applied),
          'kapp.k14s.io/original-diff': `value:\n  password: ${b64(CANARY)}`,
        },
        ownerReferences: [
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            name: 'owner',
            uid: ownerUid,
            controller: true,
          },
        ],
      },
      data: { password: b64(CANARY) },
    });
    await eventually(
      () =>
        request(krypton.server)
          .get(`${secrets()}/applied/summary`)
          .set('Authorization', as('alice')),
      r => r.status === 200,
    );
    await eventually(
      () =>
        request(krypton.server)
          .get(`${secrets()}/applied`)
          .set('Authorization', as('root')),
      r => r.status === 200,
    );
  });
  afterAll(async () => {
    testPolicy.reset();
    await krypton.stop();
    admin.close();
  });

  it('shows labels, annotations, owner references and the last change on the summary', async () => {
    const stored = await admin.secret(ns.name, 'applied');
    const times = (stored.metadata.managedFields ?? []).map(
      f => (f as { time: string }).time,
    );
    expect(times.length).toBeGreaterThan(0);
    const res = await request(krypton.server)
      .get(`${secrets()}/applied/summary`)
      .set('Authorization', as('alice'));
    expect(res.status).toBe(200);
    expect(res.body.labels).toEqual({
      'krypton.io/managed-by': 'krypton',
      app: 'payments',
    });
    expect(res.body.annotations).toEqual({
      'krypton.io/version': '2',
      'krypton.io/owners': 'user:default/alice',
      'krypton.io/description': 'The payments database',
      'meta.helm.sh/release-name': 'payments',
    });
    expect(res.body.withheldAnnotations).toBe(WITHHELD_FROM_SUMMARIES);
    expect(res.body.ownerReferences).toEqual([
      { kind: 'ConfigMap', name: 'owner', uid: ownerUid, controller: true },
    ]);
    expect(res.body.lastChange.time).toBe([...times].sort().pop());
    expect(typeof res.body.lastChange.manager).toBe('string');
    expect(res.body.creationTimestamp).toBe(stored.metadata.creationTimestamp);
  });

  it('moves the last change forward when another writer changes the Secret', async () => {
    const before = await request(krypton.server)
      .get(`${secrets()}/applied/summary`)
      .set('Authorization', as('alice'));
    // managedFields times have a resolution of one second.
    await new Promise(resolve => setTimeout(resolve, 1100));
    await admin.patchSecret(ns.name, 'applied', {
      metadata: { labels: { tier: 'db' } },
    });
    const after = await request(krypton.server)
      .get(`${secrets()}/applied/summary`)
      .set('Authorization', as('alice'));
    expect(after.body.labels.tier).toBe('db');
    expect(Date.parse(after.body.lastChange.time)).toBeGreaterThan(
      Date.parse(before.body.lastChange.time),
    );
  });

  it('never carries an annotation that may hold values through the summary, the list, a write answer or an action', async () => {
    const outputs: string[] = [];
    const summary = await request(krypton.server)
      .get(`${secrets()}/applied/summary`)
      .set('Authorization', as('alice'));
    expect(summary.status).toBe(200);
    outputs.push(summary.text);

    const list = await request(krypton.server)
      .get(secrets())
      .set('Authorization', as('alice'));
    expect(list.status).toBe(200);
    expect(list.body.items.map((s: { name: string }) => s.name)).toEqual([
      'applied',
    ]);
    expect(list.body.items[0].annotations['meta.helm.sh/release-name']).toBe(
      'payments',
    );
    expect(list.body.items[0].withheldAnnotations).toBe(
      WITHHELD_FROM_SUMMARIES,
    );
    outputs.push(list.text);

    // A metadata-only edit keeps kubectl's copy on the Secret; the answer is redacted for alice.
    const live = await admin.secret(ns.name, 'applied');
    const edit = await request(krypton.server)
      .put(`${secrets()}/applied`)
      .set('Authorization', as('alice'))
      .send({
        resourceVersion: live.metadata.resourceVersion,
        description: 'Still the payments database',
        ownedEditReason: 'describe it',
      });
    expect(edit.status).toBe(200);
    expect(edit.body.valuesOmitted).toBe(true);
    expect(edit.body.annotations['krypton.io/description']).toBe(
      'Still the payments database',
    );
    expect(edit.body.withheldAnnotations).toBe(WITHHELD_FROM_SUMMARIES);
    // Krypton's transport names itself, so its writes show as Krypton's in managedFields.
    expect(edit.body.lastChange.manager).toBe('krypton');
    outputs.push(edit.text);
    const edited = await admin.secret(ns.name, 'applied');
    expect(leaks(edited.metadata.annotations?.[LAST_APPLIED] ?? '')).toEqual([
      CANARY,
      b64(CANARY),
    ]);

    for (const [action, input] of [
      ['get-secret-summary', { namespace: ns.name, name: 'applied' }],
      ['list-secrets', { namespace: ns.name }],
    ] as const) {
      const res = await request(krypton.server)
        .post(`${ACTIONS}/krypton:${action}/invoke`)
        .set('Authorization', as('alice'))
        .send(input);
      expect(res.status).toBe(200);
      outputs.push(res.text);
    }

    // The actions carry the facts too, through the same withholding rule.
    const viaAction = JSON.parse(outputs[outputs.length - 2]).output.secret;
    expect(viaAction.annotations['meta.helm.sh/release-name']).toBe('payments');
    expect(viaAction.withheldAnnotations).toBe(WITHHELD_FROM_SUMMARIES);
    expect(viaAction.ownerReferences).toEqual([
      { kind: 'ConfigMap', name: 'owner', uid: ownerUid, controller: true },
    ]);
    expect(viaAction.lastChange.manager).toBe('krypton');

    for (const text of outputs) {
      expect(text).not.toContain(LAST_APPLIED);
      expect(text).not.toContain('kapp.k14s.io/original');
      expect(text).not.toContain(DATA_HASH);
      expect(text).not.toContain('example.com/ticket');
      expect(leaks(text)).toEqual([]);
    }
    expect(leaks(krypton.sink.text())).toEqual([]);
  });

  it('shows every other annotation with the values, but never the copies of the applied object', async () => {
    const res = await request(krypton.server)
      .get(`${secrets()}/applied`)
      .set('Authorization', as('root'));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ password: CANARY });
    expect(res.body.annotations).toEqual({
      'krypton.io/version': '2',
      'krypton.io/owners': 'user:default/alice',
      'krypton.io/description': expect.any(String),
      'example.com/ticket': 'OPS-42',
      'meta.helm.sh/release-name': 'payments',
      'reconcile.external-secrets.io/data-hash': DATA_HASH,
      'kubernetes.io/change-cause': expect.stringContaining('--from-literal'),
    });
    expect(res.body.withheldAnnotations).toBe(3);
    expect(res.text).not.toContain(LAST_APPLIED);
    expect(res.text).not.toContain('kapp.k14s.io/original');
  });
});
