import { Entity } from '@backstage/catalog-model';
import { catalogApiRef, entityRouteRef } from '@backstage/plugin-catalog-react';
import { catalogApiMock } from '@backstage/plugin-catalog-react/testUtils';
import {
  TestApiProvider,
  registerMswTestHooks,
  renderInTestApp,
} from '@backstage/test-utils';
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
  listItem,
} from '../../__testUtils__/krypton';
import { rootRouteRef } from '../../routes';
import {
  catalogEntities,
  consumers,
  versions,
} from '../consumers/__testUtils__/consumers';
import {
  LIVE,
  LIVE_PASSWORD,
  VERSIONS,
  toSummary,
  versionSummary,
} from '../history/__testUtils__/history';
import { KryptonPage } from '../KryptonPage';

// The detail view wired into the real page: its routes and query parameters, and the History,
// Consumers and Delete parts against msw, so each assertion is about a request that was sent.
/** Which version the pods hold, for the Consumers tab: every pod at the live version. */
const server = setupServer(
  http.get(/\/consumers\/pods$/, () => HttpResponse.json(versions())),
);
const prefix = `${baseUrl}/namespaces/demo/secrets/db`;

/** The loaded live revision: distinct from every fixture default, so requests prove its origin. */
const LIVE_RV = '4711';
const live = { ...LIVE, resourceVersion: LIVE_RV };
const PENDING_SINCE = '2026-05-01T12:00:00Z';

/** An entity that sorts before component:payments by title, so "first" is not alphabetical. */
const agentEntity: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: {
    name: 'agent-daemon',
    namespace: 'default',
    title: 'Agent daemon',
    annotations: { 'backstage.io/kubernetes-label-selector': 'app=agent' },
  },
};

type Answer = () => Response | Promise<Response>;

/**
 * Serves the config, the Secret's routes, its history and consumers, and the list page, from
 * mutable answers, recording every request. Change `state` between steps to change the answers.
 */
function serve(options: { restartEnabled?: boolean } = {}) {
  const state: Record<
    'summary' | 'live' | 'list' | 'restore' | 'remove',
    Answer
  > = {
    summary: () => HttpResponse.json(toSummary(live)),
    live: () => HttpResponse.json(live),
    list: () =>
      HttpResponse.json({ items: [versionSummary(2), versionSummary(1)] }),
    restore: () =>
      HttpResponse.json({ ...live, resourceVersion: '4712', version: 4 }),
    remove: () => HttpResponse.json({ error: 'not expected' }, { status: 500 }),
  };
  const calls = {
    summaries: 0,
    liveReads: 0,
    lists: 0,
    restores: [] as unknown[],
    deletes: [] as URLSearchParams[],
    consumers: 0,
    restarts: 0,
    namespaceLists: 0,
  };
  server.use(
    http.get(`${baseUrl}/config`, () =>
      HttpResponse.json(
        kryptonConfig({ restartEnabled: options.restartEnabled ?? false }),
      ),
    ),
    http.get(`${prefix}/summary`, () => {
      calls.summaries += 1;
      return state.summary();
    }),
    http.get(prefix, () => {
      calls.liveReads += 1;
      return state.live();
    }),
    http.delete(prefix, ({ request }) => {
      calls.deletes.push(new URL(request.url).searchParams);
      return state.remove();
    }),
    http.get(`${prefix}/versions`, () => {
      calls.lists += 1;
      return state.list();
    }),
    http.get(`${prefix}/versions/:version`, ({ params }) => {
      const dto = VERSIONS[Number(params.version)];
      return dto
        ? HttpResponse.json(dto)
        : HttpResponse.json(
            { error: messages.versionNotFound },
            { status: 404 },
          );
    }),
    http.post(`${prefix}/restore`, async ({ request }) => {
      calls.restores.push(await request.json());
      return state.restore();
    }),
    http.get(`${prefix}/consumers`, () => {
      calls.consumers += 1;
      return HttpResponse.json(consumers());
    }),
    http.get(`${prefix}/restart-consumers/last`, () =>
      HttpResponse.json({ last: null }),
    ),
    http.post(`${prefix}/restart-consumers`, () => {
      calls.restarts += 1;
      return HttpResponse.json({ error: 'not expected' }, { status: 500 });
    }),
    // The list page the detail view returns to after a confirmed delete.
    http.get(`${baseUrl}/namespaces/demo/secrets`, () => {
      calls.namespaceLists += 1;
      return HttpResponse.json({
        items: [listItem({ name: 'api-key', version: 7 })],
      });
    }),
    http.get(/\/storage-rewrite\/last$/, () => HttpResponse.json({ runs: [] })),
    http.get(/\/storage-rewrite\/migrations$/, () =>
      HttpResponse.json({ served: false, migrations: [] }),
    ),
  );
  return { state, calls };
}

