import { DiscoveryApi } from '@backstage/core-plugin-api';
import { permissionApiRef } from '@backstage/plugin-permission-react';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  MockPermissionApi,
  TestApiProvider,
  registerMswTestHooks,
  renderInTestApp,
} from '@backstage/test-utils';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { kryptonApiRef } from '../../api/KryptonApi';
import { KryptonClient } from '../../api/KryptonClient';
import { StorageOperatorSection } from './StorageOperatorSection';

const server = setupServer();
const baseUrl = 'http://backstage.test/api/krypton';
const discoveryApi: DiscoveryApi = { getBaseUrl: async () => baseUrl };
const client = new KryptonClient({
  discoveryApi,
  fetchApi: { fetch: (input, init) => fetch(input, init) },
});

const counts = {
  rewritten: 6,
  alreadyCurrent: 0,
  conflictsResolved: 0,
  failed: 0,
  skipped: 2,
};
const result = {
  startedAt: '2026-11-30T12:00:00.000Z',
  finishedAt: '2026-11-30T12:00:01.000Z',
  namespaces: ['payments'],
  rewritten: [],
  alreadyCurrent: [],
  conflictsResolved: [],
  failed: [],
  skipped: [],
  namespaceFailures: [],
  counts,
};

function render(allowed: boolean) {
  return renderInTestApp(
    <TestApiProvider
      apis={[
        [kryptonApiRef, client],
        [
          permissionApiRef,
          new MockPermissionApi(() =>
            allowed ? AuthorizeResult.ALLOW : AuthorizeResult.DENY,
          ),
        ],
      ]}
    >
      <StorageOperatorSection />
    </TestApiProvider>,
  );
}

describe('StorageOperatorSection', () => {
  registerMswTestHooks(server);

  it('runs a rewrite of the named namespace and shows the last run per namespace', async () => {
    let runs: unknown[] = [];
    let query = '';
    server.use(
      http.get(`${baseUrl}/storage-rewrite/last`, () =>
        HttpResponse.json({ runs }),
      ),
      http.get(`${baseUrl}/storage-rewrite/migrations`, () =>
        HttpResponse.json({ served: false, migrations: [] }),
      ),
      http.post(`${baseUrl}/storage-rewrite`, ({ request }) => {
        query = new URL(request.url).search;
        runs = [
          {
            namespace: 'payments',
            result,
            requestedBy: 'user:default/ops',
            requestedAt: result.startedAt,
          },
        ];
        return HttpResponse.json(result);
      }),
    );
    await render(true);
    expect(
      await screen.findByText(
        'This cluster does not serve storagemigration.k8s.io.',
      ),
    ).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText(/Namespace/), {
      target: { value: 'payments' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Rewrite storage' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Rewritten 6, already current 0, conflicts resolved 0, failed 0, skipped 2.',
    );
    expect(query).toBe('?namespace=payments');
    await waitFor(() =>
      expect(screen.getByText('user:default/ops')).toBeInTheDocument(),
    );
  });

  it('shows the server message when the rewrite is refused', async () => {
    server.use(
      http.get(`${baseUrl}/storage-rewrite/last`, () =>
        HttpResponse.json({ runs: [] }),
      ),
      http.get(`${baseUrl}/storage-rewrite/migrations`, () =>
        HttpResponse.json({
          served: true,
          migrations: [{ name: 'm1', phase: 'Running' }],
        }),
      ),
      http.post(`${baseUrl}/storage-rewrite`, () =>
        HttpResponse.json(
          {
            error:
              'You are not allowed to do this by the Backstage permission policy.',
          },
          { status: 403 },
        ),
      ),
    );
    await render(true);
    expect(
      await screen.findByText(
        'Cluster StorageVersionMigrations of Secrets: m1 (Running).',
      ),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Rewrite storage' }));
    expect(
      await screen.findAllByText(
        /not allowed to do this by the Backstage permission policy/,
      ),
    ).not.toHaveLength(0);
  });
});
