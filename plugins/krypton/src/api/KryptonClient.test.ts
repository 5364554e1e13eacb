import { ResponseError } from '@backstage/errors';
import { registerMswTestHooks } from '@backstage/test-utils';
import {
  SecretWriteAnswer,
  StorageRewriteRunStatus,
  hasValues,
} from '@krypton/core';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { ChangeRequestedError, KryptonClient } from './KryptonClient';

const server = setupServer();

describe('KryptonClient', () => {
  registerMswTestHooks(server);
  const baseUrl = 'http://backstage.test/api/krypton';
  const client = new KryptonClient({
    discoveryApi: { getBaseUrl: async () => baseUrl },
    fetchApi: { fetch: (input, init) => fetch(input, init) },
  });

  it('reads the backend health', async () => {
    server.use(
      http.get(`${baseUrl}/health`, () => HttpResponse.json({ status: 'ok' })),
    );
    await expect(client.getHealth()).resolves.toEqual({ status: 'ok' });
  });

  it("raises the backend's envelope message as a ResponseError", async () => {
    server.use(
      http.get(`${baseUrl}/health`, () =>
        HttpResponse.json(
          { error: 'Kubernetes is unavailable. Try again later.' },
          { status: 503, statusText: 'Service Unavailable' },
        ),
      ),
    );
    const error = await client.getHealth().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseError);
    expect(error).toMatchObject({
      name: 'ResponseError',
      message: 'Kubernetes is unavailable. Try again later.',
      statusCode: 503,
      statusText: 'Service Unavailable',
      response: { status: 503, url: `${baseUrl}/health` },
      body: {
        error: {
          name: 'KryptonError',
          message: 'Kubernetes is unavailable. Try again later.',
        },
        response: { statusCode: 503 },
      },
      cause: {
        name: 'KryptonError',
        message: 'Kubernetes is unavailable. Try again later.',
      },
    });
    expect(String(error)).toBe(
      'ResponseError: Kubernetes is unavailable. Try again later.',
    );
  });

  it('keeps the envelope message when the body has other fields too', async () => {
    server.use(
      http.get(`${baseUrl}/health`, () =>
        HttpResponse.json(
          { historyLimit: 0, error: 'KRYPTON_HISTORY_LIMIT is invalid' },
          { status: 503 },
        ),
      ),
    );
    await expect(client.getHealth()).rejects.toMatchObject({
      message: 'KRYPTON_HISTORY_LIMIT is invalid',
      statusCode: 503,
    });
  });

  it('falls back to the generic ResponseError for a non-JSON body', async () => {
    server.use(
      http.get(
        `${baseUrl}/health`,
        () =>
          new HttpResponse('<html>Bad Gateway</html>', {
            status: 502,
            statusText: 'Bad Gateway',
            headers: { 'content-type': 'text/html' },
          }),
      ),
    );
    const error = await client.getHealth().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseError);
    expect(error).toMatchObject({
      message: 'Request failed with 502 Bad Gateway',
      statusCode: 502,
      body: {
        error: {
          name: 'Error',
          message:
            'Request failed with status 502 Bad Gateway, <html>Bad Gateway</html>',
        },
        response: { statusCode: 502 },
      },
    });
  });

  it.each([
    ['a non-string error', { error: { code: 503 } }],
    ['an empty error', { error: '' }],
    ['a JSON array', ['Kubernetes is unavailable']],
  ])('falls back to the generic ResponseError for %s', async (_, body) => {
    server.use(
      http.get(`${baseUrl}/health`, () =>
        HttpResponse.json(body, {
          status: 503,
          statusText: 'Service Unavailable',
        }),
      ),
    );
    await expect(client.getHealth()).rejects.toMatchObject({
      name: 'ResponseError',
      message: 'Request failed with 503 Service Unavailable',
      statusCode: 503,
    });
  });

  it("keeps Backstage's own error body, such as the auth middleware's", async () => {
    const body = {
      error: { name: 'AuthenticationError', message: 'Missing credentials' },
      request: { method: 'GET', url: '/api/krypton/health' },
      response: { statusCode: 401 },
    };
    server.use(
      http.get(`${baseUrl}/health`, () =>
        HttpResponse.json(body, { status: 401, statusText: 'Unauthorized' }),
      ),
    );
    await expect(client.getHealth()).rejects.toMatchObject({
      message: 'Request failed with 401 Unauthorized',
      statusCode: 401,
      body,
      cause: { name: 'AuthenticationError', message: 'Missing credentials' },
    });
  });

  describe('routes', () => {
    const result = (status: string) => ({
      status,
      matched: 1,
      requested:
        status === 'failed' ? [] : [{ kind: 'Deployment', name: 'api' }],
      failures: [],
      discoveryFailures: [],
      message: 'm',
      note: 'n',
      ...(status === 'failed' ? { error: 'm' } : {}),
    });

    it.each([
      [200, 'requested'],
      [207, 'partial'],
      [503, 'failed'],
    ])(
      'returns the typed restart result of a %i attempt',
      async (code, status) => {
        server.use(
          http.post(
            `${baseUrl}/namespaces/ns/secrets/db/restart-consumers`,
            () => HttpResponse.json(result(status), { status: code }),
          ),
        );
        await expect(
          client.restartConsumers({ namespace: 'ns', name: 'db' }),
        ).resolves.toEqual(result(status));
      },
    );

    it.each([
      [403, 'Restarting apps is disabled on this deployment'],
      [503, 'Kubernetes is unavailable. Try again later.'],
    ])(
      'raises a preflight %i as a ResponseError with its message',
      async (code, error) => {
        server.use(
          http.post(
            `${baseUrl}/namespaces/ns/secrets/db/restart-consumers`,
            () => HttpResponse.json({ error }, { status: code }),
          ),
        );
        await expect(
          client.restartConsumers({ namespace: 'ns', name: 'db' }),
        ).rejects.toMatchObject({
          name: 'ResponseError',
          message: error,
          statusCode: code,
        });
      },
    );

    it('names the cluster only when given, and encodes every segment', async () => {
      const seen: string[] = [];
      server.use(
        http.get(`${baseUrl}/*`, ({ request }) => {
          seen.push(new URL(request.url).pathname);
          return HttpResponse.json({ items: [] });
        }),
      );
      await client.listSecrets({ namespace: 'ns' });
      await client.listVersions({
        cluster: 'prod eu',
        namespace: 'ns',
        name: 'a.b',
      });
      expect(seen).toEqual([
        '/api/krypton/namespaces/ns/secrets',
        '/api/krypton/clusters/prod%20eu/namespaces/ns/secrets/a.b/versions',
      ]);
    });

    it('sends the revision and keepHistory of a delete in the query, and JSON bodies', async () => {
      let query = '';
      let body: unknown;
      server.use(
        http.delete(`${baseUrl}/namespaces/ns/secrets/db`, ({ request }) => {
          query = new URL(request.url).search;
          return HttpResponse.json(
            { status: 'pending', history: 'kept' },
            { status: 202 },
          );
        }),
        http.post(
          `${baseUrl}/namespaces/ns/secrets/db/restore`,
          async ({ request }) => {
            body = await request.json();
            return HttpResponse.json({ name: 'db' });
          },
        ),
      );
      await expect(
        client.deleteSecret(
          { namespace: 'ns', name: 'db' },
          { resourceVersion: '12/3', keepHistory: true },
        ),
      ).resolves.toEqual({ status: 'pending', history: 'kept' });
      expect(query).toBe('?resourceVersion=12%2F3&keepHistory=true');
      await client.restoreVersion(
        { namespace: 'ns', name: 'db' },
        { version: 2, resourceVersion: '5' },
      );
      expect(body).toEqual({ version: 2, resourceVersion: '5' });
    });

    it("sends the reason for changing an owned Secret: in the body of update, restore and adopt, in a delete's query", async () => {
      const reason = 'Vault is down; rotating the leaked key by hand & now';
      const bodies: Record<string, unknown> = {};
      let query = '';
      let deleteBody: unknown;
      const record =
        (name: string) =>
        async ({ request }: { request: Request }) => {
          bodies[name] = await request.json();
          return HttpResponse.json({ name: 'db' });
        };
      server.use(
        http.put(`${baseUrl}/namespaces/ns/secrets/db`, record('update')),
        http.post(
          `${baseUrl}/namespaces/ns/secrets/db/restore`,
          record('restore'),
        ),
        http.post(`${baseUrl}/namespaces/ns/secrets/db/adopt`, record('adopt')),
        http.delete(
          `${baseUrl}/namespaces/ns/secrets/db`,
          async ({ request }) => {
            query = new URL(request.url).search;
            deleteBody = await request.json();
            return HttpResponse.json({ status: 'deleted', history: 'cleaned' });
          },
        ),
      );
      const at = { namespace: 'ns', name: 'db' };
      await client.updateSecret(at, {
        resourceVersion: '5',
        data: { a: 'b' },
        ownedEditReason: reason,
      });
      await client.restoreVersion(at, {
        version: 2,
        resourceVersion: '5',
        ownedEditReason: reason,
      });
      await client.adoptSecret(at, {
        resourceVersion: '5',
        ownedEditReason: reason,
      });
      await client.deleteSecret(at, {
        resourceVersion: '5',
        keepHistory: false,
        ownedEditReason: reason,
      });
      expect(bodies).toEqual({
        update: {
          resourceVersion: '5',
          data: { a: 'b' },
          ownedEditReason: reason,
        },
        restore: { version: 2, resourceVersion: '5', ownedEditReason: reason },
        adopt: { resourceVersion: '5', ownedEditReason: reason },
      });
      // The delete's reason goes in its body, never in the URL.
      expect(deleteBody).toEqual({ ownedEditReason: reason });
      expect([...new URLSearchParams(query).keys()]).toEqual([
        'resourceVersion',
        'keepHistory',
      ]);
    });

    it('returns each write answer as sent: with values, or redacted without them', async () => {
      const meta = {
        cluster: 'local',
        namespace: 'ns',
        name: 'db',
        uid: 'uid-1',
        resourceVersion: '6',
        type: 'Opaque',
        immutable: false,
        managed: true,
        version: 4,
        access: { owners: [], editors: [], viewers: [] },
        keys: ['password'],
        binaryKeys: [],
      };
      const redacted = { ...meta, valuesOmitted: true };
      const full = { ...meta, data: { password: 'pw' }, binaryData: {} };
      const seen: string[] = [];
      server.use(
        http.put(`${baseUrl}/namespaces/ns/secrets/db`, () => {
          seen.push('PUT');
          return HttpResponse.json(redacted);
        }),
        http.post(`${baseUrl}/namespaces/ns/secrets/db/restore`, () => {
          seen.push('restore');
          return HttpResponse.json(redacted);
        }),
        http.post(`${baseUrl}/namespaces/ns/secrets`, () => {
          seen.push('POST');
          return HttpResponse.json(full, { status: 201 });
        }),
      );
      const location = { namespace: 'ns', name: 'db' };

      const updated: SecretWriteAnswer = await client.updateSecret(location, {
        resourceVersion: '5',
        description: 'd',
      });
      expect(updated).toEqual(redacted);
      expect(hasValues(updated)).toBe(false);
      expect(updated).not.toHaveProperty('data');

      const restored: SecretWriteAnswer = await client.restoreVersion(
        location,
        { version: 2, resourceVersion: '5' },
      );
      expect(restored).toEqual(redacted);
      expect(hasValues(restored)).toBe(false);

      const created: SecretWriteAnswer = await client.createSecret(
        { namespace: 'ns' },
        { name: 'db', type: 'Opaque', data: { password: 'pw' } },
      );
      expect(created).toEqual(full);
      expect(hasValues(created)).toBe(true);
      expect(seen).toEqual(['PUT', 'restore', 'POST']);
    });

    it('raises the change request that a write became where approval is needed, for every write', async () => {
      const changeRequest = {
        id: '0b6f3c1e-2a4d-4c8e-9f10-3d5a7b9c1e2f',
        state: 'pending',
        policy: { requiredApprovals: 2 },
      };
      server.use(
        http.put(`${baseUrl}/namespaces/ns/secrets/db`, () =>
          HttpResponse.json({ changeRequest }, { status: 202 }),
        ),
        http.post(`${baseUrl}/namespaces/ns/secrets/db/restore`, () =>
          HttpResponse.json({ changeRequest }, { status: 202 }),
        ),
        http.delete(`${baseUrl}/namespaces/ns/secrets/db`, () =>
          HttpResponse.json({ changeRequest }, { status: 202 }),
        ),
      );
      const location = { namespace: 'ns', name: 'db' };
      const refusals = await Promise.all([
        client
          .updateSecret(location, { resourceVersion: '5', description: 'd' })
          .catch((e: unknown) => e),
        client
          .restoreVersion(location, { version: 2, resourceVersion: '5' })
          .catch((e: unknown) => e),
        client
          .deleteSecret(location, { resourceVersion: '5' })
          .catch((e: unknown) => e),
      ]);
      for (const error of refusals) {
        expect(error).toBeInstanceOf(ChangeRequestedError);
        expect(error).toMatchObject({
          changeRequest,
          message: `Changes to this Secret need approval: nothing was written, and your change now waits for 2 approval(s) as change request ${changeRequest.id}.`,
        });
      }
    });

    it('sends the reason for a change in the body of every write, never in the address', async () => {
      const seen: Array<{ method: string; url: string; body: unknown }> = [];
      const record = async ({ request }: { request: Request }) => {
        const text = await request.text();
        seen.push({
          method: request.method,
          url: request.url,
          body: text ? JSON.parse(text) : undefined,
        });
        return HttpResponse.json(
          {
            changeRequest: {
              id: 'x',
              state: 'pending',
              policy: { requiredApprovals: 1 },
            },
          },
          { status: 202 },
        );
      };
      server.use(
        http.put(`${baseUrl}/namespaces/ns/secrets/db`, record),
        http.post(`${baseUrl}/namespaces/ns/secrets/db/restore`, record),
        http.delete(`${baseUrl}/namespaces/ns/secrets/db`, record),
      );
      const location = { namespace: 'ns', name: 'db' };
      const why = 'rotate: leaked in a log';
      await client
        .updateSecret(location, {
          resourceVersion: '5',
          description: 'd',
          changeReason: why,
        })
        .catch(() => undefined);
      await client
        .restoreVersion(location, {
          version: 2,
          resourceVersion: '5',
          changeReason: why,
        })
        .catch(() => undefined);
      await client
        .deleteSecret(location, { resourceVersion: '5', changeReason: why })
        .catch(() => undefined);
      await client
        .deleteSecret(location, { resourceVersion: '6' })
        .catch(() => undefined);
      expect(seen.map(s => [s.method, s.body])).toEqual([
        ['PUT', { resourceVersion: '5', description: 'd', changeReason: why }],
        ['POST', { version: 2, resourceVersion: '5', changeReason: why }],
        ['DELETE', { changeReason: why }],
        ['DELETE', undefined],
      ]);
      for (const { url } of seen)
        expect(decodeURIComponent(url)).not.toContain('rotate');
    });

    it('lists, reads and decides change requests under their Secret, and lists those waiting per cluster', async () => {
      const request = { id: 'r/1', state: 'pending' };
      const seen: Array<{ method: string; path: string; body: unknown }> = [];
      const record = async ({ request: req }: { request: Request }) => {
        const text = await req.text();
        seen.push({
          method: req.method,
          path: new URL(req.url).pathname + new URL(req.url).search,
          body: text ? JSON.parse(text) : undefined,
        });
        return HttpResponse.json(
          req.method === 'GET' && !new URL(req.url).pathname.endsWith('%2F1')
            ? { items: [request] }
            : request,
        );
      };
      server.use(
        http.get(
          `${baseUrl}/clusters/c%201/namespaces/ns/secrets/db/change-requests`,
          record,
        ),
        http.get(
          `${baseUrl}/clusters/c%201/namespaces/ns/secrets/db/change-requests/:id`,
          record,
        ),
        http.get(
          `${baseUrl}/clusters/c%201/namespaces/ns/secrets/db/change-requests/:id/diff`,
          record,
        ),
        http.post(
          `${baseUrl}/clusters/c%201/namespaces/ns/secrets/db/change-requests/:id/:action`,
          record,
        ),
        http.get(`${baseUrl}/change-requests`, record),
        http.get(`${baseUrl}/clusters/c%201/change-requests`, record),
      );
      const location = { cluster: 'c 1', namespace: 'ns', name: 'db' };
      expect(await client.listChangeRequests(location)).toEqual({
        items: [request],
      });
      expect(await client.getChangeRequest(location, 'r/1')).toEqual(request);
      await client.getChangeRequestDiff(location, 'r/1');
      await client.getChangeRequestDiff(location, 'r/1', {
        keys: ['a b', 'c'],
      });
      expect(await client.waitingChangeRequests({})).toEqual({
        items: [request],
      });
      expect(await client.waitingChangeRequests({ cluster: 'c 1' })).toEqual({
        items: [request],
      });
      await client.decideChangeRequest(location, 'r/1', { action: 'approve' });
      await client.decideChangeRequest(location, 'r/1', {
        action: 'reject',
        comment: 'no',
      });
      await client.decideChangeRequest(location, 'r/1', {
        action: 'withdraw',
        comment: 'moot',
      });
      await client.decideChangeRequest(location, 'r/1', {
        action: 'bypass',
        reason: 'outage',
      });
      const root =
        '/api/krypton/clusters/c%201/namespaces/ns/secrets/db/change-requests';
      expect(
        seen.map(s => [
          s.method,
          s.path.replace(/^.*\/api\/krypton/, '/api/krypton'),
          s.body,
        ]),
      ).toEqual([
        ['GET', root, undefined],
        ['GET', `${root}/r%2F1`, undefined],
        ['GET', `${root}/r%2F1/diff`, undefined],
        ['GET', `${root}/r%2F1/diff?keys=a+b%2Cc`, undefined],
        ['GET', '/api/krypton/change-requests', undefined],
        ['GET', '/api/krypton/clusters/c%201/change-requests', undefined],
        ['POST', `${root}/r%2F1/approve`, {}],
        ['POST', `${root}/r%2F1/reject`, { comment: 'no' }],
        ['POST', `${root}/r%2F1/withdraw`, { comment: 'moot' }],
        ['POST', `${root}/r%2F1/bypass`, { reason: 'outage' }],
      ]);
    });

    it('lists the deleted Secrets of the default or a named cluster, encoding each segment', async () => {
      const items = [
        {
          name: 'db',
          uid: '0b1c2d3e-0000-4000-8000-000000000001',
          type: 'Opaque',
          deletedBy: 'kubernetes:admin',
          deletedAt: '2026-12-01T10:00:00Z',
          nameTaken: false,
          versions: [],
        },
      ];
      const seen: string[] = [];
      server.use(
        http.get(`${baseUrl}/*`, ({ request }) => {
          seen.push(new URL(request.url).pathname);
          return HttpResponse.json({ items });
        }),
      );
      await expect(
        client.listDeletedSecrets({ namespace: 'ns' }),
      ).resolves.toEqual({ items });
      await client.listDeletedSecrets({ cluster: 'prod eu', namespace: 'n/s' });
      expect(seen).toEqual([
        '/api/krypton/namespaces/ns/deleted-secrets',
        '/api/krypton/clusters/prod%20eu/namespaces/n%2Fs/deleted-secrets',
      ]);
    });

    it('raises a refused list of deleted Secrets as a ResponseError', async () => {
      server.use(
        http.get(`${baseUrl}/namespaces/ns/deleted-secrets`, () =>
          HttpResponse.json(
            { error: 'Access denied.' },
            { status: 403, statusText: 'Forbidden' },
          ),
        ),
      );
      await expect(
        client.listDeletedSecrets({ namespace: 'ns' }),
      ).rejects.toMatchObject({
        name: 'ResponseError',
        statusCode: 403,
        message: 'Access denied.',
      });
    });

    it('recreates a deleted Secret with its uid and version as a JSON body', async () => {
      const created = {
        cluster: 'prod',
        namespace: 'ns',
        name: 'a.b c',
        uid: 'uid-new',
        resourceVersion: '1',
        type: 'Opaque',
        immutable: false,
        managed: true,
        version: 1,
        access: { owners: [], editors: [], viewers: [] },
        keys: ['password'],
        binaryKeys: [],
        valuesOmitted: true,
      };
      const requests: { path: string; type: string | null; body: unknown }[] =
        [];
      server.use(
        http.post(`${baseUrl}/*`, async ({ request }) => {
          requests.push({
            path: new URL(request.url).pathname,
            type: request.headers.get('content-type'),
            body: await request.json(),
          });
          return HttpResponse.json(created, { status: 201 });
        }),
      );
      const request = {
        uid: '0b1c2d3e-0000-4000-8000-000000000001',
        version: 2,
      };
      await expect(
        client.recreateSecret(
          { cluster: 'prod', namespace: 'ns', name: 'a.b c' },
          request,
        ),
      ).resolves.toEqual(created);
      await client.recreateSecret({ namespace: 'ns', name: 'db' }, request);
      expect(requests).toEqual([
        {
          path: '/api/krypton/clusters/prod/namespaces/ns/deleted-secrets/a.b%20c/recreate',
          type: 'application/json',
          body: request,
        },
        {
          path: '/api/krypton/namespaces/ns/deleted-secrets/db/recreate',
          type: 'application/json',
          body: request,
        },
      ]);
    });

    it("raises a refused recreate with the backend's message", async () => {
      server.use(
        http.post(`${baseUrl}/namespaces/ns/deleted-secrets/db/recreate`, () =>
          HttpResponse.json(
            { error: 'A Secret with this name already exists.' },
            { status: 409, statusText: 'Conflict' },
          ),
        ),
      );
      const error = await client
        .recreateSecret(
          { namespace: 'ns', name: 'db' },
          { uid: '0b1c2d3e-0000-4000-8000-000000000001', version: 1 },
        )
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseError);
      expect(error).toMatchObject({
        statusCode: 409,
        message: 'A Secret with this name already exists.',
      });
    });

    it('returns the config with its error when the history limit is invalid', async () => {
      const config = {
        annotationPrefix: 'krypton.io',
        identityMode: 'impersonation',
        clusters: ['local'],
        defaultCluster: 'local',
        historyLimit: null,
        restartEnabled: false,
        managedOnly: true,
        maxSecretBytes: 1048576,
        previewLimit: 131072,
        error: 'KRYPTON_HISTORY_LIMIT must be a decimal integer from 1 to 100',
      };
      server.use(
        http.get(`${baseUrl}/config`, () =>
          HttpResponse.json(config, { status: 503 }),
        ),
      );
      await expect(client.getConfig()).resolves.toEqual(config);
    });

    it('reads the last restart, or null', async () => {
      server.use(
        http.get(
          `${baseUrl}/namespaces/ns/secrets/db/restart-consumers/last`,
          () => HttpResponse.json({ last: null }),
        ),
      );
      await expect(
        client.getLastRestart({ namespace: 'ns', name: 'db' }),
      ).resolves.toBeNull();
    });

    it("reads the versions the consumers' pods hold, in the default or a named cluster", async () => {
      const answer = {
        live: { version: 9 },
        checkedAt: '2026-12-01T10:00:00.000Z',
        workloads: [],
        discoveryFailures: [],
        summary: { pods: 0, allCurrent: true },
      };
      const seen: string[] = [];
      server.use(
        http.get(`${baseUrl}/*`, ({ request }) => {
          seen.push(new URL(request.url).pathname);
          return HttpResponse.json(answer);
        }),
      );
      await expect(
        client.consumerVersions({ namespace: 'ns', name: 'db' }),
      ).resolves.toEqual(answer);
      await client.consumerVersions({
        cluster: 'prod eu',
        namespace: 'ns',
        name: 'a.b',
      });
      expect(seen).toEqual([
        '/api/krypton/namespaces/ns/secrets/db/consumers/pods',
        '/api/krypton/clusters/prod%20eu/namespaces/ns/secrets/a.b/consumers/pods',
      ]);
    });

    it("raises a refused read of the pods' versions as a ResponseError", async () => {
      server.use(
        http.get(`${baseUrl}/namespaces/ns/secrets/db/consumers/pods`, () =>
          HttpResponse.json({ error: 'Forbidden' }, { status: 403 }),
        ),
      );
      await expect(
        client.consumerVersions({ namespace: 'ns', name: 'db' }),
      ).rejects.toMatchObject({
        name: 'ResponseError',
        message: 'Forbidden',
        statusCode: 403,
      });
    });

    it('lists the namespace names of the default or a named cluster, and raises a refusal', async () => {
      server.use(
        http.get(`${baseUrl}/namespaces`, () =>
          HttpResponse.json({ items: ['a', 'b'] }),
        ),
        http.get(`${baseUrl}/clusters/prod/namespaces`, () =>
          HttpResponse.json(
            { error: 'Access denied.' },
            { status: 403, statusText: 'Forbidden' },
          ),
        ),
      );
      await expect(client.listNamespaces()).resolves.toEqual(['a', 'b']);
      await expect(client.listNamespaces('prod')).rejects.toMatchObject({
        name: 'ResponseError',
        statusCode: 403,
        message: 'Access denied.',
      });
    });

    it('starts, lists, reads and cancels storage rewrite runs, and raises a conflict', async () => {
      const status: StorageRewriteRunStatus = {
        id: '6f1c2b1e-6d59-4a53-9d39-2f0c2f2d9a10',
        cluster: 'prod',
        scope: 'team a',
        dryRun: true,
        state: 'running',
        requestedBy: 'user:default/root',
        requestedAt: '2026-12-02T03:00:00.000Z',
        cancelRequested: false,
        heartbeatAt: '2026-12-02T03:00:00.000Z',
        progress: {
          pass: 'first',
          namespacesDone: 0,
          namespacesTotal: 1,
          seen: 0,
          rewritten: 0,
          alreadyCurrent: 0,
          failed: 0,
          gone: 0,
        },
      };
      const seen: string[] = [];
      const runs = `${baseUrl}/clusters/prod/storage-rewrite/runs`;
      server.use(
        http.post(`${baseUrl}/clusters/prod/storage-rewrite`, ({ request }) => {
          seen.push(`POST ${new URL(request.url).search}`);
          return HttpResponse.json(status, {
            status: 202,
            headers: { Location: `${runs}/${status.id}` },
          });
        }),
        http.get(runs, ({ request }) => {
          seen.push(`GET ${new URL(request.url).search}`);
          return HttpResponse.json({ runs: [status] });
        }),
        http.get(`${baseUrl}/storage-rewrite/runs/:id`, ({ request }) => {
          seen.push(`GET ${new URL(request.url).pathname.split('/').pop()}`);
          return HttpResponse.json(status);
        }),
        http.post(`${runs}/:id/cancel`, () =>
          HttpResponse.json(
            { error: 'This storage rewrite run has already ended.' },
            { status: 409, statusText: 'Conflict' },
          ),
        ),
      );
      await expect(
        client.startStorageRewrite({
          cluster: 'prod',
          namespace: 'team a',
          dryRun: true,
        }),
      ).resolves.toEqual(status);
      await expect(
        client.storageRewriteRuns({ cluster: 'prod', namespace: 'team a' }),
      ).resolves.toEqual([status]);
      await expect(
        client.storageRewriteRuns({ cluster: 'prod' }),
      ).resolves.toEqual([status]);
      await expect(client.storageRewriteRun({ id: 'a/b' })).resolves.toEqual(
        status,
      );
      await expect(
        client.cancelStorageRewrite({ cluster: 'prod', id: status.id }),
      ).rejects.toMatchObject({
        name: 'ResponseError',
        statusCode: 409,
        message: 'This storage rewrite run has already ended.',
      });
      expect(seen).toEqual([
        'POST ?namespace=team+a&dryRun=true',
        'GET ?namespace=team+a',
        'GET ',
        // The id is one path segment, whatever it holds.
        'GET a%2Fb',
      ]);
    });
  });
});
