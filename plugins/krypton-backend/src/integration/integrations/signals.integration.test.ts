import { useTestNamespace, ClusterAdmin } from '@krypton/kube-testenv';
import {
  SecretChangedSignal,
  secretSignalChannel,
} from '@krypton/plugin-krypton-common';
import { AccessRules } from '@krypton/core';
import request from 'supertest';
import { b64 } from '../../__testUtils__/history';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from '../../__testUtils__/testBackend';

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
   * Connects with this token as the WebSocket subprotocol, as the frontend's client sends it (the
   * mock user's token is the only mock token that is a valid subprotocol), or with none at all.
   * The signals backend starts handling upgrades after the first upgrade request it routes, so
   * the first attempt may be refused.
   */
  static async open(url: string, token?: string): Promise<SignalsConnection> {
    for (let attempt = 0; ; attempt++) {
      const socket = token ? new WebSocket(url, [token]) : new WebSocket(url);
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

  /** The messages that arrived on this channel, in order. */
  on(channel: string): SecretChangedSignal[] {
    return this.received.filter(r => r.channel === channel).map(r => r.message);
  }

  close() {
    this.socket.close();
  }
}

/** Polls until the check passes or the deadline is past; true when it passed. */
async function until(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise(r => setTimeout(r, 10));
  }
  return true;
}

/**
 * "This Secret changed" signals, through the real signals backend's WebSocket as an open page
 * receives them, after writes through Krypton's API against the real kube-apiserver.
 */
