import { AuthService, DiscoveryService } from '@backstage/backend-plugin-api';
import { createKryptonSecretCreateAction } from './createSecret';

const VALUE = 'unit-canary-value';
const discovery: DiscoveryService = {
  getBaseUrl: async () => 'http://backstage.test/api/krypton',
  getExternalBaseUrl: async () => 'http://backstage.test/api/krypton',
};
const auth = {
  getPluginRequestToken: jest.fn(async () => ({ token: 'plugin-token' })),
} as unknown as AuthService;
const action = createKryptonSecretCreateAction({ discovery, auth });
type Context = Parameters<typeof action.handler>[0];

/** A handler context of the action, with these input and task secrets. */
function context(
  input: Record<string, unknown>,
  secrets: Record<string, string>,
) {
  return {
    input: { namespace: 'team', name: 'db', ...input },
    secrets,
    output: jest.fn(),
    logger: { info: jest.fn() },
    getInitiatorCredentials: async () => ({ principal: { type: 'user' } }),
  } as unknown as Context & { output: jest.Mock; logger: { info: jest.Mock } };
}

describe('krypton:secret:create', () => {
  const fetchMock = jest.spyOn(global, 'fetch');
  afterEach(() => fetchMock.mockReset());

  it('sends the named task secrets to the scoped route, and keeps no value of the answer', async () => {
    fetchMock.mockResolvedValue(
      Response.json(
        {
          cluster: 'prod/eu',
          namespace: 'team',
          name: 'db',
          resourceVersion: '42',
          version: 1,
          keys: ['PASSWORD'],
          data: { PASSWORD: VALUE },
          binaryData: {},
        },
        { status: 201 },
      ),
    );
    const ctx = context(
      { cluster: 'prod/eu', values: { PASSWORD: 'password' } },
      { password: VALUE },
    );
    await action.handler(ctx);

    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe(
      'http://backstage.test/api/krypton/clusters/prod%2Feu/namespaces/team/secrets',
    );
    expect(init?.headers).toMatchObject({
      Authorization: 'Bearer plugin-token',
    });
    expect(JSON.parse(String(init?.body))).toEqual({
      name: 'db',
      data: { PASSWORD: VALUE },
    });
    expect(Object.fromEntries(ctx.output.mock.calls)).toEqual({
      cluster: 'prod/eu',
      namespace: 'team',
      name: 'db',
      resourceVersion: '42',
      version: 1,
      keys: ['PASSWORD'],
    });
    expect(JSON.stringify(ctx.logger.info.mock.calls)).not.toContain(VALUE);
  });

  it.each([
    ['a missing secret', 'password', {}, 'needs'],
    ['an inherited property', 'constructor', {}, 'needs'],
    ["the user's token", 'backstageToken', { backstageToken: VALUE }, 'names'],
    [
      "the user's credentials",
      '__initiatorCredentials',
      { __initiatorCredentials: VALUE },
      'names',
    ],
  ])(
    'refuses %s before it asks Krypton',
    async (_what, secretName, secrets, verb) => {
      const ctx = context({ values: { KEY: secretName } }, secrets);
      const failed = action.handler(ctx);
      await expect(failed).rejects.toThrow(
        `Key "KEY" ${verb} the template secret "${secretName}"`,
      );
      await expect(failed).rejects.toMatchObject({ name: 'InputError' });
      expect(fetchMock).not.toHaveBeenCalled();
    },
  );

  it("fails with Krypton's status and fixed message, and nothing of the request", async () => {
    fetchMock.mockResolvedValueOnce(
      Response.json({ error: 'Access denied.' }, { status: 403 }),
    );
    const ctx = context({ values: { PASSWORD: 'p' } }, { p: VALUE });
    const refused = action.handler(ctx);
    await expect(refused).rejects.toThrow(
      'Krypton refused to create team/db: 403 Access denied.',
    );

    fetchMock.mockResolvedValueOnce(
      new Response(`<html>${VALUE}</html>`, {
        status: 502,
        statusText: 'Bad Gateway',
      }),
    );
    await expect(action.handler(ctx)).rejects.toThrow(
      /^Krypton refused to create team\/db: 502 Bad Gateway$/,
    );
  });
});