/** The platform page at an address, with a catalog for the Consumers tab's grouping. */
function renderAt(path: string, entities: Entity[] = []) {
  return renderInTestApp(
    <KryptonApis>
      <TestApiProvider apis={[[catalogApiRef, catalogApiMock({ entities })]]}>
        <Routes>
          <Route path="/krypton/*" element={<KryptonPage />} />
        </Routes>
      </TestApiProvider>
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

/** A tab of the detail view; `hidden` also finds it behind an open (modal) dialog. */
const tab = (name: string) => screen.getByRole('tab', { name, hidden: true });

/** The table row whose row header has this name. */
function rowOf(table: HTMLElement, name: string): HTMLElement {
  return within(table)
    .getByRole('rowheader', { name })
    .closest('tr') as HTMLElement;
}

/** Waits for the restore confirmation to know what changes, so that Restore is enabled. */
async function readyRestoreDialog(name: string) {
  const dialog = await screen.findByRole('dialog', { name });
  await within(dialog).findByRole('table', {
    name: /^Changes from live to version/,
  });
  await waitFor(() =>
    expect(
      within(dialog).getByRole('button', { name: 'Restore' }),
    ).toBeEnabled(),
  );
  return dialog;
}

/** Restores through the confirmation that ?rollback=1 opened, and waits for the notice. */
async function rollBack(user: ReturnType<typeof userEvent.setup>) {
  const dialog = await readyRestoreDialog('Restore version 2?');
  await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  return screen.findByText(/^Restored: the Secret is now at version 4/);
}

/** Opens Delete…, types the name, optionally keeps the history, and confirms. */
async function deleteSecret(
  user: ReturnType<typeof userEvent.setup>,
  keepHistory: boolean,
) {
  const button = await screen.findByRole('button', { name: 'Delete…' });
  await waitFor(() => expect(button).toBeEnabled());
  await user.click(button);
  const dialog = screen.getByRole('dialog', { name: 'Delete Secret db?' });
  await user.type(within(dialog).getByLabelText('Type db to confirm'), 'db');
  if (keepHistory) {
    await user.click(
      within(dialog).getByRole('checkbox', { name: 'Keep history' }),
    );
  }
  await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
}

describe('SecretDetail wiring of History, Consumers and Delete', () => {
  registerMswTestHooks(server);

  it('?rollback=1 waits for the live values, so its confirmation compares values, not key names', async () => {
    const { state, calls } = serve();
    let release = () => {};
    const held = new Promise<void>(resolve => {
      release = resolve;
    });
    state.live = async () => {
      await held;
      return HttpResponse.json(live);
    };
    await renderAt('/krypton/secret/demo/db?tab=history&rollback=1');
    await waitFor(() => expect(calls.lists).toBe(1));
    await waitFor(() => expect(calls.liveReads).toBe(1));
    // The history is known, the values are not: no confirmation yet.
    expect(screen.queryByRole('dialog')).toBeNull();
    release();
    const dialog = await readyRestoreDialog('Restore version 2?');
    expect(dialog).not.toHaveTextContent('Only key names are compared');
  });

  it('/history?rollback=1 confirms the newest restorable version, restores it and offers the restart', async () => {
    const { state, calls } = serve({ restartEnabled: true });
    // Version 3 was taken from the live revision itself, so rolling back means version 2.
    state.list = () =>
      HttpResponse.json({
        items: [
          versionSummary(3, { sourceResourceVersion: LIVE_RV }),
          versionSummary(2),
          versionSummary(1),
        ],
      });
    const user = userEvent.setup();
    await renderAt('/krypton/secret/demo/db/history?rollback=1');

    const dialog = await readyRestoreDialog('Restore version 2?');
    expect(tab('History')).toHaveAttribute('aria-selected', 'true');
    expect(dialog).toHaveTextContent(`Expected revision: ${LIVE_RV}.`);
    expect(dialog).toHaveTextContent(
      'The current live state is archived first as version 3',
    );
    expect(calls.restores).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    const notice = await screen.findByText(
      /^Restored: the Secret is now at version 4/,
    );
    expect(calls.restores).toEqual([{ version: 2, resourceVersion: LIVE_RV }]);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.consumers).toBe(0);

    const alert = notice.closest('[role="alert"]') as HTMLElement;
    await user.click(
      within(alert).getByRole('button', { name: 'Restart consumers…' }),
    );
    expect(tab('Consumers')).toHaveAttribute('aria-selected', 'true');
    expect(
      await screen.findByRole('table', {
        name: 'Consumers: Not in the catalog',
      }),
    ).toBeInTheDocument();
    expect(calls.consumers).toBe(1);
    // The action only switches tabs: nothing is restarted without the tab's own confirmation.
    expect(calls.restarts).toBe(0);
    expect(
      screen.queryByRole('button', { name: 'Restart consumers…' }),
    ).toBeNull();
    expect(
      screen.getByRole('button', { name: 'Restart consumers' }),
    ).toBeEnabled();
  });

  it('keeps no values after a restore answered redacted, and shows the restored version', async () => {
    const { state, calls } = serve();
    const { data: _data, binaryData: _binary, ...meta } = live;
    state.restore = () =>
      HttpResponse.json({
        ...meta,
        resourceVersion: '4712',
        version: 4,
        valuesOmitted: true,
      });
    const user = userEvent.setup();
    await renderAt('/krypton/secret/demo/db?tab=history&rollback=1');

    await rollBack(user);
    expect(calls.restores).toEqual([{ version: 2, resourceVersion: LIVE_RV }]);
    await user.click(tab('Values'));
    const facts = screen
      .getByText('Version', { selector: 'dt' })
      .closest('dl') as HTMLElement;
    expect(within(facts).getByText('4')).toBeInTheDocument();
    expect(
      screen.getByText(
        /The change was saved: the Secret is now at version 4, revision 4712\./,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Values' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reveal' })).toBeNull();
    expect(document.body.textContent).not.toContain(LIVE_PASSWORD);
    // Only the first load read the values; the restore's answer did not start another read.
    expect(calls.liveReads).toBe(1);
  });

  it('offers no restart after a restore when /config disables restarting', async () => {
    const { calls } = serve({ restartEnabled: false });
    const user = userEvent.setup();
    await renderAt('/krypton/secret/demo/db?tab=history&rollback=1');

    const notice = await rollBack(user);
    expect(calls.restores).toEqual([{ version: 2, resourceVersion: LIVE_RV }]);
    expect(
      within(notice.closest('[role="alert"]') as HTMLElement).queryByRole(
        'button',
        { name: 'Restart consumers…' },
      ),
    ).toBeNull();
    expect(
      screen.queryByRole('button', { name: 'Restart consumers…' }),
    ).toBeNull();
    expect(calls.consumers).toBe(0);
  });

  it('Reload latest in the restore confirmation refetches the live summary and the history, then closes', async () => {
    const { state, calls } = serve();
    const user = userEvent.setup();
    await renderAt('/krypton/secret/demo/db?tab=history&rollback=1');
    const dialog = await readyRestoreDialog('Restore version 2?');
    expect(dialog).toHaveTextContent(`Expected revision: ${LIVE_RV}.`);
    const before = { ...calls };

    // Someone else saved meanwhile: a new revision, and version 3 archived.
    const newer = { ...live, resourceVersion: '4720', version: 4 };
    state.summary = () => HttpResponse.json(toSummary(newer));
    state.live = () => HttpResponse.json(newer);
    state.list = () =>
      HttpResponse.json({
        items: [
          versionSummary(3, { snapshotBy: 'user:default/bob' }),
          versionSummary(2),
          versionSummary(1),
        ],
      });
    await user.click(
      within(dialog).getByRole('button', { name: 'Reload latest' }),
    );

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.summaries).toBe(before.summaries + 1);
    expect(calls.lists).toBe(before.lists + 1);
    // The values too, since this user may reveal them: the live Secret is reloaded as a whole.
    expect(calls.liveReads).toBe(before.liveReads + 1);
    expect(calls.restores).toEqual([]);
    const table = await screen.findByRole('table', { name: 'Versions' });
    expect(
      within(rowOf(table, 'Version 3')).getByRole('link', { name: /bob/ }),
    ).toBeInTheDocument();
    // ?rollback=1 opened the confirmation once; the reload does not open it again.
    expect(screen.queryByRole('dialog')).toBeNull();

    // The next confirmation is pinned to the reloaded live Secret.
    await user.click(
      within(table).getByRole('button', { name: 'Restore version 2' }),
    );
    const next = await screen.findByRole('dialog', {
      name: 'Restore version 2?',
    });
    expect(next).toHaveTextContent('Expected revision: 4720.');
    expect(next).toHaveTextContent('archived first as version 4');
  });

  it('leaves the detail view after a confirmed delete whose history was cleaned', async () => {
    const { state, calls } = serve();
    state.remove = () =>
      HttpResponse.json({ status: 'deleted', history: 'cleaned' });
    const user = userEvent.setup();
    await renderAt('/krypton/secret/demo/db');
    await deleteSecret(user, false);

    expect(await screen.findByText('Deleted demo/db')).toBeInTheDocument();
    expect(calls.deletes).toHaveLength(1);
    expect(calls.deletes[0].get('resourceVersion')).toBe(LIVE_RV);
    expect(calls.deletes[0].get('keepHistory')).toBe('false');
    const notice = screen
      .getByText('Deleted demo/db')
      .closest('[role="alert"]') as HTMLElement;
    expect(notice).toHaveTextContent(
      'Kubernetes confirmed that demo/db no longer exists.',
    );
    expect(notice).toHaveTextContent('Its history was cleaned');
    expect(notice).not.toHaveTextContent('Its history was kept');

    // The list of the Secret's namespace, not the detail view.
    expect(
      await screen.findByRole('link', { name: 'api-key' }),
    ).toHaveAttribute('href', '/krypton/secret/demo/api-key');
    expect(calls.namespaceLists).toBe(1);
    expect(screen.getByRole('textbox', { name: 'Namespace' })).toHaveValue(
      'demo',
    );
    expect(screen.queryByRole('tab', { hidden: true })).toBeNull();
    expect(screen.queryByRole('link', { name: 'db' })).toBeNull();
  });

  it('leaves the detail view after a confirmed delete that kept the history', async () => {
    const { state, calls } = serve();
    state.remove = () =>
      HttpResponse.json({ status: 'deleted', history: 'kept' });
    const user = userEvent.setup();
    await renderAt('/krypton/secret/demo/db');
    await deleteSecret(user, true);

    const title = await screen.findByText('Deleted demo/db');
    expect(calls.deletes).toHaveLength(1);
    expect(calls.deletes[0].get('resourceVersion')).toBe(LIVE_RV);
    expect(calls.deletes[0].get('keepHistory')).toBe('true');
    const notice = title.closest('[role="alert"]') as HTMLElement;
    expect(notice).toHaveTextContent('Its history was kept');
    expect(notice).not.toHaveTextContent('Its history was cleaned');
    expect(
      await screen.findByRole('link', { name: 'api-key' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('tab', { hidden: true })).toBeNull();
  });

  it('refetches the open History tab after a pending (202) delete, as Reload latest must', async () => {
    const { state, calls } = serve();
    state.remove = () =>
      HttpResponse.json(
        { status: 'pending', history: 'cleaned' },
        { status: 202 },
      );
    const user = userEvent.setup();
    await renderAt('/krypton/secret/demo/db?tab=history');
    await screen.findByRole('table', { name: 'Versions' });
    const listsBefore = calls.lists;
    await deleteSecret(user, false);

    await screen.findByText('Deletion of demo/db is pending');
    // A partial cleanup may have erased snapshots: the list is read again, not kept.
    await waitFor(() => expect(calls.lists).toBe(listsBefore + 1));
  });

  it('keeps the user on the Secret after a pending (202) delete and shows it pending everywhere', async () => {
    const { state, calls } = serve();
    const deleting = { ...live, deletionTimestamp: PENDING_SINCE };
    state.remove = () => {
      // From now on Kubernetes reports the same Secret as being deleted.
      state.summary = () => HttpResponse.json(toSummary(deleting));
      state.live = () => HttpResponse.json(deleting);
      return HttpResponse.json(
        { status: 'pending', history: 'cleaned' },
        { status: 202 },
      );
    };
    const user = userEvent.setup();
    await renderAt('/krypton/secret/demo/db');
    expect(
      await screen.findByRole('table', { name: 'Values' }),
    ).toBeInTheDocument();
    const summariesBefore = calls.summaries;
    await deleteSecret(user, false);

    expect(
      await screen.findByText('Deletion of demo/db is pending'),
    ).toBeInTheDocument();
    expect(calls.deletes).toHaveLength(1);
    expect(calls.deletes[0].get('resourceVersion')).toBe(LIVE_RV);
    expect(calls.deletes[0].get('keepHistory')).toBe('false');
    expect(screen.queryByText('Deleted demo/db')).toBeNull();

    // The refetched summary carries the deletionTimestamp.
    expect(
      (await screen.findByText(/^Since/)).querySelector('time'),
    ).toHaveAttribute('datetime', PENDING_SINCE);
    expect(calls.summaries).toBe(summariesBefore + 1);
    expect(screen.getByRole('button', { name: 'Delete…' })).toBeDisabled();
    expect(
      screen.getByText(
        `Kubernetes is already deleting this Secret (pending since ${PENDING_SINCE}).`,
      ),
    ).toBeInTheDocument();
    expect(calls.namespaceLists).toBe(0);

    await user.click(tab('History'));
    const table = await screen.findByRole('table', { name: 'Versions' });
    expect(
      screen.getByText(
        /^Restore is not available: The Secret is being deleted \(deletion is pending\)/,
      ),
    ).toBeInTheDocument();
    const restore = within(table).getByRole('button', {
      name: 'Restore version 2',
    });
    expect(restore).toBeDisabled();
    expect(restore).toHaveAccessibleDescription(
      /^Restore is not available: The Secret is being deleted/,
    );
  });

  it('shows a refused summary and a History card whose own 403 reads as denied, not as empty', async () => {
    const { state, calls } = serve();
    state.summary = () =>
      HttpResponse.json({ error: messages.forbiddenAcl }, { status: 403 });
    state.list = () =>
      HttpResponse.json({ error: messages.forbiddenAcl }, { status: 403 });
    await renderAt('/krypton/secret/demo/db');

    expect(
      await screen.findByText("You may not see this Secret's history"),
    ).toBeInTheDocument();
    expect(screen.getAllByText(/Could not load the Secret/)).not.toHaveLength(
      0,
    );
    const denied = screen
      .getByText("You may not see this Secret's history")
      .closest('[role="alert"]') as HTMLElement;
    expect(denied).toHaveTextContent(messages.forbiddenAcl);
    expect(denied).toHaveTextContent('This is not an empty history');
    expect(screen.queryByText(/No versions yet/)).toBeNull();
    expect(screen.queryByText('The history is unavailable')).toBeNull();
    expect(screen.queryByRole('tab', { hidden: true })).toBeNull();
    // One History card: HistoryTab draws its own, and nothing wraps it in another.
    expect(screen.getAllByText('History', { exact: true })).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Delete…' })).toBeNull();
    expect(calls.summaries).toBe(1);
    expect(calls.lists).toBe(1);
    // Without the summary nothing decides that values may be revealed, so none are read.
    expect(calls.liveReads).toBe(0);
  });

  it('?tab=consumers&entity= lists that entity’s workloads first', async () => {
    const { calls } = serve();
    await renderAt(
      `/krypton/secret/demo/db?tab=consumers&entity=${encodeURIComponent(
        'component:default/payments',
      )}`,
      [agentEntity, ...catalogEntities],
    );

    await screen.findByRole('table', { name: 'Consumers: component:payments' });
    expect(tab('Consumers')).toHaveAttribute('aria-selected', 'true');
    expect(calls.consumers).toBe(1);
    const tables = screen
      .getAllByRole('table')
      .map(t => t.getAttribute('aria-label'))
      .filter(label => label?.startsWith('Consumers:'));
    expect(tables).toEqual([
      'Consumers: component:payments',
      'Consumers: Agent daemon',
      'Consumers: Payment workers',
    ]);
    // The pods' versions, in a card of their own, have a heading per workload.
    const pods = await screen.findByRole('region', {
      name: 'Pods and the version they hold',
    });
    expect(
      screen
        .getAllByRole('heading', { level: 3 })
        .filter(h => !pods.contains(h))
        .map(h => h.textContent),
    ).toEqual([
      'component:payments (this entity)',
      'Agent daemon',
      'Payment workers',
    ]);
    expect(
      within(
        screen.getByRole('table', { name: 'Consumers: component:payments' }),
      )
        .getAllByRole('rowheader')
        .map(h => h.textContent),
    ).toEqual(['api']);
  });

  it('?tab=consumers without an entity orders the groups by title', async () => {
    serve();
    await renderAt('/krypton/secret/demo/db?tab=consumers', [
      agentEntity,
      ...catalogEntities,
    ]);

    await screen.findByRole('table', { name: 'Consumers: Agent daemon' });
    const tables = screen
      .getAllByRole('table')
      .map(t => t.getAttribute('aria-label'))
      .filter(label => label?.startsWith('Consumers:'));
    expect(tables).toEqual([
      'Consumers: Agent daemon',
      'Consumers: component:payments',
      'Consumers: Payment workers',
    ]);
    expect(screen.queryByText(/\(this entity\)/)).toBeNull();
  });
});
