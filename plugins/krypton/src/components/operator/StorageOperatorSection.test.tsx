import { DiscoveryApi } from '@backstage/core-plugin-api';
import { permissionApiRef } from '@backstage/plugin-permission-react';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  MockPermissionApi,
  TestApiProvider,
  registerMswTestHooks,
  renderInTestApp,
} from '@backstage/test-utils';
import { StorageRewriteResult } from '@krypton/plugin-krypton-common';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
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

const NOTE =
  'This verdict covers only the Secrets that Krypton labels, in the namespaces of this run. Every other Secret needs the upstream StorageVersionMigration of secrets.';
const DRY_RUN_REASON =
  'A dry run writes nothing, so it cannot confirm that any object is stored with the current key.';
const FAILED_REASON =
  'Objects could not be rewritten (see failed): they may still be stored with the old key.';
const UNAVAILABLE =
  'Kubernetes was unavailable, so this was not rewritten. Run the rewrite again later.';

const counts = {
  seen: 8,
  rewritten: 8,
  alreadyCurrent: 0,
  conflictsResolved: 0,
  gone: 0,
  failed: 0,
  quarantined: 1,
  legacy: 1,
};
const pass = {
  flagged: [],
  gone: [],
  failed: [],
  namespaceFailures: [],
  truncated: false,
  listRestarts: 0,
};
const ready: StorageRewriteResult = {
  ...pass,
  startedAt: '2026-11-30T12:00:00.000Z',
  finishedAt: '2026-11-30T12:00:01.000Z',
  dryRun: false,
  namespaces: ['payments'],
  counts,
  flagged: [
    {
      namespace: 'payments',
      name: 'krypton-h-odd-v1',
      reason: 'quarantined',
      outcome: 'rewritten',
    },
    {
      namespace: 'payments',
      name: 'db-v0',
      reason: 'legacy',
      outcome: 'rewritten',
    },
  ],
  recheck: { ...pass, counts: { ...counts, rewritten: 0, alreadyCurrent: 8 } },
  oldKeyRetirement: { verdict: 'ready', reasons: [], unmanagedSecrets: NOTE },
};

