import {
  KryptonError,
  DEPLOYMENTS,
  KubeApiError,
  SECRETS,
  fromKubeError,
} from '@krypton/core';
import { requireWebCrypto, WEB_CRYPTO_MISSING } from '../engines';
import {
  ClusterRequest,
  ClusterRequestParams,
  KubeQuery,
} from './clusterRequest';
import { HeadlampKubeGateway } from './HeadlampKubeGateway';
import { kubeErrorOfRejection } from './headlampSend';

interface Call {
  path: string;
  params: ClusterRequestParams;
  query?: KubeQuery;
}

/** A clusterRequest that records its calls and answers each with the next scripted outcome. */
function scripted(...outcomes: Array<() => Promise<unknown>>) {
  const calls: Call[] = [];
  const request: ClusterRequest = (path, params, query) => {
    calls.push({ path, params, query });
    const next = outcomes.shift();
    if (!next) throw new Error('unexpected request');
    return next();
  };
  return { calls, request };
}

/** What clusterRequest rejects a failed status with: an Error carrying only the status. */
const rejected =
  (status: number, text = 'upstream text') =>
  () =>
    Promise.reject(
      Object.assign(new Error(`Status ${status} - ${text}`), { status }),
    );
const json = (status: number, body: unknown) => () =>
  Promise.resolve(new Response(JSON.stringify(body), { status }));
const secret = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 's', namespace: 'ns', uid: 'u', resourceVersion: '7' },
  data: { k: 'dg==' },
};

async function failure(promise: Promise<unknown>): Promise<KubeApiError> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof KubeApiError) return e;
    throw e;
  }
  throw new Error('expected a rejection');
}

describe('HeadlampKubeGateway requests', () => {
  it('sends through the named cluster with the server gateway paths, media types and preconditions', async () => {
    const { calls, request } = scripted(
      json(200, {
        kind: 'PartialObjectMetadataList',
        metadata: {},
        items: null,
      }),
      json(200, secret),
      json(200, secret),
      json(200, { kind: 'Status' }),
    );
    const gateway = new HeadlampKubeGateway({ cluster: 'prod', request });
    const page = await gateway.listMetadata(SECRETS, 'a b', {
      labelSelector: 'x=y,z',
      limit: 100,
      maxBytes: 1000,
    });
    expect(page).toEqual({ items: [], continueToken: undefined, bytes: 63 });
    await gateway.dryRunReplace(SECRETS, 'ns', 's', secret);
    await gateway.patch(DEPLOYMENTS, 'ns', 'd', [
      { op: 'test', path: '/metadata/uid', value: 'u' },
    ]);
    expect(
      await gateway.delete(SECRETS, 'ns', 's', {
        uid: 'u',
        resourceVersion: '7',
      }),
    ).toEqual({ gone: true });

    expect(calls.map(c => [c.params.method, c.path, c.query])).toEqual([
      [
        'GET',
        '/api/v1/namespaces/a%20b/secrets',
        { labelSelector: 'x=y,z', limit: '100' },
      ],
      [
        'PUT',
        '/api/v1/namespaces/ns/secrets/s',
        { dryRun: 'All', fieldManager: 'krypton' },
      ],
      [
        'PATCH',
        '/apis/apps/v1/namespaces/ns/deployments/d',
        { fieldManager: 'krypton' },
      ],
      ['DELETE', '/api/v1/namespaces/ns/secrets/s', undefined],
    ]);
    for (const call of calls) {
      expect(call.params).toMatchObject({
        cluster: 'prod',
        isJSON: false,
        autoLogoutOnAuthError: false,
        timeout: 30_000,
      });
    }
    expect(calls[0].params.headers).toEqual({
      Accept:
        'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1',
    });
    expect(calls[0].params.body).toBeUndefined();
    expect(calls[1].params.headers['Content-Type']).toBe('application/json');
    expect(JSON.parse(calls[1].params.body!)).toEqual(secret);
    expect(calls[2].params.headers['Content-Type']).toBe(
      'application/json-patch+json',
    );
    expect(JSON.parse(calls[3].params.body!)).toEqual({
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      preconditions: { uid: 'u', resourceVersion: '7' },
    });
  });

  it("passes on the API server's remainingItemCount only when it is a count", async () => {
    const page = (metadata: Record<string, unknown>) =>
      json(200, { kind: 'SecretList', metadata, items: [] });
    const { request } = scripted(
      page({ continue: 'next', remainingItemCount: 250 }),
      page({ remainingItemCount: -1 }),
      page({ remainingItemCount: '250' }),
    );
    const gateway = new HeadlampKubeGateway({ cluster: 'c', request });
    const read = () =>
      gateway.list(SECRETS, 'ns', { limit: 100, maxBytes: 65536 });
    expect(await read()).toMatchObject({
      continueToken: 'next',
      remainingItemCount: 250,
    });
    expect(await read()).not.toHaveProperty('remainingItemCount');
    expect(await read()).not.toHaveProperty('remainingItemCount');
  });

  it('refuses a replace without preconditions before sending anything', async () => {
    const { calls, request } = scripted();
    const gateway = new HeadlampKubeGateway({ cluster: 'c', request });
    await expect(
      gateway.replace(SECRETS, 'ns', 's', {
        ...secret,
        metadata: { name: 's', uid: 'u' },
      }),
    ).rejects.toThrow(/preconditions/);
    expect(calls).toEqual([]);
  });
});

