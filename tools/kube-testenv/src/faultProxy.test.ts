import http from 'node:http';
import { FaultProxy, startFaultProxy } from './faultProxy';
import { loopbackServingCertificate, testClusterState } from './testCluster';
import { useTestNamespace } from './testNamespace';
import {
  Credentials,
  KubeHttpInit,
  KubeHttpResponse,
  credentialsOf,
  kubeHttp,
} from './__testUtils__/kubeHttp';

jest.setTimeout(120_000);

const REVIEWS = '/apis/authentication.k8s.io/v1/selfsubjectreviews';

function createSecret(name: string): KubeHttpInit {
  return {
    method: 'POST',
    body: JSON.stringify({ metadata: { name }, stringData: { k: 'v' } }),
  };
}

/**
 * A request to the (plain-HTTP) proxy with a client deadline, as Krypton's transport makes them:
 * without a whole answer by then, the request is aborted and the promise rejects with ABORT_ERR.
 */
function kubeHttpWithin(
  credentials: Credentials,
  path: string,
  init: KubeHttpInit,
  deadlineMs: number,
): Promise<KubeHttpResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      new URL(path, credentials.server),
      {
        method: init.method ?? 'GET',
        agent: false,
        signal: AbortSignal.timeout(deadlineMs),
        headers: {
          Authorization: `Bearer ${credentials.token}`,
          'Content-Type': 'application/json',
        },
      },
      res => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