function render(allowed = true) {
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

  it('runs a rewrite, shows the verdict and the quarantined and legacy objects, then the last run per namespace', async () => {
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
            result: ready,
            requestedBy: 'user:default/ops',
            requestedAt: ready.startedAt,
          },
        ];
        return HttpResponse.json(ready);
      }),
    );
    await render();
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
      'Seen 8, rewritten 8, already current 0, conflicts resolved 0, gone 0, failed 0.',
    );
    expect(query).toBe('?namespace=payments');
    const verdict = screen.getByTestId('krypton-old-key-verdict');
    expect(verdict).toHaveTextContent(
      'Old key: ready to retire (for the Secrets Krypton labels)',
    );
    expect(verdict).toHaveTextContent(NOTE);
    expect(
      screen.getByText(
        'Second pass over the namespaces where the first one wrote: rewritten 0, already current 8, failed 0.',
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        'Quarantined and legacy objects (re-encoded, still to review)',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('krypton-h-odd-v1')).toBeInTheDocument();
    expect(screen.getByText('db-v0')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByText('user:default/ops')).toBeInTheDocument(),
    );
    const row = screen.getByText('user:default/ops').closest('tr')!;
    expect(within(row).getByText('ready')).toBeInTheDocument();
    expect(within(row).getByText('1 / 1')).toBeInTheDocument();
  });

  it('runs a dry run, which writes nothing and cannot make the old key ready', async () => {
    let query = '';
    const dry: StorageRewriteResult = {
      ...ready,
      dryRun: true,
      counts: { ...counts, rewritten: 0 },
      recheck: undefined,
      oldKeyRetirement: {
        verdict: 'blocked',
        reasons: [{ code: 'dry_run', count: 1, message: DRY_RUN_REASON }],
        unmanagedSecrets: NOTE,
      },
    };
    let lastCalls = 0;
    server.use(
      http.get(`${baseUrl}/storage-rewrite/last`, () => {
        lastCalls++;
        return HttpResponse.json({ runs: [] });
      }),
      http.get(`${baseUrl}/storage-rewrite/migrations`, () =>
        HttpResponse.json({ served: false, migrations: [] }),
      ),
      http.post(`${baseUrl}/storage-rewrite`, ({ request }) => {
        query = new URL(request.url).search;
        return HttpResponse.json(dry);
      }),
    );
    await render();
    fireEvent.change(await screen.findByLabelText(/Namespace/), {
      target: { value: 'payments' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Dry run' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Dry run: 8 objects in scope (1 quarantined, 1 legacy). Nothing was written.',
    );
    expect(query).toBe('?namespace=payments&dryRun=true');
    expect(screen.getByTestId('krypton-old-key-verdict')).toHaveTextContent(
      `Old key: not ready to retire1 × ${DRY_RUN_REASON}`,
    );
    // A dry run is not kept, so the runs are not read again.
    expect(lastCalls).toBe(1);
  });

  it('shows a blocked verdict with its reasons, the failed objects and the namespaces not read', async () => {
    const blocked: StorageRewriteResult = {
      ...ready,
      counts: { ...counts, rewritten: 6, failed: 1, gone: 1 },
      flagged: [],
      failed: [
        {
          namespace: 'payments',
          name: 'db',
          kind: 'live',
          code: 'unavailable',
          message: UNAVAILABLE,
          httpStatus: 503,
        },
      ],
      gone: [{ namespace: 'payments', name: 'victim', kind: 'snapshot' }],
      namespaceFailures: [
        {
          namespace: '',
          code: 'forbidden',
          message: 'Krypton may not list.',
          httpStatus: 403,
        },
      ],
      listRestarts: 2,
      oldKeyRetirement: {
        verdict: 'blocked',
        reasons: [{ code: 'failed', count: 1, message: FAILED_REASON }],
        unmanagedSecrets: NOTE,
      },
    };
    server.use(
      http.get(`${baseUrl}/storage-rewrite/last`, () =>
        HttpResponse.json({ runs: [] }),
      ),
      http.get(`${baseUrl}/storage-rewrite/migrations`, () =>
        HttpResponse.json({ served: false, migrations: [] }),
      ),
      http.post(`${baseUrl}/storage-rewrite`, () =>
        HttpResponse.json(blocked, { status: 207 }),
      ),
    );
    await render();
    fireEvent.click(
      await screen.findByRole('button', { name: 'Rewrite storage' }),
    );
    const verdict = await screen.findByTestId('krypton-old-key-verdict');
    expect(verdict).toHaveTextContent('Old key: not ready to retire');
    expect(verdict).toHaveTextContent(`1 × ${FAILED_REASON}`);
    expect(screen.getByText(UNAVAILABLE)).toBeInTheDocument();
    expect(screen.getByText('Gone meanwhile')).toBeInTheDocument();
    expect(screen.getByText('victim')).toBeInTheDocument();
    expect(screen.getByText('(the namespace list)')).toBeInTheDocument();
    expect(
      screen.getByText(
        'Lists were started again 2 times after their continuation expired.',
      ),
    ).toBeInTheDocument();
  });

  it('shows the cluster migrations since the last run, and the manifest while none has succeeded', async () => {
    const sinces: Array<string | null> = [];
    server.use(
      http.get(`${baseUrl}/storage-rewrite/last`, () =>
        HttpResponse.json({
          runs: [
            {
              namespace: 'payments',
              result: ready,
              requestedBy: 'user:default/ops',
              requestedAt: ready.startedAt,
            },
          ],
        }),
      ),
      http.get(`${baseUrl}/storage-rewrite/migrations`, ({ request }) => {
        sinces.push(new URL(request.url).searchParams.get('since'));
        return HttpResponse.json({
          served: true,
          version: 'v1',
          migrations: [{ name: 'm1', phase: 'Running' }],
          succeededSince: false,
          manifest:
            'apiVersion: storagemigration.k8s.io/v1\nkind: StorageVersionMigration\n',
        });
      }),
    );
    await render();
    expect(
      await screen.findByText(
        'Cluster StorageVersionMigrations of Secrets: m1 (Running).',
      ),
    ).toBeInTheDocument();
    expect(sinces).toEqual([ready.startedAt]);
    expect(
      screen.getByText(/No migration of secrets created after the last run/),
    ).toBeInTheDocument();
    // The snippet highlights the YAML in spans of its own: read the code block whole.
    expect(document.querySelector('pre code')?.textContent).toContain(
      'apiVersion: storagemigration.k8s.io/v1\nkind: StorageVersionMigration',
    );
  });

  it('says so when a migration of secrets has succeeded since the last run', async () => {
    server.use(
      http.get(`${baseUrl}/storage-rewrite/last`, () =>
        HttpResponse.json({ runs: [] }),
      ),
      http.get(`${baseUrl}/storage-rewrite/migrations`, () =>
        HttpResponse.json({
          served: true,
          version: 'v1',
          migrations: [{ name: 'm2', phase: 'Succeeded' }],
          succeededSince: true,
          manifest: 'apiVersion: storagemigration.k8s.io/v1\n',
        }),
      ),
    );
    await render();
    expect(
      await screen.findByText(
        'A migration of secrets created after the last run has succeeded.',
      ),
    ).toBeInTheDocument();
    expect(document.querySelector('pre code')).toBeNull();
  });

  it('shows the server message when the rewrite is refused', async () => {
    server.use(
      http.get(`${baseUrl}/storage-rewrite/last`, () =>
        HttpResponse.json({ runs: [] }),
      ),
      http.get(`${baseUrl}/storage-rewrite/migrations`, () =>
        HttpResponse.json({ served: false, migrations: [] }),
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
    await render();
    fireEvent.click(
      await screen.findByRole('button', { name: 'Rewrite storage' }),
    );
    expect(
      await screen.findAllByText(
        /not allowed to do this by the Backstage permission policy/,
      ),
    ).not.toHaveLength(0);
    expect(screen.queryByTestId('krypton-old-key-verdict')).toBeNull();
  });
});
