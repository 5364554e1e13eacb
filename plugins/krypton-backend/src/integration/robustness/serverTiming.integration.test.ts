import { useTestNamespace, ClusterAdmin } from '@krypton/kube-testenv';
import request from 'supertest';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from '../../__testUtils__/testBackend';

/** `name;dur=1.23;desc="2"` entries of a Server-Timing header, by name. */
function phases(header: string): Map<string, { dur: number; calls?: number }> {
  const out = new Map<string, { dur: number; calls?: number }>();
  for (const entry of header.split(', ')) {
    const [name, ...params] = entry.split(';');
    const dur = params.find(p => p.startsWith('dur='));
    const desc = params.find(p => p.startsWith('desc='));
    out.set(name, {
      dur: Number(dur?.slice(4)),
      calls: desc ? Number(desc.slice(6, -1)) : undefined,
    });
  }
  return out;
}

describe('Server-Timing (krypton.diagnostics.serverTiming)', () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  let on: KryptonTestBackend;
  let off: KryptonTestBackend;
  const path = () => `/api/krypton/namespaces/${ns.name}/secrets`;

  beforeAll(async () => {
    on = await startKryptonBackend({ diagnostics: { serverTiming: true } });
    off = await startKryptonBackend();
    await admin.grantSecrets(ns.name, {
      kind: 'User',
      name: 'user:default/root',
    });
    await admin.createSecret(ns.name, {
      metadata: {
        name: 'timed',
        labels: { 'krypton.io/managed-by': 'krypton' },
      },
      stringData: { password: 'canary-timing-value' },
    });
  });
  afterAll(async () => {
    await on.stop();
    await off.stop();
  });

  it('splits a value read into its phases, with one Kubernetes round trip and two audit records', async () => {
    const res = await request(on.server)
      .get(`${path()}/timed`)
      .set('Authorization', as('root'));
    expect(res.status).toBe(200);
    const header = String(res.headers['server-timing']);
    const timing = phases(header);
    expect([...timing.keys()]).toEqual([
      'auth',
      'user',
      'permission',
      'kube',
      'audit',
      'app',
      'total',
    ]);
    expect(timing.get('kube')?.calls).toBe(1);
    // Read and reveal, asked in one request before the audit record and taken by the gate.
    expect(timing.get('permission')?.calls).toBe(1);
    // The initiated and the succeeded record of the value read.
    expect(timing.get('audit')?.calls).toBe(2);
    const total = timing.get('total')!.dur;
    const durations = [...timing.values()].map(t => t.dur);
    expect(durations.every(d => Number.isFinite(d) && d >= 0)).toBe(true);
    // No phase takes longer than the whole request (rounding to 0.01 ms aside).
    expect(Math.max(...durations)).toBeLessThanOrEqual(total + 0.01);
    expect(header).not.toContain('timed');
    expect(header).not.toContain('canary');
    expect(header).not.toContain(ns.name);
  });

  it('counts the round trips of an update', async () => {
    const live = await request(on.server)
      .get(`${path()}/timed/summary`)
      .set('Authorization', as('root'));
    const res = await request(on.server)
      .put(`${path()}/timed`)
      .set('Authorization', as('root'))
      .send({
        resourceVersion: live.body.resourceVersion,
        data: { password: 'canary-timing-value-2' },
      });
    expect(res.status).toBe(200);
    const timing = phases(String(res.headers['server-timing']));
    // The live read, the snapshot, the history list and the write, at least; overlapping calls
    // count once in the duration but each in the count.
    expect(timing.get('kube')?.calls).toBeGreaterThanOrEqual(4);
    // The update permission and the answer's read and reveal go to the policy together.
    expect(timing.get('permission')?.calls).toBe(1);
  });

  it('asks the permission backend once for a create and once for a restore', async () => {
    const created = await request(on.server)
      .post(path())
      .set('Authorization', as('root'))
      .send({ name: 'timed-new', data: { password: 'canary-timing-value' } });
    expect(created.status).toBe(201);
    expect(
      phases(String(created.headers['server-timing'])).get('permission')?.calls,
    ).toBe(1);

    const live = await request(on.server)
      .get(`${path()}/timed/summary`)
      .set('Authorization', as('root'));
    const restored = await request(on.server)
      .post(`${path()}/timed/restore`)
      .set('Authorization', as('root'))
      .send({ version: 1, resourceVersion: live.body.resourceVersion });
    expect(restored.status).toBe(200);
    expect(
      phases(String(restored.headers['server-timing'])).get('permission')
        ?.calls,
    ).toBe(1);
  });

  it('times refusals too, and is absent unless configured', async () => {
    const refused = await request(on.server)
      .get(`${path()}/timed`)
      .set('Authorization', as('nobody'));
    expect(refused.status).toBe(403);
    expect(phases(String(refused.headers['server-timing'])).has('kube')).toBe(
      true,
    );

    const plain = await request(off.server)
      .get(`${path()}/timed`)
      .set('Authorization', as('root'));
    expect(plain.status).toBe(200);
    expect(plain.headers['server-timing']).toBeUndefined();
  });
});
