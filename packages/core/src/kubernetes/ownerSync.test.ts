import { KryptonError } from '../errors';
import { InMemoryKubeGateway } from '../testing/InMemoryKubeGateway';
import { LiveGate, LiveSecrets } from './liveSecrets';
import { OWNER_SYNC_MESSAGES, OwnerSync } from './ownerSync';
import { controllingExternalSecret } from './secretOwner';
import { KubeObject, OwnerReference, ResourceType, SECRETS } from './types';

const NS = 'team';
const EXTERNAL_SECRETS: ResourceType<KubeObject> = {
  apiPath: '/apis/external-secrets.io/v1',
  plural: 'externalsecrets',
  kind: 'ExternalSecret',
};
const allow: LiveGate = {
  permit: async () => () => undefined,
  admit: () => undefined,
};

const controller = (over: Partial<OwnerReference> = {}): OwnerReference => ({
  apiVersion: 'external-secrets.io/v1',
  kind: 'ExternalSecret',
  name: 'db-source',
  uid: 'uid-es',
  controller: true,
  ...over,
});

function setup(asUser = true) {
  const gateway = new InMemoryKubeGateway();
  const live = new LiveSecrets({
    gateway,
    cluster: 'c',
    annotationPrefix: 'krypton.io',
    managedOnly: false,
    historyLimit: { ok: true, value: 20 },
  });
  const sync = new OwnerSync({
    live,
    gateway,
    asUser,
    now: () => new Date('2026-12-05T10:00:00.500Z'),
  });
  const es = gateway.put(EXTERNAL_SECRETS, NS, {
    metadata: { name: 'db-source', annotations: { team: 'a' } },
  });
  gateway.put(SECRETS, NS, {
    metadata: {
      name: 'db',
      ownerReferences: [controller({ uid: es.metadata.uid! })],
    },
    data: {},
  });
  return { gateway, sync, esUid: es.metadata.uid! };
}

async function rejection(promise: Promise<unknown>): Promise<KryptonError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof KryptonError) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}

describe('controllingExternalSecret', () => {
  it('names the ExternalSecret of a controlling owner reference', () => {
    expect(
      controllingExternalSecret({ ownerReferences: [controller()] }),
    ).toEqual({
      apiVersion: 'external-secrets.io/v1',
      name: 'db-source',
      uid: 'uid-es',
    });
    expect(
      controllingExternalSecret({
        ownerReferences: [
          controller({ apiVersion: 'external-secrets.io/v1beta1' }),
        ],
      })?.apiVersion,
    ).toBe('external-secrets.io/v1beta1');
  });

  it.each([
    ['no owner reference', []],
    ['a reference that does not control', [controller({ controller: false })]],
    ['another kind', [controller({ kind: 'SealedSecret' })]],
    ['another group', [controller({ apiVersion: 'evil.example/v1' })]],
    [
      'a path in the version',
      [controller({ apiVersion: 'external-secrets.io/v1/../../api/v1' })],
    ],
    ['a name that is no object name', [controller({ name: '../secrets/x' })]],
    ['an uppercase name', [controller({ name: 'Db' })]],
    ['a name too long', [controller({ name: 'a'.repeat(254) })]],
    ['a UID with other characters', [controller({ uid: 'u"}' })]],
    ['an empty UID', [controller({ uid: '' })]],
  ])('names none for %s', (_what, ownerReferences) => {
    expect(controllingExternalSecret({ ownerReferences })).toBeUndefined();
  });
});

describe('OwnerSync', () => {
  it('offers a sync proven by a dry run, then annotates the ExternalSecret conditionally on its UID', async () => {
    const { gateway, sync } = setup();
    gateway.calls.length = 0;
    expect(await sync.offer(NS, 'db', allow)).toEqual({
      available: true,
      target: {
        tool: 'external-secrets',
        kind: 'ExternalSecret',
        name: 'db-source',
      },
    });
    expect(gateway.calls).toEqual([
      'getMetadata secrets db',
      'dryRunMergePatch externalsecrets db-source',
    ]);
    const result = await sync.request(NS, 'db', allow);
    expect(result).toEqual({
      target: {
        tool: 'external-secrets',
        kind: 'ExternalSecret',
        name: 'db-source',
      },
      annotation: { key: 'force-sync', value: '1796464800' },
      requestedAt: '2026-12-05T10:00:00.500Z',
      message: expect.stringMatching(/^External Secrets was asked/),
    });
    const es = await gateway.get(EXTERNAL_SECRETS, NS, 'db-source');
    expect(es.metadata.annotations).toEqual({
      team: 'a',
      'force-sync': '1796464800',
    });
  });

  it('refuses as the user answers: forbidden, gone, replaced', async () => {
    const { gateway, sync } = setup();
    gateway.dryRunDenied.add('patch');
    expect(await sync.offer(NS, 'db', allow)).toMatchObject({
      available: false,
      refusal: 'forbidden',
      message: OWNER_SYNC_MESSAGES.forbidden,
    });
    gateway.dryRunDenied.delete('patch');
    gateway.put(EXTERNAL_SECRETS, NS, {
      metadata: { name: 'db-source', uid: 'another' },
    });
    expect(await sync.offer(NS, 'db', allow)).toMatchObject({
      available: false,
      refusal: 'replaced',
    });
    const replaced = await rejection(sync.request(NS, 'db', allow));
    expect([replaced.status, replaced.message]).toEqual([
      409,
      OWNER_SYNC_MESSAGES.replaced,
    ]);
    const es = await gateway.get(EXTERNAL_SECRETS, NS, 'db-source');
    expect(es.metadata.annotations).toBeUndefined();
  });

  it('never acts as Krypton: in serviceAccount mode nothing is patched', async () => {
    const { gateway, sync } = setup(false);
    gateway.calls.length = 0;
    expect(await sync.offer(NS, 'db', allow)).toMatchObject({
      available: false,
      refusal: 'identity',
      target: { name: 'db-source' },
    });
    const err = await rejection(sync.request(NS, 'db', allow));
    expect([err.status, err.message]).toEqual([
      403,
      OWNER_SYNC_MESSAGES.identity,
    ]);
    expect(gateway.calls).toEqual([
      'getMetadata secrets db',
      'getMetadata secrets db',
    ]);
  });

  it('gates on the live Secret before it looks at its owner', async () => {
    const { gateway, sync } = setup();
    const deny: LiveGate = {
      permit: async () => {
        throw new KryptonError('forbidden', 'no');
      },
      admit: () => undefined,
    };
    gateway.calls.length = 0;
    expect((await rejection(sync.offer(NS, 'db', deny))).status).toBe(403);
    expect((await rejection(sync.request(NS, 'db', deny))).status).toBe(403);
    expect(gateway.calls.filter(c => c.includes('externalsecrets'))).toEqual(
      [],
    );
  });

  it('refuses a Secret that no ExternalSecret controls', async () => {
    const { gateway, sync } = setup();
    gateway.put(SECRETS, NS, {
      metadata: {
        name: 'merged',
        labels: { 'reconcile.external-secrets.io/managed': 'true' },
      },
    });
    expect(await sync.offer(NS, 'merged', allow)).toEqual({
      available: false,
      refusal: 'not_supported',
      message: OWNER_SYNC_MESSAGES.not_supported,
    });
    expect((await rejection(sync.request(NS, 'merged', allow))).status).toBe(
      409,
    );
  });
});
