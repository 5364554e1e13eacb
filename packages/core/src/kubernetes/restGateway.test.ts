import { KubeRestRequest, RestKubeGateway, TABLE_ACCEPT } from './restGateway';
import { KubeApiError, SECRETS } from './types';

const COLUMNS = [
  { name: 'Name', type: 'string', format: 'name' },
  { name: 'Type', type: 'string' },
  { name: 'Data', type: 'string' },
  { name: 'Age', type: 'string' },
];

function meta(name: string) {
  return {
    kind: 'PartialObjectMetadata',
    apiVersion: 'meta.k8s.io/v1',
    metadata: { name, namespace: 'ns', uid: `uid-${name}` },
  };
}

function table(overrides: Record<string, unknown> = {}) {
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: { resourceVersion: '10', continue: 'next' },
    columnDefinitions: COLUMNS,
    rows: [
      { cells: ['a', 'Opaque', 2, '1m'], object: meta('a') },
      { cells: ['b', 'kubernetes.io/tls', 3, '5d'], object: meta('b') },
    ],
    ...overrides,
  };
}

/** A gateway whose one answer is this body, recording the request it sent. */
function gatewayAnswering(body: unknown) {
  const sent: KubeRestRequest[] = [];
  const gateway = new RestKubeGateway(async request => {
    sent.push(request);
    return { status: 200, body, bytes: 1234 };
  });
  return { gateway, sent };
}

const PAGE = { limit: 500, maxBytes: 1 << 20, labelSelector: 'a=b' };

async function listed(body: unknown) {
  const { gateway } = gatewayAnswering(body);
  return gateway.listTable(SECRETS, 'ns', PAGE, ['Type', 'Data']);
}

async function malformedBy(body: unknown) {
  const err = await listed(body).then(
    () => undefined,
    e => e,
  );
  expect(err).toBeInstanceOf(KubeApiError);
  expect(err).toMatchObject({ status: 0, reason: 'MalformedResponse' });
}

describe('RestKubeGateway.listTable', () => {
  it('asks for a Table with each row’s metadata, and no other media type', async () => {
    const { gateway, sent } = gatewayAnswering(table());
    await gateway.listTable(SECRETS, 'ns', { ...PAGE, continueToken: 'c1' }, [
      'Type',
    ]);
    expect(sent).toEqual([
      {
        method: 'GET',
        path: '/api/v1/namespaces/ns/secrets',
        query: {
          labelSelector: 'a=b',
          fieldSelector: undefined,
          limit: '500',
          continue: 'c1',
          includeObject: 'Metadata',
        },
        accept: TABLE_ACCEPT,
        maxResponseBytes: 1 << 20,
        resource: 'secrets',
      },
    ]);
    expect(TABLE_ACCEPT).toBe('application/json;as=Table;v=v1;g=meta.k8s.io');
  });

  it('reads the cells by column name, whatever their position', async () => {
    const reordered = [COLUMNS[2], COLUMNS[0], COLUMNS[3], COLUMNS[1]];
    const page = await listed(
      table({
        columnDefinitions: reordered,
        rows: [{ cells: [4, 'a', '1m', 'Opaque'], object: meta('a') }],
      }),
    );
    expect(page.items).toEqual([
      { cells: { Type: 'Opaque', Data: 4 }, object: meta('a') },
    ]);
    expect(page.continueToken).toBe('next');
    expect(page.bytes).toBe(1234);
  });

  it('reads the rows and the list metadata of a page', async () => {
    const page = await listed(table());
    expect(page.items.map(r => [r.object.metadata.name, r.cells])).toEqual([
      ['a', { Type: 'Opaque', Data: 2 }],
      ['b', { Type: 'kubernetes.io/tls', Data: 3 }],
    ]);
    // The cells are handed on unchecked: their types are the caller's rule.
    const odd = await listed(
      table({ rows: [{ cells: ['a', 7, '2', null], object: meta('a') }] }),
    );
    expect(odd.items[0].cells).toEqual({ Type: 7, Data: '2' });
  });

  it('reads an empty table, whose rows may be null', async () => {
    for (const rows of [null, []]) {
      const page = await listed(table({ rows, metadata: {} }));
      expect(page.items).toEqual([]);
      expect(page.continueToken).toBeUndefined();
    }
  });

  it.each([
    ['a list of full objects', { kind: 'SecretList', items: [] }],
    ['a PartialObjectMetadataList', { kind: 'PartialObjectMetadataList' }],
    ['no column definitions', table({ columnDefinitions: undefined })],
    [
      'column definitions that are not a list',
      table({ columnDefinitions: {} }),
    ],
    [
      'a column without a name',
      table({
        columnDefinitions: [...COLUMNS.slice(0, 3), { type: 'string' }],
      }),
    ],
    [
      'a column defined twice',
      table({ columnDefinitions: [...COLUMNS, COLUMNS[2]] }),
    ],
    [
      'a missing Data column',
      table({ columnDefinitions: COLUMNS.slice(0, 3) }),
    ],
    [
      'a missing Type column',
      table({ columnDefinitions: [COLUMNS[0], COLUMNS[2], COLUMNS[3]] }),
    ],
    ['no rows', table({ rows: undefined })],
    ['a row that is not an object', table({ rows: ['a'] })],
    ['a row without cells', table({ rows: [{ object: meta('a') }] })],
    [
      'a row with fewer cells than columns',
      table({ rows: [{ cells: ['a', 'Opaque', 1], object: meta('a') }] }),
    ],
    [
      'a row without its object',
      table({ rows: [{ cells: ['a', 'Opaque', 1, '1m'] }] }),
    ],
    [
      'a row whose object has no metadata',
      table({
        rows: [
          {
            cells: ['a', 'Opaque', 1, '1m'],
            object: { kind: 'PartialObjectMetadata' },
          },
        ],
      }),
    ],
    [
      'a row with the full object, values included',
      table({
        rows: [
          {
            cells: ['a', 'Opaque', 1, '1m'],
            object: {
              kind: 'Secret',
              metadata: { name: 'a' },
              data: { k: 'dg==' },
            },
          },
        ],
      }),
    ],
    ['no list metadata', table({ metadata: undefined })],
    [
      'a continuation that is not a string',
      table({ metadata: { continue: 5 } }),
    ],
  ])('refuses %s as malformed', async (_, body) => {
    await malformedBy(body);
  });

  it('keeps the upstream status of a refused list, not its message', async () => {
    const gateway = new RestKubeGateway(async () => ({
      status: 403,
      body: { kind: 'Status', reason: 'Forbidden', message: 'secret text' },
      bytes: 10,
    }));
    const err = await gateway
      .listTable(SECRETS, 'ns', PAGE, ['Type'])
      .catch(e => e);
    expect(err).toMatchObject({ status: 403, reason: 'Forbidden' });
    expect(String(err.message)).not.toContain('secret text');
  });
});
