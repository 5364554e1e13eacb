import {
  kubeConfigFor,
  testClusterState,
  useTestNamespace,
  ClusterAdmin,
} from '@krypton/kube-testenv';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from '@krypton/plugin-krypton-backend/src/__testUtils__/testBackend';
import { KubeTransport } from '@krypton/plugin-krypton-backend/src/kubernetes/transport';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { send } from './clients';
import { formatColumns, formatTable, measure } from './measure';
import { Breakdown, RoundTripClock, breakdownRow } from './roundTrips';

// GET, update and restore latency of one Secret through Krypton over HTTP, against raw keep-alive requests of
// the same Secret on the same kube-apiserver, measured in one run.
describe('latency', () => {
  const ns = useTestNamespace('krypton-bench');
  const admin = new ClusterAdmin();
  let krypton: KryptonTestBackend;
  let roomy: KryptonTestBackend;
  let hybrid: KryptonTestBackend;
  const kubeAgent = new https.Agent({ keepAlive: true });
  const backendAgent = new http.Agent({ keepAlive: true });

  beforeAll(async () => {
    krypton = await startKryptonBackend();
    roomy = await startKryptonBackend({ historyLimit: 100 });
    // hybrid mode proves the user's own write with a dry run before Krypton saves history.
    hybrid = await startKryptonBackend({
      historyLimit: 100,
      kubernetes: { identity: 'hybrid' },
    });
    await admin.grantSecrets(ns.name, {
      kind: 'User',
      name: 'user:default/root',
    });
    await admin.createSecret(ns.name, {
      metadata: {
        name: 'bench',
        labels: { 'krypton.io/managed-by': 'krypton' },
      },
      stringData: { user: 'app', password: 'x'.repeat(64) },
    });
    for (const name of ['bench-under', 'bench-hybrid']) {
      await admin.createSecret(ns.name, {
        metadata: { name, labels: { 'krypton.io/managed-by': 'krypton' } },
        stringData: { user: 'app', password: 'x'.repeat(64) },
      });
    }
  });
  afterAll(async () => {
    await krypton.stop();
    await roomy.stop();
    await hybrid.stop();
    admin.close();
    kubeAgent.destroy();
    backendAgent.destroy();
  });

  it('GET and PUT through Krypton against raw requests', async () => {
    const state = testClusterState();
    const kc = kubeConfigFor('krypton');
    const token = kc.getCurrentUser()!.token!;
    const ca = readFileSync(state.caFile);
    const agent = new https.Agent({ keepAlive: true, ca });
    const secretUrl = `${state.server}/api/v1/namespaces/${ns.name}/secrets/bench`;
    // The same identity path as Krypton's impersonation mode: Krypton's token acting as the user.
    const rawHeaders = {
      Authorization: `Bearer ${token}`,
      'Impersonate-User': 'user:default/root',
      'Impersonate-Group': ['group:default/krypton-admins'],
    };
    const rawGet = await measure('raw GET (keep-alive, impersonated)', () =>
      send(secretUrl, { agent, headers: rawHeaders, expect: 200 }),
    );
    const transport = new KubeTransport(kc);
    const transportGet = await measure('KubeTransport GET (impersonated)', () =>
      transport.request({
        method: 'GET',
        path: `/api/v1/namespaces/${ns.name}/secrets/bench`,
        impersonate: {
          user: 'user:default/root',
          groups: ['group:default/krypton-admins'],
        },
      }),
    );
    transport.close();
    const auth = { Authorization: as('root') };
    const config = await measure('Krypton GET /config (auth only)', () =>
      send(`${krypton.url}/api/krypton/config`, {
        agent: backendAgent,
        headers: auth,
        expect: 200,
      }),
    );
    const kryptonUrl = `${krypton.url}/api/krypton/namespaces/${ns.name}/secrets/bench`;
    const kryptonGet = await measure('Krypton GET secret', () =>
      send(kryptonUrl, { agent: backendAgent, headers: auth, expect: 200 }),
    );
    // What a client without keep-alive (supertest, curl) sees: a new connection per request.
    const freshAgent = new http.Agent({ keepAlive: false });
    const kryptonGetFresh = await measure(
      'Krypton GET secret (new connection each)',
      () => send(kryptonUrl, { agent: freshAgent, headers: auth, expect: 200 }),
    );

    // PUT: each run writes a new value from the revision the previous run returned.
    let rv = JSON.parse(
      (
        await send(secretUrl, { agent, headers: rawHeaders, expect: 200 })
      ).toString(),
    ).metadata.resourceVersion as string;
    let n = 0;
    const rawPut = await measure(
      'raw PUT (keep-alive, impersonated)',
      async () => {
        const body = JSON.stringify({
          metadata: {
            name: 'bench',
            resourceVersion: rv,
            labels: { 'krypton.io/managed-by': 'krypton' },
          },
          stringData: { user: 'app', password: `raw-${n++}` },
        });
        const out = await send(secretUrl, {
          agent,
          method: 'PUT',
          headers: rawHeaders,
          body,
          expect: 200,
        });
        rv = JSON.parse(out.toString()).metadata.resourceVersion;
      },
      { runs: 150 },
    );

    const clock = new RoundTripClock();
    clock.install();
    const kryptonGetSplit = await clock.measure(
      'GET secret',
      () =>
        send(kryptonUrl, { agent: backendAgent, headers: auth, expect: 200 }),
      { warmup: 10, runs: 100 },
    );
    // Under the limit: a backend that keeps 100 versions, so none of these 80 updates prunes.
    const underUrl = `${roomy.url}/api/krypton/namespaces/${ns.name}/secrets/bench-under`;
    const update = (url: string) => {
      let loaded = '';
      return async () => {
        if (!loaded) {
          loaded = JSON.parse(
            (
              await send(url, {
                agent: backendAgent,
                headers: auth,
                expect: 200,
              })
            ).toString(),
          ).resourceVersion;
        }
        const out = await send(url, {
          agent: backendAgent,
          method: 'PUT',
          headers: auth,
          body: JSON.stringify({
            resourceVersion: loaded,
            data: { user: 'app', password: `krypton-${n++}` },
          }),
          expect: 200,
        });
        loaded = JSON.parse(out.toString()).resourceVersion;
      };
    };
    const putUnder = await clock.measure(
      'PUT under the limit (GET, POST, list, PUT)',
      update(underUrl),
      { warmup: 5, runs: 80 },
    );
    const hybridUrl = `${hybrid.url}/api/krypton/namespaces/${ns.name}/secrets/bench-hybrid`;
    const putHybrid = await clock.measure(
      'PUT under the limit, hybrid (+ dry-run PUT)',
      update(hybridUrl),
      { warmup: 5, runs: 80 },
    );
    // At the limit (20): every update also deletes the oldest snapshot, before the live PUT.
    const putAt = await clock.measure(
      'PUT at the limit (+ DELETE oldest)',
      update(kryptonUrl),
      { warmup: 25, runs: 150 },
    );
    // Restore of the newest version, at the limit: the snapshot's values are read too.
    let live = JSON.parse(
      (
        await send(kryptonUrl, {
          agent: backendAgent,
          headers: auth,
          expect: 200,
        })
      ).toString(),
    ) as { resourceVersion: string; version: number };
    const restoreAt = await clock.measure(
      'restore at the limit (+ GET snapshot)',
      async () => {
        const out = await send(`${kryptonUrl}/restore`, {
          agent: backendAgent,
          method: 'POST',
          headers: auth,
          body: JSON.stringify({
            version: live.version - 1,
            resourceVersion: live.resourceVersion,
          }),
          expect: 200,
        });
        live = JSON.parse(out.toString());
      },
      { warmup: 10, runs: 100 },
    );
    clock.uninstall();
    const asSample = (b: Breakdown) => ({ name: b.name, ms: b.totalMs });
    agent.destroy();

    process.stdout.write(
      `\n${formatTable(
        `Krypton latency, ${new Date().toISOString()}, ${
          require('node:os').cpus().length
        } cores (ratios against the raw request of the same kind)`,
        [
          { sample: rawGet },
          { sample: transportGet, baseline: rawGet },
          { sample: config, baseline: rawGet },
          { sample: kryptonGet, baseline: rawGet },
          { sample: kryptonGetFresh, baseline: rawGet },
          { sample: rawPut },
          { sample: asSample(putUnder), baseline: rawPut },
          { sample: asSample(putHybrid), baseline: rawPut },
          {
            sample: {
              ...asSample(putHybrid),
              name: '  hybrid against impersonation (the dry run)',
            },
            baseline: asSample(putUnder),
          },
          { sample: asSample(putAt), baseline: rawPut },
          { sample: asSample(restoreAt), baseline: rawPut },
        ],
      )}\n\n${formatColumns(
        'Where the time goes (medians, ms): before the first Kubernetes request (authentication, user info, the permission check where it is not concurrent), in Kubernetes round trips (overlaps once), and local work between and after them',
        ['operation', 'total', 'before', 'kube', 'trips', 'local'],
        [kryptonGetSplit, putUnder, putHybrid, putAt, restoreAt].map(
          breakdownRow,
        ),
      )}\n`,
    );
  });
});