// The test run's apiserver (jest's global setup starts it), in a namespace of this file's own.
describe('the fault proxy, in front of a real apiserver', () => {
  const ns = useTestNamespace('kube-testenv-proxy');
  const secrets = () => `/api/v1/namespaces/${ns.name}/secrets`;
  let proxy: FaultProxy;
  let direct: Credentials;
  let viaProxy: Credentials;

  beforeAll(async () => {
    const state = testClusterState();
    direct = credentialsOf(state, 'admin');
    proxy = await startFaultProxy({
      target: state.server,
      caFile: state.caFile,
    });
    viaProxy = { server: proxy.url, token: direct.token };
  });
  afterEach(() => {
    proxy.clear();
    proxy.resetRecordings();
  });
  afterAll(async () => {
    await proxy?.close();
  });

  it('resetAfterForward: the write reaches the apiserver, yet the client only sees a reset', async () => {
    proxy.inject({
      method: 'POST',
      path: /\/secrets$/,
      action: { resetAfterForward: true },
      times: 1,
    });
    await expect(
      kubeHttp(viaProxy, secrets(), createSecret('written-then-reset')),
    ).rejects.toMatchObject({ code: 'ECONNRESET' });
    const stored = await kubeHttp(direct, `${secrets()}/written-then-reset`);
    expect(stored.status).toBe(200);
    // The rule is used up: the same request now passes and meets the Secret it created.
    const again = await kubeHttp(
      viaProxy,
      secrets(),
      createSecret('written-then-reset'),
    );
    expect(again.status).toBe(409);
  });

  it('reset: the request never reaches the apiserver', async () => {
    proxy.inject({ method: 'POST', action: { reset: true } });
    await expect(
      kubeHttp(viaProxy, secrets(), createSecret('never-written')),
    ).rejects.toMatchObject({ code: 'ECONNRESET' });
    const stored = await kubeHttp(direct, `${secrets()}/never-written`);
    expect(stored.status).toBe(404);
  });

  it('hold: the client gives up at its deadline, and the request never reaches the apiserver', async () => {
    const rule = {
      method: 'POST',
      path: /\/secrets$/,
      action: { hold: true as const },
      times: 1,
    };
    proxy.inject(rule);
    const started = Date.now();
    await expect(
      kubeHttpWithin(viaProxy, secrets(), createSecret('held'), 300),
    ).rejects.toMatchObject({ code: 'ABORT_ERR' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(rule.times).toBe(0);
    expect(proxy.seen).toEqual([`POST ${secrets()}`]);
    // Given time to arrive late, it still does not: the proxy dropped it with the client.
    await sleep(300);
    expect((await kubeHttp(direct, `${secrets()}/held`)).status).toBe(404);
    // The rule is used up: the same request now passes and creates the Secret.
    const again = await kubeHttp(viaProxy, secrets(), createSecret('held'));
    expect(again.status).toBe(201);
  });

  it('delayAfterForwardMs: the write lands at once, and its answer arrives late but whole', async () => {
    proxy.inject({
      method: 'POST',
      path: /\/secrets$/,
      action: { delayAfterForwardMs: 1500 },
      times: 1,
    });
    const started = Date.now();
    let answeredAt: number | undefined;
    const pending = kubeHttp(
      viaProxy,
      secrets(),
      createSecret('late-answer'),
    ).then(res => {
      answeredAt = Date.now();
      return res;
    });
    // Stored while its answer is still held at the proxy. The apiserver is shared with the other
    // test files, so the write is awaited rather than given a fixed time to land.
    let stored = await kubeHttp(direct, `${secrets()}/late-answer`);
    while (stored.status === 404 && Date.now() - started < 1000) {
      await sleep(50);
      stored = await kubeHttp(direct, `${secrets()}/late-answer`);
    }
    expect({
      status: stored.status,
      answered: answeredAt !== undefined,
    }).toEqual({ status: 200, answered: false });
    const res = await pending;
    expect(answeredAt! - started).toBeGreaterThanOrEqual(1500);
    expect(res.status).toBe(201);
    expect(JSON.parse(res.body)).toMatchObject({
      kind: 'Secret',
      metadata: {
        name: 'late-answer',
        uid: JSON.parse(stored.body).metadata.uid,
      },
    });
  });

  it('delayAfterForwardMs past the deadline: the write lands, yet the client times out', async () => {
    proxy.inject({
      method: 'POST',
      path: /\/secrets$/,
      action: { delayAfterForwardMs: 60_000 },
      times: 1,
    });
    const started = Date.now();
    await expect(
      kubeHttpWithin(viaProxy, secrets(), createSecret('answer-lost'), 300),
    ).rejects.toMatchObject({ code: 'ABORT_ERR' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect((await kubeHttp(direct, `${secrets()}/answer-lost`)).status).toBe(
      200,
    );
    // The proxy is not held up by the dropped answer: the next request passes at once.
    const again = await kubeHttp(
      viaProxy,
      secrets(),
      createSecret('answer-lost'),
    );
    expect(again.status).toBe(409);
  });

  it('records every header line on its own and forwards them unchanged', async () => {
    const res = await kubeHttp(viaProxy, REVIEWS, {
      method: 'POST',
      body: JSON.stringify({
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'SelfSubjectReview',
      }),
      headers: {
        'Impersonate-User': 'alice',
        'Impersonate-Group': ['team-a', 'team-b'],
      },
    });
    expect(res.status).toBe(201);
    // Joined into one line, the two groups would reach the apiserver as one "team-a, team-b".
    expect(JSON.parse(res.body).status.userInfo).toMatchObject({
      username: 'alice',
      groups: ['team-a', 'team-b', 'system:authenticated'],
    });
    expect(proxy.seen).toEqual([`POST ${REVIEWS}`]);
    expect(proxy.requests).toHaveLength(1);
    const [recorded] = proxy.requests;
    expect(recorded.method).toBe('POST');
    expect(recorded.path).toBe(REVIEWS);
    expect(recorded.headers['impersonate-user']).toEqual(['alice']);
    expect(recorded.headers['impersonate-group']).toEqual(['team-a', 'team-b']);
    expect(recorded.headers.authorization).toEqual([`Bearer ${direct.token}`]);
  });

  it('keeps the recordings through clear() and empties them with resetRecordings()', async () => {
    proxy.inject({ action: { respond: { status: 418, body: '{}' } } });
    const seen = proxy.seen;
    const requests = proxy.requests;
    expect((await kubeHttp(viaProxy, '/version')).status).toBe(418);
    proxy.clear();
    expect((await kubeHttp(viaProxy, '/version')).status).toBe(200);
    expect(proxy.seen).toEqual(['GET /version', 'GET /version']);
    expect(proxy.requests.map(r => `${r.method} ${r.path}`)).toEqual(
      proxy.seen,
    );
    proxy.resetRecordings();
    // Emptied in place, so that references taken earlier see it too.
    expect(seen).toEqual([]);
    expect(requests).toEqual([]);
  });

  it('serves HTTPS with a certificate the cluster CA signed, for clients that refuse plain HTTP', async () => {
    const state = testClusterState();
    const tls = await startFaultProxy({
      target: state.server,
      caFile: state.caFile,
      serving: loopbackServingCertificate(),
    });
    try {
      expect(tls.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      // The cluster's own CA bundle verifies it, as a kubeconfig's certificate-authority would.
      const answer = await kubeHttp(
        { server: tls.url, ca: direct.ca, token: direct.token },
        `${secrets()}/absent`,
      );
      expect(answer.status).toBe(404);
      expect(tls.seen).toEqual([`GET ${secrets()}/absent`]);
      // A client without the cluster's CA refuses it.
      await expect(
        kubeHttp({ server: tls.url, token: direct.token }, '/version'),
      ).rejects.toMatchObject({ code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' });
    } finally {
      await tls.close();
    }
  });
});
