import { entityRouteRef } from '@backstage/plugin-catalog-react';
import { registerMswTestHooks, renderInTestApp } from '@backstage/test-utils';
import { messages } from '@krypton/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router-dom';
import {
  KryptonApis,
  baseUrl,
  kryptonConfig,
  secretDto,
  listItem,
  policy,
  summary,
} from '../__testUtils__/krypton';
import { changeRequest } from '../__testUtils__/changeRequests';
import { rootRouteRef } from '../routes';
import { KryptonPage } from './KryptonPage';

const server = setupServer();

function renderAt(path: string) {
  return renderInTestApp(
    <KryptonApis>
      <Routes>
        <Route path="/krypton/*" element={<KryptonPage />} />
      </Routes>
    </KryptonApis>,
    {
      routeEntries: [path],
      mountedRoutes: {
        '/krypton': rootRouteRef,
        '/catalog/:namespace/:kind/:name': entityRouteRef,
      },
    },
  );
}

/**
 * Config with two clusters, the first view's namespaces (demo on the default cluster, payments on
 * prod), and the storage rewrite's reads on any cluster, recording the paths of the first view
 * and of the runs.
 */
function serveBasics() {
  const paths: string[] = [];
  const record = (request: Request) =>
    paths.push(
      new URL(request.url).pathname.slice(new URL(baseUrl).pathname.length),
    );
  server.use(
    http.get(`${baseUrl}/config`, () =>
      HttpResponse.json(kryptonConfig({ clusters: ['local', 'prod'] })),
    ),
    http.get(/\/managed-namespaces$/, ({ request }) => {
      record(request);
      return HttpResponse.json({
        items: [
          request.url.includes('/clusters/prod/')
            ? { namespace: 'payments', secrets: 1 }
            : { namespace: 'demo', secrets: 2 },
        ],
        notLookedIn: 0,
      });
    }),
    http.get(/\/storage-rewrite\/runs$/, ({ request }) => {
      record(request);
      return HttpResponse.json({ runs: [] });
    }),
    http.get(/\/storage-rewrite\/last$/, () => HttpResponse.json({ runs: [] })),
    http.get(/\/namespaces$/, () => HttpResponse.json({ items: ['demo'] })),
    http.get(/\/deleted-secrets$/, () => HttpResponse.json({ items: [] })),
    http.get(/\/change-requests$/, () => HttpResponse.json({ items: [] })),
    http.get(/\/storage-rewrite\/migrations$/, () =>
      HttpResponse.json({ served: false, migrations: [] }),
    ),
  );
  return paths;
}

/** Serves a namespace's list, counting the reads. */
function serveList(
  url: string,
  items = [listItem(), listItem({ name: 'api-key', version: 7 })],
) {
  const reads = { count: 0, adoptable: 0 };
  server.use(
    http.get(url, ({ request }) => {
      if (new URL(request.url).searchParams.get('adoptable') === 'true') {
        reads.adoptable += 1;
        return HttpResponse.json({
          items: [
            listItem({
              name: 'legacy',
              resourceVersion: '42',
              managed: false,
              description: undefined,
              access: { owners: [], editors: [], viewers: [] },
              policy: policy(),
            }),
          ],
        });
      }
      reads.count += 1;
      return HttpResponse.json({ items });
    }),
  );
  return reads;
}

const nameLink = (name: string) => screen.getByRole('link', { name });

