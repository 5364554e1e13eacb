import { InMemoryKubeGateway } from '../testing/InMemoryKubeGateway';
import { KryptonError, messages } from '../errors';
import { textToBase64 } from '../encoding';
import { SecretHistory } from './history';
import { LiveGate, LiveSecrets } from './liveSecrets';
import { SECRETS } from './types';
import { VersionedSecrets } from './versionedSecrets';

const NS = 'ns';
const allow: LiveGate = {
  permit: async () => () => undefined,
  admit: () => undefined,
};

function setup(managedOnly = true, historyLimit = 20) {
  const gateway = new InMemoryKubeGateway();
  const options = {
    cluster: 'c',
    annotationPrefix: 'krypton.io',
    historyLimit: { ok: true as const, value: historyLimit },
  };
  const live = new LiveSecrets({ ...options, gateway, managedOnly });
  const history = new SecretHistory({ ...options, gateway });
  const versioned = new VersionedSecrets({
    live,
    history,
    actor: 'user:default/alice',
  });
  return { gateway, live, versioned };
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
    const { gateway, live, versioned } = setup();
    await live.create(NS, { name: 'a', data: { k: 'v' } });
    gateway.calls.length = 0;
    const err = await rejection(
      versioned.update(
        NS,
        'a',
        { resourceVersion: 'old', data: { k: 'w' } },
        allow,
      ),
    );
    expect(err.status).toBe(409);
    expect(gateway.calls).toEqual(['get secrets a']);
  });

  it('authorizes against the live object before planning the write', async () => {
    const { gateway, live, versioned } = setup();
    const s = await live.create(NS, { name: 'a', data: { k: 'v' } });
    gateway.calls.length = 0;
    const refuse: LiveGate = {
      permit: async () => () => undefined,
      admit: () => {
        throw new KryptonError('forbidden', 'no');
      },
    };
    const err = await rejection(
      versioned.update(
        NS,
        'a',
        { resourceVersion: s.metadata.resourceVersion!, data: {} },
        refuse,
      ),
    );
    expect(err.status).toBe(403);
    expect(gateway.calls).toEqual(['get secrets a']);
  });

  it('checks permissions beside the live read, and reports the read, then the permission, then the rules', async () => {
    const { gateway, live } = setup();
    await live.create(NS, { name: 'a', data: { k: 'v' } });
    const order: string[] = [];
    const get = gateway.get.bind(gateway);
    gateway.get = async (type, ns, name) => {
      order.push('read started');
      const out = await get(type, ns, name);
      order.push('read done');
      return out;
    };
    const refusing = (which: 'permit' | 'admit'): LiveGate => ({
      permit: async () => {
        order.push('permit started');
        if (which === 'permit')
          throw new KryptonError('forbidden', 'permission');
        return () => undefined;
      },
      admit: () => {
        if (which === 'admit') throw new KryptonError('forbidden', 'rules');
      },
    });
    expect(
      (await rejection(live.get(NS, 'a', refusing('permit')))).message,
    ).toBe('permission');
    expect(order).toEqual(['permit started', 'read started', 'read done']);
    expect(
      (await rejection(live.get(NS, 'a', refusing('admit')))).message,
    ).toBe('rules');
    // A read that fails wins over a permission refusal, as if the checks ran in sequence.
    expect(
      (await rejection(live.get(NS, 'missing', refusing('permit')))).status,
    ).toBe(404);
  });

  it('keeps binary values when a client sends only the text subset', async () => {
    const { live, versioned } = setup();
    const bin = 'AP8=';
    const s = await live.create(NS, {
      name: 'a',
      data: { t: 'x' },
      binaryData: { b: bin },
    });
    const { secret } = await versioned.update(
      NS,
      'a',
      { resourceVersion: s.metadata.resourceVersion!, data: { t: 'y' } },
      allow,
    );
    expect(secret.data).toEqual({ b: bin, t: textToBase64('y') });
    expect(secret.metadata.annotations?.['krypton.io/version']).toBe('2');
  });

  it('replaces the binary set when binaryData is sent, and keeps text then', async () => {
    const { live, versioned } = setup();
    const s = await live.create(NS, {
      name: 'a',
      data: { t: 'x' },
      binaryData: { b: 'AP8=' },
    });
    const { secret } = await versioned.update(
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
    const { live, versioned } = setup();
    const s = await live.create(NS, { name: 'a', data: { t: 'x' } });
    const { secret, dataChanged } = await versioned.update(
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
    const { gateway, live, versioned } = setup();
    const s = gateway.put(SECRETS, NS, {
      metadata: {
        name: 'a',
        labels: { 'krypton.io/managed-by': 'krypton' },
        annotations: { 'krypton.io/version': 'x1' },
      },
      data: { t: textToBase64('x') },
    });
    expect(live.toSummary(s).version).toBeNull();
    const err = await rejection(
      versioned.update(
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
    const s = gateway.put(SECRETS, NS, {
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
    gateway.put(SECRETS, NS, { metadata: { name: 'native' }, data: {} });
    gateway.put(SECRETS, NS, {
      metadata: {
        name: 'snap',
        labels: {
          'krypton.io/kind': 'history',
          'krypton.io/managed-by': 'krypton',
        },
      },
    });
    const all = () => true;
    expect(await live.listItems(NS, all)).toEqual([]);
    expect((await rejection(live.load(NS, 'native'))).status).toBe(404);
    expect((await rejection(live.load(NS, 'snap'))).status).toBe(404);

    const open = new LiveSecrets({
      gateway,
      cluster: 'c',
      annotationPrefix: 'krypton.io',
      managedOnly: false,
      historyLimit: { ok: true, value: 20 },
    });
    expect((await open.listItems(NS, all)).map(s => s.name)).toEqual([
      'native',
    ]);
  });

  it('lists Table pages of 500 that exclude history and proposals in the selector, sorted by name, never reading values', async () => {
    const { gateway, live } = setup();
    for (let i = 0; i < 1200; i++) {
      gateway.put(SECRETS, NS, {
        metadata: {
          name: `s-${String(1199 - i).padStart(4, '0')}`,
          labels: { 'krypton.io/managed-by': 'krypton' },
          annotations: { 'krypton.io/version': '4' },
        },
        type: i === 0 ? 'example.com/custom' : undefined,
        data: i === 0 ? {} : { k: textToBase64('v'), b: 'AP8=' },
      });
    }
    const pages: Array<{ selector?: string; limit: number; columns: string }> =
      [];
    const listTable = gateway.listTable.bind(gateway);
    gateway.listTable = async (type, ns, request, columns) => {
      pages.push({
        selector: request.labelSelector,
        limit: request.limit,
        columns: columns.join(','),
      });
      return listTable(type, ns, request, columns);
    };
    const items = await live.listItems(NS, s => s.metadata.name !== 's-0007');
    expect(items).toHaveLength(1199);
    expect(items[0]).toEqual({
      cluster: 'c',
      namespace: NS,
      name: 's-0000',
      uid: expect.any(String),
      resourceVersion: expect.any(String),
      type: 'Opaque',
      managed: true,
      version: 4,
      access: { owners: [], editors: [], viewers: [] },
      labels: { 'krypton.io/managed-by': 'krypton' },
      annotations: { 'krypton.io/version': '4' },
      withheldAnnotations: 0,
      ownerReferences: [],
      keyCount: 2,
    });
    expect(items.find(s => s.name === 's-1199')).toMatchObject({
      type: 'example.com/custom',
      keyCount: 0,
    });
    expect(items.some(s => s.name === 's-0007')).toBe(false);
    expect(pages).toEqual(
      Array(3).fill({
        selector:
          'krypton.io/managed-by=krypton,krypton.io/kind!=history,krypton.io/kind!=proposal',
        limit: 500,
        columns: 'Type,Data',
      }),
    );
    // Only the Table was read: no request that returns values.
    expect(gateway.calls.filter(c => c.startsWith('list'))).toEqual(
      Array(3).fill('listTable secrets'),
    );
  });

  it.each([
    ['a key count that is a string', { Type: 'Opaque', Data: '2' }],
    ['a negative key count', { Type: 'Opaque', Data: -1 }],
    ['a fractional key count', { Type: 'Opaque', Data: 1.5 }],
    ['a type that is not a string', { Type: 7, Data: 1 }],
    ['a missing cell', { Data: 1 }],
  ])(
    'refuses the whole list for %s, never a truncated one',
    async (_, cells) => {
      const { gateway, live } = setup();
      for (const name of ['a', 'b']) {
        gateway.put(SECRETS, NS, {
          metadata: { name, labels: { 'krypton.io/managed-by': 'krypton' } },
          data: {},
        });
      }
      const listTable = gateway.listTable.bind(gateway);
      gateway.listTable = async (type, ns, request, columns) => {
        const page = await listTable(type, ns, request, columns);
        const [first, ...rest] = page.items;
        return { ...page, items: [...rest, { ...first, cells }] };
      };
      const err = await rejection(live.listItems(NS, () => true));
      expect(err.status).toBe(503);
      expect(err.message).toBe(messages.unavailable);
    },
  );

  it('refuses a namespace over the list budget instead of truncating it', async () => {
    const { gateway, live } = setup(false);
    for (let i = 0; i < 2001; i++) {
      gateway.put(SECRETS, NS, { metadata: { name: `s-${i}` }, data: {} });
    }
    const err = await rejection(live.listItems(NS, () => true));
    expect(err.status).toBe(503);
    expect(err.message).toMatch(/more Secrets than Krypton lists/);
  });

  it('never reveals the values of service-account tokens, even to those who may read them', async () => {
    const { gateway, live } = setup();
    gateway.put(SECRETS, NS, {
      metadata: {
        name: 'token',
        labels: { 'krypton.io/managed-by': 'krypton' },
      },
      type: 'kubernetes.io/service-account-token',
      data: { token: textToBase64('t') },
    });
    const err = await rejection(live.get(NS, 'token', allow));
    expect(err.status).toBe(403);
    expect(err.message).toMatch(/never revealed/);
    // Its metadata stays listable.
    expect((await live.listItems(NS, () => true)).map(s => s.name)).toEqual([
      'token',
    ]);
  });

  it("drops kubectl's last-applied copy on data changes and keeps it on metadata edits", async () => {
    const { gateway, live } = setup();
    const lastApplied = JSON.stringify({ data: { t: textToBase64('old') } });
    const s = gateway.put(SECRETS, NS, {
      metadata: {
        name: 'a',
        labels: { 'krypton.io/managed-by': 'krypton' },
        annotations: {
          'kubectl.kubernetes.io/last-applied-configuration': lastApplied,
        },
      },
      data: { t: textToBase64('old') },
    });
    const meta = live.planUpdate(s, {
      resourceVersion: s.metadata.resourceVersion!,
      description: 'd',
    });
    expect(
      meta.replacement.metadata.annotations?.[
        'kubectl.kubernetes.io/last-applied-configuration'
      ],
    ).toBe(lastApplied);
    const rotated = live.planUpdate(s, {
      resourceVersion: s.metadata.resourceVersion!,
      data: { t: 'new' },
    });
    expect(rotated.replacement.metadata.annotations).not.toHaveProperty([
      'kubectl.kubernetes.io/last-applied-configuration',
    ]);
  });

  describe('checkWrite', () => {
    const live = setup().live;
    const secret = (extra: Record<string, unknown> = {}) => ({
      metadata: {
        name: 'a',
        uid: 'u',
        resourceVersion: '7',
        annotations: { 'krypton.io/version': '3' },
      },
      data: { k: textToBase64('v') },
      ...extra,
    });

    it('checks the revision before the type, and the type before immutability', () => {
      const frozenToken = secret({
        type: 'kubernetes.io/service-account-token',
        immutable: true,
      });
      const stale = () =>
        live.checkWrite(frozenToken, { resourceVersion: '6', data: {} });
      expect(stale).toThrow(/has changed since it was loaded/);
      const typed = () =>
        live.checkWrite(frozenToken, { resourceVersion: '7', data: {} });
      expect(typed).toThrow(/Service-account token/);
    });

    it('passes byte-identical writes of immutable Secrets without a new version', () => {
      const frozen = secret({ immutable: true });
      expect(
        live.checkWrite(frozen, { resourceVersion: '7', data: frozen.data }),
      ).toEqual({ dataChanged: false, version: 3, replacedVersion: 3 });
      expect(() =>
        live.checkWrite(frozen, { resourceVersion: '7', data: {} }),
      ).toThrow(/immutable/);
    });

    it('gives the next counter for a data change', () => {
      expect(
        live.checkWrite(secret(), { resourceVersion: '7', data: {} }),
      ).toEqual({ dataChanged: true, version: 4, replacedVersion: 3 });
    });

    it('refuses data changes while the history limit is invalid, and lets metadata edits pass', () => {
      const broken = new LiveSecrets({
        gateway: new InMemoryKubeGateway(),
        cluster: 'c',
        annotationPrefix: 'krypton.io',
        managedOnly: true,
        historyLimit: { ok: false, error: 'bad limit' },
      });
      const s = secret();
      let err: unknown;
      try {
        broken.checkWrite(s, { resourceVersion: '7', data: {} });
      } catch (e) {
        err = e;
      }
      expect(err).toMatchObject({ status: 503, message: 'bad limit' });
      expect(
        broken.checkWrite(s, { resourceVersion: '7', data: s.data }),
      ).toEqual({ dataChanged: false, version: 3, replacedVersion: 3 });
    });

    it('measures raw writes by decoded bytes and client writes by the estimate', () => {
      // 900 KiB of bytes: within Kubernetes' bound, above the 1.4 estimate's.
      const blob = btoa('x'.repeat(900 * 1024));
      expect(
        live.checkWrite(secret(), { resourceVersion: '7', data: { b: blob } })
          .dataChanged,
      ).toBe(true);
      expect(() =>
        live.checkWrite(secret(), {
          resourceVersion: '7',
          data: { b: blob },
          estimate: { text: {}, binary: { b: blob } },
        }),
      ).toThrow('Secret is too large');
    });
  });
});
