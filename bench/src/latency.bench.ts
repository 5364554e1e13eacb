import {
  kubeConfigFor,
  testClusterState,
  useTestNamespace,
} from '@krypton/kube-testenv';
import { AdminClient } from '@krypton/plugin-krypton-backend/src/__testUtils__/rbac';
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
import { formatTable, measure } from './measure';

// GET and PUT latency of one Secret through Krypton over HTTP, against raw keep-alive requests of
// the same Secret on the same kube-apiserver, measured in one run.
describe('latency', () => {
  const ns = useTestNamespace('krypton-bench');
  const admin = new AdminClient();
  let krypton: KryptonTestBackend;
  const kubeAgent = new https.Agent({ keepAlive: true });
  const backendAgent = new http.Agent({ keepAlive: true });

  beforeAll(async () => {
    krypton = await startKryptonBackend();
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
  });
  afterAll(async () => {
    await krypton.stop();
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
    const kryptonPut = await measure(
      'Krypton PUT secret (data change)',
      async () => {
        const out = await send(kryptonUrl, {
          agent: backendAgent,
          method: 'PUT',
          headers: auth,
          body: JSON.stringify({
            resourceVersion: rv,
            data: { user: 'app', password: `krypton-${n++}` },
          }),
          expect: 200,
        });
        rv = JSON.parse(out.toString()).resourceVersion;
      },
      { runs: 150 },
    );
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
          { sample: kryptonPut, baseline: rawPut },
        ],
      )}\n`,
    );
  });
});
