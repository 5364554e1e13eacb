import { DiscoveryApi } from '@backstage/core-plugin-api';
import { permissionApiRef } from '@backstage/plugin-permission-react';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  MockPermissionApi,
  TestApiProvider,
  registerMswTestHooks,
  renderInTestApp,
} from '@backstage/test-utils';
import {
  StorageRewriteProgress,
  StorageRewriteResult,
  StorageRewriteRun,
  StorageRewriteRunStatus,
} from '@krypton/core';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { kryptonApiRef } from '../../api/KryptonApi';
import { KryptonClient } from '../../api/KryptonClient';
import { StorageOperatorSection } from './StorageOperatorSection';
import { RUN_POLL_MS } from './useRunPolling';

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
const CANCELLED_REASON =
  'The run was cancelled before it covered its scope: what it did not reach may still be stored with the old key.';
const UNAVAILABLE =
  'Kubernetes was unavailable, so this was not rewritten. Run the rewrite again later.';
const CANCELLED_WORDS =
  'Cancelled on request before it covered its scope. Objects rewritten until then stay rewritten; start a new run to cover the rest.';
const INTERRUPTED_WORDS =
  'Interrupted: the backend replica that ran it stopped before the run ended. Start it again: objects already rewritten count as current at once, so the new run catches up quickly.';

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

const progress: StorageRewriteProgress = {
  pass: 'first',
  namespacesDone: 0,
  seen: 0,
  rewritten: 0,
  alreadyCurrent: 0,
  failed: 0,
  gone: 0,
};

/** A run as the backend answers it; running in `payments` unless told otherwise. */
function status(
  over: Partial<Omit<StorageRewriteRunStatus, 'progress'>> & {
    progress?: Partial<StorageRewriteProgress>;
  } = {},
): StorageRewriteRunStatus {
  const { progress: moved, ...rest } = over;
  return {
    id: 'run-1',
    cluster: 'local',
    scope: 'payments',
    dryRun: false,
    state: 'running',
    requestedBy: 'user:default/ops',
    requestedAt: '2026-11-30T12:00:00.000Z',
    cancelRequested: false,
    heartbeatAt: '2026-11-30T12:00:00.000Z',
    ...rest,
    progress: { ...progress, ...moved },
  };
}

const failure = (message: string, code: number) =>
  HttpResponse.json({ error: message }, { status: code });

/**
 * Serves the section's reads: the runs, the last run per namespace and the cluster's migrations
 * (not served, unless the test says otherwise), with the reads of one run counted.
 */
function serve(state: {
  runs: () => StorageRewriteRunStatus[];
  last?: () => StorageRewriteRun[];
  run?: () => Response;
}) {
  const reads = { run: 0 };
  server.use(
    http.get(`${baseUrl}/storage-rewrite/runs`, () =>
      HttpResponse.json({ runs: state.runs() }),
    ),
    http.get(`${baseUrl}/storage-rewrite/runs/:id`, () => {
      reads.run++;
      return state.run?.() ?? failure('Not found', 404);
    }),
    http.get(`${baseUrl}/storage-rewrite/last`, () =>
      HttpResponse.json({ runs: state.last?.() ?? [] }),
    ),
    http.get(`${baseUrl}/storage-rewrite/migrations`, () =>
      HttpResponse.json({ served: false, migrations: [] }),
    ),
  );
  return reads;
}

function render() {
  return renderInTestApp(
    <TestApiProvider
      apis={[
        [kryptonApiRef, client],
        [permissionApiRef, new MockPermissionApi(() => AuthorizeResult.ALLOW)],
      ]}
    >
      <StorageOperatorSection />
    </TestApiProvider>,
  );
}

/** Moves the fake clock and lets the reads it starts answer and render. */
async function advance(ms: number) {
  await act(async () => {
    await jest.advanceTimersByTimeAsync(ms);
  });
}

const bar = () =>
  screen.getByRole('progressbar', { name: 'Progress of the storage rewrite' });