describe('KryptonPage', () => {
  registerMswTestHooks(server);

  it('picks the cluster from the config and lists the typed namespace', async () => {
    serveBasics();
    serveList(`${baseUrl}/namespaces/demo/secrets`);
    serveList(`${baseUrl}/clusters/prod/namespaces/demo/secrets`, [
      listItem({ cluster: 'prod', name: 'remote' }),
    ]);
    const user = userEvent.setup();
    await renderAt('/krypton');

    const cluster = (await screen.findByLabelText(
      'Cluster',
    )) as HTMLSelectElement;
    expect(cluster.value).toBe('local');
    expect(
      within(cluster)
        .getAllByRole('option')
        .map(o => o.textContent),
    ).toEqual(['local', 'prod']);
    expect(await screen.findByRole('link', { name: 'demo' })).toHaveAttribute(
      'href',
      '/krypton?namespace=demo',
    );

    await user.type(screen.getByRole('textbox', { name: 'Namespace' }), 'demo');
    await user.click(screen.getByRole('button', { name: 'Show Secrets' }));
    expect(
      await screen.findByRole('link', { name: 'api-key' }),
    ).toHaveAttribute('href', '/krypton/secret/demo/api-key');
    expect(nameLink('db')).toBeInTheDocument();

    // The table's own search narrows the list.
    await user.type(screen.getByPlaceholderText('Filter'), 'api');
    await waitFor(() =>
      expect(screen.queryByRole('link', { name: 'db' })).toBeNull(),
    );
    expect(nameLink('api-key')).toBeInTheDocument();

    await user.selectOptions(cluster, 'prod');
    expect(await screen.findByRole('link', { name: 'remote' })).toHaveAttribute(
      'href',
      '/krypton/secret/demo/remote?cluster=prod',
    );
  });

  it('lists the change requests that wait for the user on the chosen cluster, each linked to its review', async () => {
    serveBasics();
    const waiting = (cluster: string, name: string) =>
      changeRequest({
        id: `id-${name}`,
        cluster,
        namespace: 'payments',
        name,
        change: { operation: 'restore', version: 4 },
        requestedBy: 'user:default/bob',
      });
    server.use(
      http.get(`${baseUrl}/change-requests`, () =>
        HttpResponse.json({ items: [waiting('local', 'stripe-key')] }),
      ),
      http.get(`${baseUrl}/clusters/prod/change-requests`, () =>
        HttpResponse.json({ items: [] }),
      ),
    );
    const user = userEvent.setup();
    await renderAt('/krypton');

    const table = await screen.findByRole('table', {
      name: 'Waiting for your approval',
    });
    expect(
      within(table).getByRole('link', { name: 'payments/stripe-key' }),
    ).toHaveAttribute(
      'href',
      '/krypton/secret/payments/stripe-key/changes?request=id-stripe-key',
    );
    expect(within(table).getByText('Restore version 4')).toBeInTheDocument();
    expect(within(table).getByText('user:default/bob')).toBeInTheDocument();

    // On a cluster where nothing waits, the card is gone rather than empty.
    await user.selectOptions(screen.getByLabelText('Cluster'), 'prod');
    await screen.findByRole('link', { name: 'payments' });
    expect(
      screen.queryByRole('table', { name: 'Waiting for your approval' }),
    ).toBeNull();
  });

  it('opens a namespace from the first view, which follows the chosen cluster', async () => {
    const paths = serveBasics();
    serveList(`${baseUrl}/clusters/prod/namespaces/payments/secrets`, [
      listItem({ cluster: 'prod', namespace: 'payments', name: 'remote' }),
    ]);
    const user = userEvent.setup();
    await renderAt('/krypton');
    await screen.findByRole('link', { name: 'demo' });

    await user.selectOptions(screen.getByLabelText('Cluster'), 'prod');
    const payments = await screen.findByRole('link', { name: 'payments' });
    expect(payments).toHaveAttribute(
      'href',
      '/krypton?cluster=prod&namespace=payments',
    );
    expect(screen.queryByRole('link', { name: 'demo' })).toBeNull();
    expect(screen.getByText('1 Secret')).toBeInTheDocument();
    expect(paths).toEqual([
      '/managed-namespaces',
      '/clusters/prod/managed-namespaces',
    ]);

    await user.click(payments);
    expect(await screen.findByRole('link', { name: 'remote' })).toHaveAttribute(
      'href',
      '/krypton/secret/payments/remote?cluster=prod',
    );
    expect(screen.getByRole('textbox', { name: 'Namespace' })).toHaveValue(
      'payments',
    );
    expect(screen.queryByText('Namespaces with Krypton Secrets')).toBeNull();
  });

  it('links operators to the storage rewrite on the same cluster', async () => {
    const paths = serveBasics();
    const user = userEvent.setup();
    await renderAt('/krypton?cluster=prod');
    const link = await screen.findByRole('link', {
      name: 'Storage rewrite (operators)',
    });
    expect(link).toHaveAttribute(
      'href',
      '/krypton/storage-rewrite?cluster=prod',
    );
    // The tools themselves are on their own page only.
    expect(
      screen.queryByRole('button', { name: 'Rewrite storage' }),
    ).toBeNull();

    await user.click(link);
    expect(
      await screen.findByRole('button', { name: 'Rewrite storage' }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('heading', { name: 'Storage rewrite' }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Cluster')).toHaveValue('prod');
    expect(paths).toContain('/clusters/prod/storage-rewrite/runs');
    expect(paths).not.toContain('/storage-rewrite/runs');
    // Back to the platform page, on the same cluster.
    expect(screen.getByRole('link', { name: 'Krypton' })).toHaveAttribute(
      'href',
      '/krypton?cluster=prod',
    );
  });

  it('refuses a namespace that Kubernetes would not accept', async () => {
    serveBasics();
    const user = userEvent.setup();
    await renderAt('/krypton');
    await user.type(
      await screen.findByRole('textbox', { name: 'Namespace' }),
      'Demo_1',
    );
    await user.click(screen.getByRole('button', { name: 'Show Secrets' }));
    expect(screen.getByText(/^Invalid namespace/)).toBeInTheDocument();
  });

  it('creates a Secret in the listed namespace and refreshes the list', async () => {
    serveBasics();
    const reads = serveList(`${baseUrl}/namespaces/demo/secrets`);
    const posts: unknown[] = [];
    server.use(
      http.post(`${baseUrl}/namespaces/demo/secrets`, async ({ request }) => {
        posts.push(await request.json());
        return HttpResponse.json(
          secretDto(
            { name: 'api-token', resourceVersion: '1', version: 1 },
            {
              data: { TOKEN: 't0k3n' },
              binaryData: {},
            },
          ),
          { status: 201 },
        );
      }),
    );
    const user = userEvent.setup();
    await renderAt('/krypton?namespace=demo');
    await screen.findByRole('link', { name: 'db' });

    await user.click(screen.getByRole('button', { name: 'Create Secret' }));
    const dialog = screen.getByRole('dialog', {
      name: 'Create a Secret in demo',
    });
    await user.type(
      within(dialog).getByRole('textbox', { name: /Name/ }),
      'api-token',
    );
    await user.type(within(dialog).getByLabelText('Key 1'), 'TOKEN');
    await user.type(within(dialog).getByLabelText('Value of TOKEN'), 't0k3n');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    expect(await screen.findByText(/Created api-token\./)).toBeInTheDocument();
    expect(posts).toEqual([
      { name: 'api-token', type: 'Opaque', data: { TOKEN: 't0k3n' } },
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(nameLink('Open api-token')).toHaveAttribute(
      'href',
      '/krypton/secret/demo/api-token',
    );
    await waitFor(() => expect(reads.count).toBe(2));
  });

  it('creates a Secret whose answer omits the values, and keeps none of them', async () => {
    serveBasics();
    const reads = serveList(`${baseUrl}/namespaces/demo/secrets`);
    server.use(
      http.post(`${baseUrl}/namespaces/demo/secrets`, () =>
        HttpResponse.json(
          {
            ...summary({
              name: 'api-token',
              resourceVersion: '1',
              version: 1,
              keys: ['TOKEN'],
            }),
            valuesOmitted: true,
          },
          { status: 201 },
        ),
      ),
    );
    const user = userEvent.setup();
    await renderAt('/krypton?namespace=demo');
    await screen.findByRole('link', { name: 'db' });

    await user.click(screen.getByRole('button', { name: 'Create Secret' }));
    const dialog = screen.getByRole('dialog', {
      name: 'Create a Secret in demo',
    });
    await user.type(
      within(dialog).getByRole('textbox', { name: /Name/ }),
      'api-token',
    );
    await user.type(within(dialog).getByLabelText('Key 1'), 'TOKEN');
    await user.type(
      within(dialog).getByLabelText('Value of TOKEN'),
      'typed-token-3e9a',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    expect(await screen.findByText(/Created api-token\./)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.body.textContent).not.toContain('typed-token-3e9a');
    expect(nameLink('Open api-token')).toHaveAttribute(
      'href',
      '/krypton/secret/demo/api-token',
    );
    await waitFor(() => expect(reads.count).toBe(2));
  });

  it('adopts the picked Secret with its listed revision, rules and description', async () => {
    serveBasics();
    const reads = serveList(`${baseUrl}/namespaces/demo/secrets`);
    const bodies: unknown[] = [];
    server.use(
      http.post(
        `${baseUrl}/namespaces/demo/secrets/legacy/adopt`,
        async ({ request }) => {
          bodies.push(await request.json());
          return HttpResponse.json(
            summary({ name: 'legacy', resourceVersion: '43' }),
          );
        },
      ),
    );
    const user = userEvent.setup();
    await renderAt('/krypton?namespace=demo');
    await screen.findByRole('link', { name: 'db' });

    await user.click(screen.getByRole('button', { name: 'Adopt a Secret' }));
    const dialog = screen.getByRole('dialog', {
      name: 'Adopt a Secret in demo',
    });
    const adopt = within(dialog).getByRole('button', { name: 'Adopt' });
    expect(adopt).toBeDisabled();
    await user.selectOptions(
      await within(dialog).findByLabelText('Secret to adopt'),
      'legacy',
    );
    // Without owners of its own, the adopting user is proposed as owner.
    expect(within(dialog).getByLabelText('Owners')).toHaveValue(
      'user:default/alice',
    );
    await user.type(
      within(dialog).getByLabelText('Description'),
      'Legacy token',
    );
    await user.type(within(dialog).getByLabelText('Viewers'), 'group:team-b');
    await waitFor(() => expect(adopt).toBeEnabled());
    await user.click(adopt);

    expect(await screen.findByText(/Adopted legacy\./)).toBeInTheDocument();
    expect(bodies).toEqual([
      {
        resourceVersion: '42',
        description: 'Legacy token',
        access: {
          owners: ['user:default/alice'],
          editors: [],
          viewers: ['group:default/team-b'],
        },
      },
    ]);
    expect(reads.adoptable).toBe(1);
    await waitFor(() => expect(reads.count).toBe(2));
  });

  it("shows the server's refusal of an adopt and offers a fresh list", async () => {
    serveBasics();
    const reads = serveList(`${baseUrl}/namespaces/demo/secrets`);
    server.use(
      http.post(`${baseUrl}/namespaces/demo/secrets/legacy/adopt`, () =>
        HttpResponse.json({ error: messages.staleRevision }, { status: 409 }),
      ),
    );
    const user = userEvent.setup();
    await renderAt('/krypton?namespace=demo');
    await user.click(
      await screen.findByRole('button', { name: 'Adopt a Secret' }),
    );
    const dialog = screen.getByRole('dialog');
    await user.selectOptions(
      await within(dialog).findByLabelText('Secret to adopt'),
      'legacy',
    );
    const adopt = within(dialog).getByRole('button', { name: 'Adopt' });
    await waitFor(() => expect(adopt).toBeEnabled());
    await user.click(adopt);
    expect(
      await within(dialog).findByText(messages.staleRevision),
    ).toBeInTheDocument();
    await user.click(
      within(dialog).getByRole('button', { name: 'Reload list' }),
    );
    await waitFor(() => expect(reads.adoptable).toBe(2));
    expect(within(dialog).getByLabelText('Secret to adopt')).toHaveValue('');
  });

  it("shows the server's message when the namespace cannot be listed", async () => {
    serveBasics();
    server.use(
      http.get(`${baseUrl}/namespaces/big/secrets`, () =>
        HttpResponse.json({ error: messages.listTooLarge }, { status: 503 }),
      ),
    );
    await renderAt('/krypton?namespace=big');
    expect(await screen.findAllByText(messages.listTooLarge)).not.toHaveLength(
      0,
    );
  });
});
