import { InMemoryKubeGateway } from '../testing/InMemoryKubeGateway';
import { messages } from '../errors';
import { INVENTORY_BUDGET } from './inventory';
import { listNamespaceNames, namespaceNames } from './namespaces';
import { KubeApiError, NAMESPACES } from './types';

function gatewayWith(names: string[]) {
  const gateway = new InMemoryKubeGateway();
  for (const name of names)
    gateway.put(NAMESPACES, '', {
      metadata: { name, labels: { team: 'a' } },
    });
  return gateway;
}

describe('namespace names', () => {
  it('reads every page as metadata and answers only the names, sorted', async () => {
    const names = Array.from({ length: 250 }, (_, i) => `ns-${999 - i}`);
    const gateway = gatewayWith(names);
    const listed = await listNamespaceNames(gateway);
    expect(listed).toEqual([...names].sort());
    // Three pages of 100, each a metadata list.
    expect(gateway.calls).toEqual(Array(3).fill('listMetadata namespaces'));
  });

  it('refuses a cluster over the budget rather than answering part of it', async () => {
    const gateway = gatewayWith(['a', 'b', 'c']);
    const budget = { ...INVENTORY_BUDGET, pageSize: 1, maxObjects: 2 };
    await expect(namespaceNames(gateway, budget)).rejects.toMatchObject({
      name: 'IncompleteListError',
    });
    await expect(listNamespaceNames(gateway, budget)).rejects.toMatchObject({
      status: 503,
      message: messages.namespaceListTooLarge,
    });
  });

  it.each([
    [403, 403, messages.forbiddenKubernetes],
    [429, 429, messages.rateLimited],
    [401, 503, messages.unavailable],
    [500, 503, messages.unavailable],
  ])(
    'maps a refused list (%i) to the fixed %i',
    async (status, answered, message) => {
      const gateway = gatewayWith(['a']);
      gateway.listMetadata = async () => {
        throw new KubeApiError(status, 'Whatever the server said');
      };
      await expect(listNamespaceNames(gateway)).rejects.toMatchObject({
        status: answered,
        message,
      });
    },
  );

  it('maps a continuation that stops working to the outage message', async () => {
    const gateway = gatewayWith(['a', 'b']);
    const listMetadata = gateway.listMetadata.bind(gateway);
    gateway.listMetadata = async (type, ns, request) => {
      if (request.continueToken) throw new KubeApiError(410, 'Expired');
      return listMetadata(type, ns, request);
    };
    await expect(
      listNamespaceNames(gateway, { ...INVENTORY_BUDGET, pageSize: 1 }),
    ).rejects.toMatchObject({ status: 503, message: messages.unavailable });
  });
});
