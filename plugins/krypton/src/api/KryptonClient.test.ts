import { registerMswTestHooks } from '@backstage/test-utils';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { KryptonClient } from './KryptonClient';

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

  it('raises the backend error envelope as a ResponseError', async () => {
    server.use(
      http.get(`${baseUrl}/health`, () =>
        HttpResponse.json(
          { error: 'Kubernetes is unavailable' },
          { status: 503 },
        ),
      ),
    );
    await expect(client.getHealth()).rejects.toMatchObject({
      name: 'ResponseError',
      statusCode: 503,
    });
  });
});
