import { entityRouteRef } from '@backstage/plugin-catalog-react';
import { registerMswTestHooks, renderInTestApp } from '@backstage/test-utils';
import { DeletedSecretSummary, VersionSummary } from '@krypton/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import {
  ApiOptions,
  KryptonApis,
  baseUrl,
  kryptonConfig,
  listItem,
  summary,
} from '../../__testUtils__/krypton';
import { DeletedSecrets } from './DeletedSecrets';
import { NamespaceSecrets } from './NamespaceSecrets';

const server = setupServer();

const DB_UID = '0b1c2d3e-0000-4000-8000-000000000001';

function version(
  n: number,
  overrides: Partial<VersionSummary> = {},
): VersionSummary {
  return {
    version: n,
    snapshotAt: `2026-11-0${n}T10:00:00Z`,
    snapshotBy: 'user:default/alice',
    sourceType: 'Opaque',
    sourceResourceVersion: String(100 + n),
    keys: ['password', 'username'],
    ...overrides,
  };
}

function deleted(
  overrides: Partial<DeletedSecretSummary> = {},
): DeletedSecretSummary {
  return {
    name: 'db',
    uid: DB_UID,
    type: 'Opaque',
    description: 'Database credentials',
    deletedBy: 'kubernetes:admin',
    deletedAt: '2026-11-04T12:00:00Z',
    deletedVia: 'kubectl-client-side-apply',
    nameTaken: false,
    versions: [
      version(3, {
        snapshotBy: 'kubernetes:admin',
        snapshotVia: 'kubectl-client-side-apply',
        finalState: true,
      }),
      version(2, { keys: ['password'] }),
      version(1, { keys: null }),
    ],
    ...overrides,
  };
}

/** The config, and the deleted list of a namespace with its answer, counting the reads. */
function serveDeleted(
  namespace: string,
  answer: () => Response = () =>
    HttpResponse.json({ items: [deleted()] } satisfies {
      items: DeletedSecretSummary[];
    }),
) {
  const reads = { count: 0 };
  server.use(
    http.get(`${baseUrl}/config`, () => HttpResponse.json(kryptonConfig())),
    http.get(`${baseUrl}/namespaces/${namespace}/deleted-secrets`, () => {
      reads.count += 1;
      return answer();
    }),
  );
  return reads;
}

/** Renders with the catalog's entity route, where the versions' authors link to. */
function render(element: JSX.Element, options: ApiOptions = {}) {
  return renderInTestApp(<KryptonApis {...options}>{element}</KryptonApis>, {
    mountedRoutes: { '/catalog/:namespace/:kind/:name': entityRouteRef },
  });
}

function renderSection(namespace = 'demo', options: ApiOptions = {}) {
  return render(<DeletedSecrets location={{ namespace }} />, options);
}

const recreateButton = (name: string) =>
  screen.findByRole('button', { name: `Recreate ${name}…` });