describe('HeadlampKubeGateway failures', () => {
  it('rebuilds the 409 reasons that Headlamp drops: AlreadyExists for a create, Conflict otherwise', async () => {
    const { request } = scripted(rejected(409), rejected(409), rejected(409));
    const gateway = new HeadlampKubeGateway({ cluster: 'c', request });
    const created = await failure(gateway.create(SECRETS, 'ns', secret));
    expect(created).toMatchObject({ status: 409, reason: 'AlreadyExists' });
    expect(fromKubeError(created).message).toBe(
      'A Secret with this name already exists.',
    );
    const stale = await failure(gateway.replace(SECRETS, 'ns', 's', secret));
    expect(stale).toMatchObject({ status: 409, reason: 'Conflict' });
    expect(fromKubeError(stale).code).toBe('conflict');
    expect(
      await failure(
        gateway.delete(SECRETS, 'ns', 's', { uid: 'u', resourceVersion: '1' }),
      ),
    ).toMatchObject({ status: 409, reason: 'Conflict' });
  });

  it.each([
    [408, 0, 'Timeout'],
    [502, 0, 'Network'],
    [403, 403, undefined],
    [404, 404, undefined],
    [422, 422, undefined],
    [429, 429, undefined],
    [503, 503, undefined],
  ])(
    'maps a rejection with status %i to KubeApiError(%i, %s), without upstream text',
    async (from, status, reason) => {
      const error = kubeErrorOfRejection(
        Object.assign(
          new Error('Forbidden - secrets "canary-x" is forbidden'),
          {
            status: from,
          },
        ),
        'GET',
      );
      expect(error).toBeInstanceOf(KubeApiError);
      expect({ status: error.status, reason: error.reason }).toEqual({
        status,
        reason,
      });
      expect(error.message).not.toContain('canary');
    },
  );

  it('treats anything thrown without a status as no answer', () => {
    expect(
      kubeErrorOfRejection(new TypeError('fetch failed'), 'PUT'),
    ).toMatchObject({
      status: 0,
      reason: 'Network',
    });
    expect(kubeErrorOfRejection('nonsense', 'GET')).toMatchObject({
      status: 0,
      reason: 'Network',
    });
  });

  it('abandons an answer over its byte budget', async () => {
    const { request } = scripted(() =>
      Promise.resolve(new Response('x'.repeat(2048), { status: 200 })),
    );
    const gateway = new HeadlampKubeGateway({ cluster: 'c', request });
    expect(
      await failure(gateway.list(SECRETS, 'ns', { limit: 1, maxBytes: 1024 })),
    ).toMatchObject({ status: 0, reason: 'ResponseTooLarge' });
  });

  it('abandons an answer whose body does not end by the deadline', async () => {
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"kind":'));
      },
      cancel() {
        cancelled = true;
      },
    });
    const { request } = scripted(() =>
      Promise.resolve(new Response(endless, { status: 200 })),
    );
    const gateway = new HeadlampKubeGateway({
      cluster: 'c',
      request,
      deadlineMs: 100,
    });
    expect(await failure(gateway.get(SECRETS, 'ns', 's'))).toMatchObject({
      status: 0,
      reason: 'Timeout',
    });
    expect(cancelled).toBe(true);
  });

  it('reports an unusable 2xx as a malformed answer, as the server gateway does', async () => {
    const { request } = scripted(
      () => Promise.resolve(new Response('not json', { status: 200 })),
      json(200, { kind: 'SecretList', items: [] }),
      json(200, { ...secret, kind: 'Secret' }),
      () => Promise.resolve({ ok: true }),
    );
    const gateway = new HeadlampKubeGateway({ cluster: 'c', request });
    for (const call of [
      () => gateway.get(SECRETS, 'ns', 's'),
      // A list without its metadata cannot say whether more pages follow.
      () => gateway.list(SECRETS, 'ns', { limit: 1, maxBytes: 1024 }),
      // A proxy that ignored the metadata Accept header would have sent the values.
      () => gateway.getMetadata(SECRETS, 'ns', 's'),
      () => gateway.get(SECRETS, 'ns', 's'),
    ]) {
      expect(await failure(call())).toMatchObject({
        status: 0,
        reason: 'MalformedResponse',
      });
    }
  });
});

describe('requireWebCrypto', () => {
  it('refuses a page without crypto.subtle (plain HTTP) with a message, and passes with it', () => {
    expect(() => requireWebCrypto({})).toThrow(WEB_CRYPTO_MISSING);
    expect(() => requireWebCrypto({ crypto: {} })).toThrow(KryptonError);
    expect(() => requireWebCrypto()).not.toThrow();
  });
});
