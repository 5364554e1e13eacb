import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { useTestNamespace, ClusterAdmin } from '@krypton/kube-testenv';
import request from 'supertest';
import {
  KryptonTestBackend,
  as,
  startKryptonBackend,
} from '../../__testUtils__/testBackend';

const CANARY = 'mcp-canary-5d2c';

/**
 * Krypton's actions as MCP tools, through the MCP actions backend's real streamable HTTP endpoint
 * and the MCP SDK's own client, with the caller's identity.
 */
describe("Krypton's actions over MCP", () => {
  const ns = useTestNamespace();
  const admin = new ClusterAdmin();
  let krypton: KryptonTestBackend;
  const clients: Client[] = [];

  const connect = async (user: string) => {
    const client = new Client({ name: 'krypton-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(
        new URL(`${krypton.url}/api/mcp-actions/v1`),
        { requestInit: { headers: { Authorization: as(user) } } },
      ),
    );
    clients.push(client);
    return client;
  };
  const text = (result: unknown) =>
    ((result as { content?: Array<{ text?: string }> }).content ?? [])
      .map(c => c.text ?? '')
      .join('\n');

  beforeAll(async () => {
    krypton = await startKryptonBackend({}, { mcp: true });
    await admin.grantSecrets(ns.name, {
      kind: 'User',
      name: 'user:default/root',
    });
    const created = await request(krypton.server)
      .post(`/api/krypton/namespaces/${ns.name}/secrets`)
      .set('Authorization', as('root'))
      .send({ name: 'db', data: { password: CANARY } });
    if (created.status !== 201) throw new Error(`create: ${created.status}`);
  });
  afterAll(async () => {
    await Promise.all(clients.map(c => c.close()));
    await krypton.stop();
    admin.close();
  });

  it('lists the actions as tools and calls one as the user', async () => {
    const root = await connect('root');
    const { tools } = await root.listTools();
    const names = tools.map(t => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'krypton.list-secrets',
        'krypton.get-secret-summary',
        'krypton.restore-secret-version',
      ]),
    );
    const restore = tools.find(
      t => t.name === 'krypton.restore-secret-version',
    );
    expect(restore?.annotations).toMatchObject({
      destructiveHint: true,
      readOnlyHint: false,
    });

    const call = {
      name: 'krypton.get-secret-summary',
      arguments: { namespace: ns.name, name: 'db' },
    };
    const result = await root.callTool(call);
    // The transcript of one call, for the record (it holds no value to redact).
    process.stdout.write(
      `[mcp] tools/call ${JSON.stringify(call)}\n[mcp] result ${JSON.stringify(
        result.structuredContent,
      )}\n`,
    );
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      secret: { name: 'db', namespace: ns.name, keys: ['password'] },
    });
    expect(text(result)).not.toContain(CANARY);
  });

  it("refuses a call that the user's own rights refuse", async () => {
    const carol = await connect('carol');
    const result = await carol.callTool({
      name: 'krypton.get-secret-summary',
      arguments: { namespace: ns.name, name: 'db' },
    });
    expect(result.isError).toBe(true);
    expect(text(result)).not.toContain(CANARY);
    expect(text(result)).toMatch(/NotAllowedError|not allowed|forbidden/i);
  });
});