describe('DeletedSecrets', () => {
  registerMswTestHooks(server);

  it('lists who deleted each Secret and when, its last kept version, and an unknown deleter', async () => {
    serveDeleted('demo', () =>
      HttpResponse.json({
        items: [
          deleted(),
          deleted({
            name: 'old-token',
            uid: '0b1c2d3e-0000-4000-8000-000000000002',
            description: undefined,
            deletedBy: undefined,
            deletedAt: undefined,
            deletedVia: undefined,
            versions: [version(5)],
          }),
        ],
      }),
    );
    await renderSection();

    const table = await screen.findByRole('table', { name: 'Deleted Secrets' });
    const db = within(table).getByRole('rowheader', { name: /db/ })
      .parentElement as HTMLElement;
    expect(db).toHaveTextContent('Database credentials');
    expect(db).toHaveTextContent('Version 3');
    // The deleter as the recorder kept them, not the raw "kubernetes:" actor.
    expect(within(db).getByText('deleted by admin')).toBeInTheDocument();
    expect(db).not.toHaveTextContent('kubernetes:admin');
    expect(db.querySelector('time')).toHaveAttribute(
      'dateTime',
      '2026-11-04T12:00:00Z',
    );
    const recreate = await recreateButton('db');
    await waitFor(() => expect(recreate).toBeEnabled());

    const token = within(table).getByRole('rowheader', { name: /old-token/ })
      .parentElement as HTMLElement;
    expect(token).toHaveTextContent('Version 5');
    expect(
      within(token).getByText(
        'Unknown: no final state was kept at the delete.',
      ),
    ).toBeInTheDocument();
    expect(token.querySelector('time')).toBeNull();
  });

  it('disables recreating a Secret whose name is taken now, and says why', async () => {
    serveDeleted('demo', () =>
      HttpResponse.json({ items: [deleted({ nameTaken: true })] }),
    );
    await renderSection();

    const button = await recreateButton('db');
    // Permissions allow it: only the taken name blocks it.
    await waitFor(() =>
      expect(button).toHaveAccessibleDescription(
        'A Secret named db exists now, so it cannot be recreated.',
      ),
    );
    expect(button).toBeDisabled();
  });

  it('says that no deleted Secret has kept history', async () => {
    const reads = serveDeleted('demo', () => HttpResponse.json({ items: [] }));
    await renderSection();

    expect(
      await screen.findByText('No deleted Secrets with kept history in demo.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
    expect(reads.count).toBe(1);
  });

  it('shows a refused list as a permission problem, not as an empty list', async () => {
    serveDeleted('demo', () =>
      HttpResponse.json(
        { error: 'Access denied.' },
        { status: 403, statusText: 'Forbidden' },
      ),
    );
    await renderSection();

    const panel = await screen.findByRole('alert');
    expect(panel).toHaveTextContent(
      'You may not list the deleted Secrets in demo',
    );
    expect(panel).toHaveTextContent('Access denied.');
    expect(
      screen.queryByText('No deleted Secrets with kept history in demo.'),
    ).toBeNull();
  });

  it('disables Recreate with the reason when the policy does not grant krypton.secret.recreate', async () => {
    // Another namespace than the other tests': usePermission caches its answers per resource for
    // the whole module, and the resource names the namespace.
    serveDeleted('locked', () => HttpResponse.json({ items: [deleted()] }));
    const asked: string[] = [];
    await renderSection('locked', {
      authorize: (permission, resourceRef) => {
        asked.push(`${permission} ${resourceRef}`);
        return permission !== 'krypton.secret.recreate';
      },
    });

    const button = await recreateButton('db');
    await waitFor(() =>
      expect(button).toHaveAccessibleDescription(
        'The Backstage permission policy does not grant krypton.secret.recreate.',
      ),
    );
    expect(button).toBeDisabled();
    // Both are asked on the Secret as it would be created, on the default cluster.
    expect(asked).toEqual(
      expect.arrayContaining([
        'krypton.secret.create local/locked/*',
        'krypton.secret.recreate local/locked/*',
      ]),
    );
  });

  it('recreates the chosen version, refreshes both lists and links to the new Secret', async () => {
    const deletedReads = serveDeleted('demo');
    const listReads = { count: 0 };
    const bodies: unknown[] = [];
    server.use(
      http.get(`${baseUrl}/namespaces/demo/secrets`, () => {
        listReads.count += 1;
        return HttpResponse.json({ items: [listItem({ name: 'api-key' })] });
      }),
      http.post(
        `${baseUrl}/namespaces/demo/deleted-secrets/db/recreate`,
        async ({ request }) => {
          bodies.push(await request.json());
          return HttpResponse.json(
            { ...summary({ version: 1 }), valuesOmitted: true },
            { status: 201 },
          );
        },
      ),
    );
    const user = userEvent.setup();
    await render(
      <NamespaceSecrets
        location={{ namespace: 'demo' }}
        href={({ namespace, name }) => `/krypton/secret/${namespace}/${name}`}
      />,
    );

    const button = await recreateButton('db');
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);
    const dialog = screen.getByRole('dialog', { name: 'Recreate db' });
    expect(dialog).toHaveTextContent('starts a new history at version 1');

    const newest = within(dialog).getByRole('radio', { name: /Version 3/ });
    expect(newest).toBeChecked();
    expect(
      within(dialog).getByText('Final state at the delete'),
    ).toBeInTheDocument();
    expect(
      within(dialog).getByText('Keys: password, username'),
    ).toBeInTheDocument();
    expect(
      within(dialog).getByText('Key names not recorded'),
    ).toBeInTheDocument();

    await user.click(within(dialog).getByRole('radio', { name: /Version 2/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Recreate' }));

    expect(await screen.findByText(/Recreated db\./)).toBeInTheDocument();
    expect(bodies).toEqual([{ uid: DB_UID, version: 2 }]);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('link', { name: 'Open db' })).toHaveAttribute(
      'href',
      '/krypton/secret/demo/db',
    );
    await waitFor(() => expect(listReads.count).toBe(2));
    await waitFor(() => expect(deletedReads.count).toBe(2));
  });

  it("keeps the dialog open with the backend's message when the recreate is refused", async () => {
    const reads = serveDeleted('demo');
    const onRecreated = jest.fn();
    server.use(
      http.post(`${baseUrl}/namespaces/demo/deleted-secrets/db/recreate`, () =>
        HttpResponse.json(
          { error: 'A Secret with this name already exists.' },
          { status: 409, statusText: 'Conflict' },
        ),
      ),
    );
    const user = userEvent.setup();
    await render(
      <DeletedSecrets
        location={{ namespace: 'demo' }}
        onRecreated={onRecreated}
      />,
    );

    const button = await recreateButton('db');
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);
    const dialog = screen.getByRole('dialog', { name: 'Recreate db' });
    await user.click(within(dialog).getByRole('button', { name: 'Recreate' }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Could not recreate db');
    expect(alert).toHaveTextContent('A Secret with this name already exists.');
    expect(screen.getByRole('dialog', { name: 'Recreate db' })).toBe(dialog);
    expect(
      within(dialog).getByRole('button', { name: 'Recreate' }),
    ).toBeEnabled();
    expect(onRecreated).not.toHaveBeenCalled();
    expect(reads.count).toBe(1);
  });
});
