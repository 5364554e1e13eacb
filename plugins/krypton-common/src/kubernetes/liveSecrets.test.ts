import { InMemorySecretGateway } from '../__testUtils__/InMemorySecretGateway';
import { KryptonError } from '../errors';
import { textToBase64 } from '../encoding';
import { LiveSecrets } from './liveSecrets';

const NS = 'ns';
const allow = async () => undefined;

function setup(managedOnly = true) {
  const gateway = new InMemorySecretGateway();
  const live = new LiveSecrets({
    gateway,
    cluster: 'c',
    annotationPrefix: 'krypton.io',
    managedOnly,
  });
  return { gateway, live };
}

async function rejection(promise: Promise<unknown>): Promise<KryptonError> {
  try {
    await promise;
  } catch (e) {
    return e as KryptonError;
  }
  throw new Error('expected a rejection');
}

describe('LiveSecrets', () => {
  it('creates managed Secrets at version 1 with access rules', async () => {
    const { live } = setup();
    const s = await live.create(NS, {
      name: 'a',
      data: { k: 'v' },
      access: { owners: ['user:default/alice'] },
    });
    expect(s.metadata.labels).toEqual({ 'krypton.io/managed-by': 'krypton' });
    expect(s.metadata.annotations).toEqual({
      'krypton.io/version': '1',
      'krypton.io/owners': 'user:default/alice',
    });
    expect(live.toDto(s)).toMatchObject({
      version: 1,
      data: { k: 'v' },
      keys: ['k'],
    });
  });

  it('checks the loaded resourceVersion before authorizing writes reach Kubernetes', async () => {
    const { gateway, live } = setup();
    await live.create(NS, { name: 'a', data: { k: 'v' } });
    gateway.calls.length = 0;
    const err = await rejection(
      live.update(NS, 'a', { resourceVersion: 'old', data: { k: 'w' } }, allow),
    );
    expect(err.status).toBe(409);
    expect(gateway.calls).toEqual(['get a']);
  });

  it('authorizes against the live object before planning the write', async () => {
    const { gateway, live } = setup();
    const s = await live.create(NS, { name: 'a', data: { k: 'v' } });
    gateway.calls.length = 0;
    const refuse = async () => {
      throw new KryptonError('forbidden', 'no');
    };
    const err = await rejection(
      live.update(
        NS,
        'a',
        { resourceVersion: s.metadata.resourceVersion!, data: {} },
        refuse,
      ),
    );
    expect(err.status).toBe(403);
    expect(gateway.calls).toEqual(['get a']);
  });

  it('keeps binary values when a client sends only the text subset', async () => {
    const { live } = setup();
    const bin = 'AP8=';
    const s = await live.create(NS, {
      name: 'a',
      data: { t: 'x' },
      binaryData: { b: bin },
    });
    const { secret } = await live.update(
      NS,
      'a',
      { resourceVersion: s.metadata.resourceVersion!, data: { t: 'y' } },
      allow,
    );
    expect(secret.data).toEqual({ b: bin, t: textToBase64('y') });
    expect(secret.metadata.annotations?.['krypton.io/version']).toBe('2');
  });

  it('replaces the binary set when binaryData is sent, and keeps text then', async () => {
    const { live } = setup();
    const s = await live.create(NS, {
      name: 'a',
      data: { t: 'x' },
      binaryData: { b: 'AP8=' },
    });
    const { secret } = await live.update(
      NS,
      'a',
      {
        resourceVersion: s.metadata.resourceVersion!,
        binaryData: { c: 'AP4=' },
      },
      allow,
    );
    expect(secret.data).toEqual({ c: 'AP4=', t: textToBase64('x') });
  });

  it('does not bump the version or touch data on metadata-only edits', async () => {
    const { live } = setup();
    const s = await live.create(NS, { name: 'a', data: { t: 'x' } });
    const { secret, dataChanged } = await live.update(
      NS,
      'a',
      { resourceVersion: s.metadata.resourceVersion!, description: 'd' },
      allow,
    );
    expect(dataChanged).toBe(false);
    expect(secret.data).toEqual(s.data);
    expect(secret.metadata.annotations?.['krypton.io/version']).toBe('1');
  });

  it('refuses data edits of a Secret with a malformed counter', async () => {
    const { gateway, live } = setup();
    const s = gateway.put(NS, {
      metadata: {
        name: 'a',
        labels: { 'krypton.io/managed-by': 'krypton' },
        annotations: { 'krypton.io/version': 'x1' },
      },
      data: { t: textToBase64('x') },
    });
    expect(live.toSummary(s).version).toBeNull();
    const err = await rejection(
      live.update(
        NS,
        'a',
        { resourceVersion: s.metadata.resourceVersion!, data: { t: 'y' } },
        allow,
      ),
    );
    expect(err.status).toBe(409);
  });

  it('preserves owner references and finalizers and drops managed fields', async () => {
    const { gateway, live } = setup();
    const s = gateway.put(NS, {
      metadata: {
        name: 'a',
        labels: { 'krypton.io/managed-by': 'krypton' },
        ownerReferences: [{ kind: 'X', name: 'x', uid: 'u', apiVersion: 'v1' }],
        finalizers: ['example.com/keep'],
        managedFields: [{ manager: 'kubectl' }],
      },
      data: {},
    });
    const { replacement } = live.planUpdate(s, {
      resourceVersion: s.metadata.resourceVersion!,
      data: { t: 'y' },
    });
    expect(replacement.metadata.ownerReferences).toEqual(
      s.metadata.ownerReferences,
    );
    expect(replacement.metadata.finalizers).toEqual(['example.com/keep']);
    expect(replacement.metadata.managedFields).toBeUndefined();
    expect(replacement.metadata.uid).toBe(s.metadata.uid);
  });

  it('hides unmanaged Secrets and snapshots unless managed-only is off', async () => {
    const { gateway, live } = setup();
    gateway.put(NS, { metadata: { name: 'native' }, data: {} });
    gateway.put(NS, {
      metadata: {
        name: 'snap',
        labels: {
          'krypton.io/kind': 'history',
          'krypton.io/managed-by': 'krypton',
        },
      },
    });
    expect(await live.list(NS)).toEqual([]);
    expect((await rejection(live.load(NS, 'native'))).status).toBe(404);
    expect((await rejection(live.load(NS, 'snap'))).status).toBe(404);

    const open = new LiveSecrets({
      gateway,
      cluster: 'c',
      annotationPrefix: 'krypton.io',
      managedOnly: false,
    });
    expect((await open.list(NS)).map(s => s.metadata.name)).toEqual(['native']);
  });
});
