import { useTestNamespace } from '@krypton/kube-testenv';
import {
  SecretChangedSignal,
  secretSignalChannel,
} from '@krypton/plugin-krypton-common';
import request from 'supertest';
import { b64 } from './__testUtils__/history';
import { AdminClient } from './__testUtils__/rbac';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from './__testUtils__/testBackend';

const CANARY = 'signal-canary-7b31';
const KEY = 'signal-key-canary';
const UPDATED = 'signal-canary-updated-c45e';

/** One page's connection to the real signals backend, as the frontend's signal client makes it. */
class SignalsConnection {
  readonly received: { channel: string; message: SecretChangedSignal }[] = [];
  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener('message', event => {
      this.received.push(JSON.parse(String(event.data)));
    });
  }

  /**
   * Connects as the mock user (the mock token is the only one that is a valid subprotocol). The
   * signals backend starts handling upgrades after the first upgrade request it routes, so the
   * first attempt may be refused.
   */
  static async open(url: string): Promise<SignalsConnection> {
    for (let attempt = 0; ; attempt++) {
      const socket = new WebSocket(url, ['mock-user-token']);
      const opened = await new Promise<boolean>(resolve => {
        const timer = setTimeout(() => resolve(false), 2000);
        socket.addEventListener('open', () => {
          clearTimeout(timer);
          resolve(true);
        });
        socket.addEventListener('error', () => {
          clearTimeout(timer);
          resolve(false);
        });
      });
      if (opened) return new SignalsConnection(socket);
      socket.close();
      if (attempt === 5) throw new Error('the signals backend refused');
      await new Promise(r => setTimeout(r, 100));
    }
  }

  subscribe(channel: string) {
    this.socket.send(JSON.stringify({ action: 'subscribe', channel }));
  }

  /** Waits until `count` signals have arrived; the signals travel after the answer. */
  async receivedAtLeast(count: number) {
    const deadline = Date.now() + 10_000;
    while (this.received.length < count) {
      if (Date.now() > deadline) {
        throw new Error(`${this.received.length} of ${count} signals arrived`);
      }
      await new Promise(r => setTimeout(r, 25));
    }
    return this.received;
  }

  close() {
    this.socket.close();
  }
}

/**
 * "This Secret changed" signals, through the real signals backend's WebSocket as an open page
 * receives them, after writes through Krypton's API against the real kube-apiserver.
 */
describe('signals to the pages that have a Secret open', () => {
  const ns = useTestNamespace();
  const admin = new AdminClient();
  const secrets = `/api/krypton/namespaces/${ns.name}/secrets`;
  let krypton: KryptonTestBackend;
  let page: SignalsConnection;

  beforeAll(async () => {
    krypton = await startKryptonBackend(
      { restart: { enabled: true } },
      { notifications: true },
    );
    const root = { kind: 'User' as const, name: 'user:default/root' };
    await admin.grantSecrets(ns.name, root);
    await admin.grantWorkloads(ns.name, root);
    page = await SignalsConnection.open(
      `${krypton.url.replace('http:', 'ws:')}/api/signals`,
    );
  });
  afterAll(async () => {
    page?.close();
    await krypton?.stop();
    admin.close();
  });

  const create = async (name: string) => {
    const res = await request(krypton.server)
      .post(secrets)
      .set('Authorization', as('root'))
      .send({ name, data: { [KEY]: CANARY } });
    expect(res.status).toBe(201);
    return res.body as { uid: string; resourceVersion: string };
  };

  it('tells the Secret uid channel of each update, restore and delete, without values', async () => {
    const db = await create('db');
    const other = await create('other');
    page.subscribe(secretSignalChannel(db.uid));
    // The subscription travels on the socket: a write right after it could overtake it.
    await new Promise(r => setTimeout(r, 200));

    const updated = await request(krypton.server)
      .put(`${secrets}/db`)
      .set('Authorization', as('root'))
      .send({ resourceVersion: db.resourceVersion, data: { [KEY]: UPDATED } });
    expect(updated.status).toBe(200);
    // A change to another Secret goes to that Secret's channel only.
    const otherUpdated = await request(krypton.server)
      .put(`${secrets}/other`)
      .set('Authorization', as('root'))
      .send({
        resourceVersion: other.resourceVersion,
        data: { [KEY]: UPDATED },
      });
    expect(otherUpdated.status).toBe(200);
    // A restart changes workloads, not the Secret: no signal.
    const restarted = await request(krypton.server)
      .post(`${secrets}/db/restart-consumers`)
      .set('Authorization', as('root'));
    expect(restarted.status).toBe(200);
    const restored = await request(krypton.server)
      .post(`${secrets}/db/restore`)
      .set('Authorization', as('root'))
      .send({ version: 1, resourceVersion: updated.body.resourceVersion });
    expect(restored.status).toBe(200);
    const deleted = await request(krypton.server)
      .delete(`${secrets}/db`)
      .query({ resourceVersion: restored.body.resourceVersion })
      .set('Authorization', as('root'));
    expect(deleted.status).toBe(200);

    const received = await page.receivedAtLeast(3);
    const channel = secretSignalChannel(db.uid);
    const where = { cluster: 'test', namespace: ns.name, name: 'db' };
    expect(received).toEqual([
      {
        channel,
        message: {
          ...where,
          event: 'update',
          resourceVersion: updated.body.resourceVersion,
          version: updated.body.version,
        },
      },
      {
        channel,
        message: {
          ...where,
          event: 'restore',
          resourceVersion: restored.body.resourceVersion,
          version: restored.body.version,
        },
      },
      {
        channel,
        message: {
          ...where,
          event: 'delete',
          resourceVersion: null,
          version: null,
        },
      },
    ]);
    // Nothing else arrives late (the other Secret's update, a restart).
    await new Promise(r => setTimeout(r, 300));
    expect(page.received).toHaveLength(3);
    const text = JSON.stringify(page.received);
    for (const needle of [CANARY, b64(CANARY), KEY, UPDATED, b64(UPDATED)]) {
      expect(text).not.toContain(needle);
    }
  });
});
