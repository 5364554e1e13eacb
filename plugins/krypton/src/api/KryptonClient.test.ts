import { ResponseError } from '@backstage/errors';
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
});