describe('StorageOperatorSection', () => {
  registerMswTestHooks(server);
  afterEach(() => {
    jest.useRealTimers();
  });

  it('starts a run, shows its progress every 2 s, then the result with the verdict, and stops reading', async () => {
    jest.useFakeTimers();
    let listed: StorageRewriteRunStatus[] = [];
    let last: StorageRewriteRun[] = [];
    let query = '';
    const answers = [
      status({
        progress: {
          seen: 300,
          rewritten: 290,
          alreadyCurrent: 10,
          remaining: 100,
        },
      }),
      status({
        state: 'succeeded',
        finishedAt: ready.finishedAt,
        progress: { pass: 'recheck', seen: 8, alreadyCurrent: 8, remaining: 0 },
        result: ready,
      }),
    ];
    const reads = serve({
      runs: () => listed,
      last: () => last,
      run: () => {
        const next = answers.shift()!;
        if (next.state !== 'running') {
          listed = [next];
          last = [
            {
              namespace: 'payments',
              result: ready,
              requestedBy: 'user:default/ops',
              requestedAt: ready.startedAt,
            },
          ];
        }
        return HttpResponse.json(next);
      },
    });
    server.use(
      http.post(`${baseUrl}/storage-rewrite`, ({ request }) => {
        query = new URL(request.url).search;
        const started = status({
          progress: {
            namespace: 'payments',
            namespacesTotal: 1,
            seen: 100,
            rewritten: 90,
            alreadyCurrent: 10,
            remaining: 300,
          },
        });
        listed = [started];
        return HttpResponse.json(started, { status: 202 });
      }),
    );
    await render();
    await advance(0);
    fireEvent.change(screen.getByLabelText(/Namespace/), {
      target: { value: 'payments' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Rewrite storage' }));
    await advance(0);
    expect(query).toBe('?namespace=payments');
    // One namespace: the objects seen against those the API server said remain.
    expect(bar()).toHaveAttribute('aria-valuenow', '25');
    const progressText = screen.getByRole('status');
    expect(progressText).toHaveTextContent(
      'First pass. Now in namespace payments.',
    );
    expect(progressText).toHaveTextContent(
      'Seen 100, rewritten 90, already current 10, failed 0, gone 0.',
    );
    expect(
      screen.getByRole('button', { name: 'Rewrite storage' }),
    ).toBeDisabled();
    expect(reads.run).toBe(0);

    await advance(RUN_POLL_MS);
    expect(reads.run).toBe(1);
    expect(bar()).toHaveAttribute('aria-valuenow', '75');
    expect(screen.getByRole('status')).toHaveTextContent(
      'Seen 300, rewritten 290',
    );

    await advance(RUN_POLL_MS);
    expect(reads.run).toBe(2);
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent(
      'Seen 8, rewritten 8, already current 0, conflicts resolved 0, gone 0, failed 0.',
    );
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
    expect(screen.getByText('krypton-h-odd-v1')).toBeInTheDocument();
    expect(screen.getByText('db-v0')).toBeInTheDocument();
    // The run in the table of runs, marked as the one shown, and where its namespace stands.
    const runRow = screen.getByText('shown above').closest('tr')!;
    expect(within(runRow).getByText('succeeded')).toBeInTheDocument();
    expect(within(runRow).getByText('ready')).toBeInTheDocument();
    expect(within(runRow).getByText('user:default/ops')).toBeInTheDocument();
    expect(screen.getByText('1 / 1')).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: 'Rewrite storage' }),
    ).toBeEnabled();

    await advance(5 * RUN_POLL_MS);
    expect(reads.run).toBe(2);
  });

  it('follows a running cluster-wide run after a reload, and cancels it after asking', async () => {
    jest.useFakeTimers();
    const running = status({
      id: 'run-9',
      scope: '*',
      requestedBy: 'user:default/other',
      progress: {
        namespace: 'team-b',
        namespacesDone: 3,
        namespacesTotal: 12,
        seen: 40,
        rewritten: 40,
      },
    });
    let current = running;
    let cancels = 0;
    const reads = serve({
      runs: () => [current],
      run: () => HttpResponse.json(current),
    });
    server.use(
      http.post(`${baseUrl}/storage-rewrite/runs/:id/cancel`, ({ params }) => {
        cancels++;
        expect(params.id).toBe('run-9');
        current = { ...current, cancelRequested: true };
        return HttpResponse.json(current, { status: 202 });
      }),
    );
    await render();
    await advance(0);
    // Every namespace: the namespaces done against those listed.
    expect(bar()).toHaveAttribute('aria-valuenow', '25');
    expect(screen.getByRole('status')).toHaveTextContent(
      'First pass. Now in namespace team-b.Namespaces done: 3 of 12.',
    );
    expect(
      screen.getByRole('button', { name: 'Rewrite storage' }),
    ).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Dry run' })).toBeDisabled();

    fireEvent.click(screen.getByRole('button', { name: 'Cancel run' }));
    const dialog = screen.getByRole('dialog', {
      name: 'Cancel this storage rewrite?',
    });
    fireEvent.click(
      within(dialog).getByRole('button', { name: 'Keep running' }),
    );
    // The dialog's closing transition, well before the next read is due.
    await advance(300);
    expect(cancels).toBe(0);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel run' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel the run' }));
    await advance(300);
    expect(reads.run).toBe(0);
    expect(cancels).toBe(1);
    expect(screen.getByRole('button', { name: 'Cancelling…' })).toBeDisabled();
    expect(screen.getByRole('status')).toHaveTextContent(
      'Cancel requested: the run stops before its next page of objects.',
    );
    const row = screen.getByText('shown above').closest('tr')!;
    expect(within(row).getByText('cancelling')).toBeInTheDocument();

    current = {
      ...current,
      state: 'cancelled',
      finishedAt: '2026-11-30T12:05:00.000Z',
      result: {
        ...ready,
        stopped: 'cancelled',
        recheck: undefined,
        oldKeyRetirement: {
          verdict: 'blocked',
          reasons: [{ code: 'cancelled', count: 1, message: CANCELLED_REASON }],
          unmanagedSecrets: NOTE,
        },
      },
    };
    await advance(RUN_POLL_MS);
    expect(reads.run).toBe(1);
    expect(screen.getByText(CANCELLED_WORDS)).toBeInTheDocument();
    expect(screen.getByTestId('krypton-old-key-verdict')).toHaveTextContent(
      `Old key: not ready to retire1 × ${CANCELLED_REASON}`,
    );
    expect(
      screen.queryByText(
        'The run reached its time limit before it covered its scope.',
      ),
    ).toBeNull();
    expect(
      screen.getByRole('button', { name: 'Rewrite storage' }),
    ).toBeEnabled();
  });

  it('backs off while the progress cannot be read, tells of an interrupted run, and stops reading on unmount', async () => {
    jest.useFakeTimers();
    const answers: Array<() => Response> = [
      () => failure('Service unavailable', 503),
      () => failure('Service unavailable', 503),
      () => HttpResponse.json(status({ progress: { seen: 5 } })),
      () =>
        HttpResponse.json(
          status({
            state: 'interrupted',
            finishedAt: '2026-11-30T12:03:00.000Z',
            error: 'The backend replica running this storage rewrite stopped.',
          }),
        ),
    ];
    const reads = serve({
      runs: () => [status()],
      run: () => (answers.shift() ?? (() => failure('Not found', 404)))(),
    });
    let starts = 0;
    server.use(
      http.post(`${baseUrl}/storage-rewrite`, ({ request }) => {
        starts++;
        expect(new URL(request.url).search).toBe('?dryRun=true');
        return HttpResponse.json(
          status({ id: 'run-2', scope: '*', dryRun: true }),
          { status: 202 },
        );
      }),
    );
    const { unmount } = await render();
    await advance(0);
    // Neither the namespaces nor the objects left are known yet: work goes on, how much is open.
    expect(bar()).not.toHaveAttribute('aria-valuenow');

    await advance(RUN_POLL_MS);
    expect(reads.run).toBe(1);
    expect(
      screen.getByText(
        'Could not read the progress (Service unavailable). Trying again in 4 s; the run itself goes on.',
      ),
    ).toBeInTheDocument();
    await advance(2 * RUN_POLL_MS - 1);
    expect(reads.run).toBe(1);
    await advance(1);
    expect(reads.run).toBe(2);
    expect(screen.getByText(/Trying again in 8 s/)).toBeInTheDocument();
    await advance(4 * RUN_POLL_MS);
    expect(reads.run).toBe(3);
    expect(screen.queryByText(/Could not read the progress/)).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('Seen 5,');
    // A success brings the wait back to 2 s.
    await advance(RUN_POLL_MS);
    expect(reads.run).toBe(4);
    expect(screen.getByText(INTERRUPTED_WORDS)).toBeInTheDocument();
    expect(screen.queryByTestId('krypton-old-key-verdict')).toBeNull();

    // Started again, then the page is left while it runs: nothing reads it any more.
    fireEvent.click(screen.getByRole('button', { name: 'Dry run' }));
    await advance(0);
    expect(starts).toBe(1);
    expect(
      screen.getByText(
        /^Dry run of all namespaces, requested by user:default\/ops/,
      ),
    ).toBeInTheDocument();
    unmount();
    await advance(10 * RUN_POLL_MS);
    expect(reads.run).toBe(4);
  });

  it('opens past runs: a blocked verdict with its reasons and failures, and a dry run', async () => {
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
    const dry: StorageRewriteResult = {
      ...ready,
      startedAt: '2026-11-30T13:00:00.000Z',
      dryRun: true,
      counts: { ...counts, rewritten: 0 },
      recheck: undefined,
      oldKeyRetirement: {
        verdict: 'blocked',
        reasons: [{ code: 'dry_run', count: 1, message: DRY_RUN_REASON }],
        unmanagedSecrets: NOTE,
      },
    };
    const sinces: Array<string | null> = [];
    serve({
      runs: () => [
        status({
          id: 'run-dry',
          scope: '*',
          dryRun: true,
          state: 'succeeded',
          requestedAt: dry.startedAt,
          finishedAt: dry.finishedAt,
          result: dry,
        }),
        status({
          id: 'run-blocked',
          state: 'succeeded',
          finishedAt: blocked.finishedAt,
          result: blocked,
        }),
      ],
    });
    server.use(
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
    fireEvent.click(
      await screen.findByRole('button', {
        name: `Show the run of payments requested at ${ready.startedAt}`,
      }),
    );
    const verdict = screen.getByTestId('krypton-old-key-verdict');
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
    // The cluster's migrations count from the start of the newest real run, not the dry one.
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

    fireEvent.click(
      screen.getByRole('button', {
        name: `Show the run of all namespaces requested at ${dry.startedAt}`,
      }),
    );
    expect(screen.getByRole('status')).toHaveTextContent(
      'Dry run: 8 objects in scope (1 quarantined, 1 legacy). Nothing was written.',
    );
    expect(screen.getByTestId('krypton-old-key-verdict')).toHaveTextContent(
      `Old key: not ready to retire1 × ${DRY_RUN_REASON}`,
    );
    expect(screen.getByText(/^Dry run of all namespaces/)).toBeInTheDocument();
  });

  it('says so when a migration of secrets has succeeded since the last run', async () => {
    serve({ runs: () => [] });
    server.use(
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

  it('shows the server message when the start is refused, and shows no run', async () => {
    serve({ runs: () => [] });
    server.use(
      http.post(`${baseUrl}/storage-rewrite`, () =>
        failure(
          'You are not allowed to do this by the Backstage permission policy.',
          403,
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
    expect(screen.queryByTestId('krypton-storage-run')).toBeNull();
    expect(
      screen.getByRole('button', { name: 'Rewrite storage' }),
    ).toBeEnabled();
  });
});