describe('signals to the pages that have a Secret open', () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  const secrets = `/api/krypton/namespaces/${ns.name}/secrets`;
  let krypton: KryptonTestBackend;
  let page: SignalsConnection;

  /** A Secret without rules whose signals reach every subscriber: the barrier of the tests. */
  let beacon: { uid: string; resourceVersion: string };
  const beaconChannel = () => secretSignalChannel(beacon.uid);

  const signalsUrl = () => `${krypton.url.replace('http:', 'ws:')}/api/signals`;

  const create = async (name: string, access?: Partial<AccessRules>) => {
    const res = await request(krypton.server)
      .post(secrets)
      .set('Authorization', as('root'))
      .send({ name, data: { [KEY]: CANARY }, ...(access ? { access } : {}) });
    expect(res.status).toBe(201);
    return res.body as { uid: string; resourceVersion: string };
  };

  const update = async (name: string, resourceVersion: string) => {
    const res = await request(krypton.server)
      .put(`${secrets}/${name}`)
      .set('Authorization', as('root'))
      .send({ resourceVersion, data: { [KEY]: UPDATED } });
    expect(res.status).toBe(200);
    return res.body as { resourceVersion: string; version: number };
  };

  beforeAll(async () => {
    krypton = await startKryptonBackend(
      { restart: { enabled: true } },
      { notifications: true },
    );
    const root = { kind: 'User' as const, name: 'user:default/root' };
    await admin.grantSecrets(ns.name, root);
    await admin.grantWorkloads(ns.name, root);
    page = await SignalsConnection.open(signalsUrl(), 'mock-user-token');
    beacon = await create('beacon');
  });
  afterAll(async () => {
    page?.close();
    await krypton?.stop();
    admin.close();
  });

  /**
   * Waits until a signal of the beacon, sent now, has reached every connection. Krypton hands a
   * signal to the signals backend before it answers, and each connection's messages travel in
   * order, so once it arrived, every signal of an earlier change has arrived too, and every
   * subscription sent before the beacon's has been taken in. A subscription may still be on its
   * way when the first beacon goes out, so the beacon is sent again until it arrives.
   */
  const afterBeacon = async (connections: SignalsConnection[]) => {
    const seen = connections.map(c => c.on(beaconChannel()).length);
    const arrived = () =>
      connections.every((c, i) => c.on(beaconChannel()).length > seen[i]);
    for (let attempt = 0; attempt < 100; attempt++) {
      // An update without data writes nothing new and still signals.
      const res = await request(krypton.server)
        .put(`${secrets}/beacon`)
        .set('Authorization', as('root'))
        .send({ resourceVersion: beacon.resourceVersion });
      expect(res.status).toBe(200);
      beacon = { ...beacon, resourceVersion: res.body.resourceVersion };
      if (await until(arrived, 200)) return;
    }
    throw new Error('the beacon never arrived');
  };

  it('tells the Secret uid channel of each update, restore and delete, without values', async () => {
    const db = await create('db');
    const other = await create('other');
    page.subscribe(secretSignalChannel(db.uid));
    page.subscribe(beaconChannel());
    await afterBeacon([page]);

    const updated = await update('db', db.resourceVersion);
    // A change to another Secret goes to that Secret's channel only.
    await update('other', other.resourceVersion);
    // A restart changes workloads, not the Secret: no signal.
    const restarted = await request(krypton.server)
      .post(`${secrets}/db/restart-consumers`)
      .set('Authorization', as('root'));
    expect(restarted.status).toBe(200);
    const restored = await request(krypton.server)
      .post(`${secrets}/db/restore`)
      .set('Authorization', as('root'))
      .send({ version: 1, resourceVersion: updated.resourceVersion });
    expect(restored.status).toBe(200);
    const deleted = await request(krypton.server)
      .delete(`${secrets}/db`)
      .query({ resourceVersion: restored.body.resourceVersion })
      .set('Authorization', as('root'));
    expect(deleted.status).toBe(200);
    // Everything signalled before the beacon has arrived: nothing else can come late.
    await afterBeacon([page]);

    const channel = secretSignalChannel(db.uid);
    const where = { cluster: 'test', namespace: ns.name, name: 'db' };
    expect(page.received.filter(r => r.channel !== beaconChannel())).toEqual([
      {
        channel,
        message: {
          ...where,
          event: 'update',
          resourceVersion: updated.resourceVersion,
          version: updated.version,
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
    const text = JSON.stringify(page.received);
    for (const needle of [CANARY, b64(CANARY), KEY, UPDATED, b64(UPDATED)]) {
      expect(text).not.toContain(needle);
    }
  });

  it('sends the change of a Secret with rules only to the users it admits; of one without rules, to any holder of its uid', async () => {
    // mock, the signed-in user of the page, is a viewer; a connection without a token is the
    // signals backend's guest, whom no rule names.
    const guarded = await create('guarded', {
      owners: ['user:default/root'],
      viewers: ['user:default/mock'],
    });
    const open = await create('open');
    const reader = page;
    const stranger = await SignalsConnection.open(signalsUrl());
    try {
      const guardedChannel = secretSignalChannel(guarded.uid);
      const openChannel = secretSignalChannel(open.uid);
      for (const connection of [reader, stranger]) {
        connection.subscribe(guardedChannel);
        connection.subscribe(openChannel);
        connection.subscribe(beaconChannel());
      }
      await afterBeacon([reader, stranger]);

      const guardedUpdated = await update('guarded', guarded.resourceVersion);
      const openUpdated = await update('open', open.resourceVersion);
      await afterBeacon([reader, stranger]);

      const where = { cluster: 'test', namespace: ns.name, event: 'update' };
      expect(reader.on(guardedChannel)).toEqual([
        {
          ...where,
          name: 'guarded',
          resourceVersion: guardedUpdated.resourceVersion,
          version: guardedUpdated.version,
        },
      ]);
      // The stranger, who knows the uid and has no session, never learns of the guarded change.
      expect(stranger.on(guardedChannel)).toEqual([]);
      // A Secret without rules is read by whomever Kubernetes RBAC admits, whom Krypton cannot
      // list: its signal is a broadcast, and its uid tells anyone when it changes (never a value).
      const openSignal = {
        ...where,
        name: 'open',
        resourceVersion: openUpdated.resourceVersion,
        version: openUpdated.version,
      };
      expect(reader.on(openChannel)).toEqual([openSignal]);
      expect(stranger.on(openChannel)).toEqual([openSignal]);
      const text = JSON.stringify(stranger.received);
      for (const needle of [CANARY, b64(CANARY), KEY, UPDATED, b64(UPDATED)]) {
        expect(text).not.toContain(needle);
      }
    } finally {
      stranger.close();
    }
  });
});
