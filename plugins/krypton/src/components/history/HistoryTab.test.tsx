import { registerMswTestHooks, renderInTestApp } from '@backstage/test-utils';
import { SecretWriteAnswer, messages } from '@krypton/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { KryptonApis } from '../../__testUtils__/krypton';
import {
  Harness,
  HarnessProps,
  LIVE,
  LIVE_PASSWORD,
  V1_PASSWORD,
  V2_PASSWORD,
  historyRoutes,
  serveHistory,
  versionSummary,
} from './__testUtils__/history';

const server = setupServer();

function render(props: HarnessProps = {}) {
  return renderInTestApp(
    <KryptonApis>
      <Harness {...props} />
    </KryptonApis>,
    historyRoutes,
  );
}

const versionsTable = () => screen.findByRole('table', { name: 'Versions' });

/** The table row whose row header has this name. */
function rowOf(table: HTMLElement, name: string): HTMLElement {
  const tr = within(table).getByRole('rowheader', { name }).closest('tr');
  if (!tr) throw new Error(`no row ${name}`);
  return tr;
}

const unavailable = () =>
  HttpResponse.json({ error: messages.historyUnreadable }, { status: 503 });

const restoreButtons = () =>
  screen.queryAllByRole('button', { name: /^Restore version/ });

describe('HistoryTab', () => {
  registerMswTestHooks(server);

  it('shows loading, then each version with who, when and its source type', async () => {
    const { state } = serveHistory(server);
    let release = () => {};
    const gate = new Promise<void>(resolve => {
      release = resolve;
    });
    const answer = state.list;
    state.list = async () => {
      await gate;
      return answer();
    };
    await render();
    expect(await screen.findByText('Loading history…')).toHaveAttribute(
      'role',
      'status',
    );
    expect(screen.queryByText(/No versions yet/)).toBeNull();
    expect(restoreButtons()).toHaveLength(0);

    release();
    const table = await versionsTable();
    expect(screen.queryByText('Loading history…')).toBeNull();
    const v2 = rowOf(table, 'Version 2');
    // Who: a link to the catalog entity; when: relative, with the exact time in the markup.
    expect(within(v2).getByRole('link', { name: /editor-2/ })).toHaveAttribute(
      'href',
      '/catalog/default/user/editor-2',
    );
    const when = v2.querySelector('time');
    expect(when).toHaveAttribute('datetime', '2024-05-02T10:00:00Z');
    expect(when).toHaveTextContent(/ago$/);
    expect(when).toHaveAttribute('title');
    expect(within(v2).getByText('Opaque')).toBeInTheDocument();
    expect(
      within(v2).getByRole('button', { name: 'Restore version 2' }),
    ).toBeEnabled();
    expect(rowOf(table, 'Version 1')).toBeInTheDocument();
  });

  it('keeps words whole in a narrow table: a type breaks after its slash, names and buttons not at all', async () => {
    const { state } = serveHistory(server);
    state.list = () =>
      HttpResponse.json({
        items: [
          versionSummary(2, { sourceType: 'kubernetes.io/dockerconfigjson' }),
        ],
      });
    await render();
    const v2 = rowOf(await versionsTable(), 'Version 2');
    const type = within(v2).getByText('kubernetes.io/dockerconfigjson');
    // The only place where the type may wrap: right after its slash.
    expect(type.querySelector('wbr')?.previousSibling?.textContent).toBe('/');
    expect(within(v2).getByText('Version 2')).toHaveStyle({
      whiteSpace: 'nowrap',
    });
    for (const button of within(v2).getAllByRole('button')) {
      expect(button).toHaveStyle({ whiteSpace: 'nowrap' });
    }
  });

  it('says a successfully empty history has no versions yet and how one is kept', async () => {
    const { state } = serveHistory(server);
    state.list = () => HttpResponse.json({ items: [] });
    await render();
    expect(await screen.findByText(/^No versions yet:/)).toHaveTextContent(
      'The first edit or restore archives the current state',
    );
    expect(screen.queryByRole('table', { name: 'Versions' })).toBeNull();
    expect(screen.queryByText(/may not see this Secret's history/)).toBeNull();
    expect(screen.queryByText(/unavailable/)).toBeNull();
  });

  it('reports an unavailable history with the server message, and Retry recovers', async () => {
    const { state, calls } = serveHistory(server);
    const answer = state.list;
    state.list = unavailable;
    const user = userEvent.setup();
    await render();

    expect(
      await screen.findByText('The history is unavailable'),
    ).toBeInTheDocument();
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent(messages.historyUnreadable);
    expect(alert).toHaveTextContent(
      'This does not mean that any versions are gone',
    );
    expect(screen.queryByText(/No versions yet/)).toBeNull();
    expect(restoreButtons()).toHaveLength(0);

    state.list = answer;
    await user.click(screen.getByRole('button', { name: 'Retry history' }));
    await versionsTable();
    expect(screen.queryByText('The history is unavailable')).toBeNull();
    expect(calls.lists).toBe(2);
  });

  it('hides the earlier restore choices when a refresh fails, until Retry succeeds', async () => {
    const { state, calls } = serveHistory(server);
    const user = userEvent.setup();
    await render();
    await versionsTable();
    expect(restoreButtons()).toHaveLength(2);

    const answer = state.list;
    state.list = unavailable;
    await user.click(screen.getByRole('button', { name: 'Reload history' }));
    expect(
      await screen.findByText('The history is unavailable'),
    ).toBeInTheDocument();
    expect(restoreButtons()).toHaveLength(0);
    expect(screen.queryByRole('table', { name: 'Versions' })).toBeNull();
    expect(screen.queryByText('Version 2')).toBeNull();

    state.list = answer;
    await user.click(screen.getByRole('button', { name: 'Retry history' }));
    await versionsTable();
    expect(restoreButtons()).toHaveLength(2);
    expect(calls.lists).toBe(3);
  });

  it('reads a version only when opened, and shows its values masked until revealed', async () => {
    const { calls } = serveHistory(server);
    const user = userEvent.setup();
    await render();
    const table = await versionsTable();
    expect(calls.versionReads).toEqual([]);

    await user.click(
      within(table).getByRole('button', { name: 'View values of version 2' }),
    );
    const values = await screen.findByRole('table', {
      name: 'Values of version 2',
    });
    expect(calls.versionReads).toEqual([2]);
    expect(document.body.textContent).not.toContain(V2_PASSWORD);
    expect(document.body.textContent).not.toContain(LIVE_PASSWORD);
    expect(document.body.textContent).not.toContain('AAEC/g==');
    expect(within(values).getAllByText('Hidden')).toHaveLength(3);

    await user.click(
      within(rowOf(values, 'password')).getByRole('button', {
        name: 'Reveal',
      }),
    );
    expect(within(values).getByText(V2_PASSWORD)).toBeInTheDocument();
    // Revealing one value reveals nothing else.
    expect(document.body.textContent).not.toContain('AAEC/g==');
    expect(document.body.textContent).not.toContain(LIVE_PASSWORD);

    await user.click(
      within(table).getByRole('button', { name: 'Hide values of version 2' }),
    );
    expect(document.body.textContent).not.toContain(V2_PASSWORD);
  });

  it('compares a version with live and, on request, with the previous version, masking values', async () => {
    const { calls } = serveHistory(server);
    const user = userEvent.setup();
    await render();
    const table = await versionsTable();
    await user.click(
      within(table).getByRole('button', { name: 'View values of version 2' }),
    );

    const toLive = await screen.findByRole('table', {
      name: 'Changes from version 2 to live',
    });
    expect(within(rowOf(toLive, 'password')).getByText('Changed')).toBeTruthy();
    expect(
      within(rowOf(toLive, 'username')).getByText('Unchanged'),
    ).toBeTruthy();
    const blob = rowOf(toLive, 'blob');
    expect(within(blob).getByText('Changed')).toBeInTheDocument();
    expect(within(blob).getAllByText('binary, not shown')).toHaveLength(2);
    expect(within(blob).queryByRole('button')).toBeNull();
    expect(document.body.textContent).not.toContain(LIVE_PASSWORD);

    await user.click(
      within(toLive).getByRole('button', {
        name: 'Reveal the value of password in live',
      }),
    );
    expect(within(toLive).getByText(LIVE_PASSWORD)).toBeInTheDocument();
    expect(document.body.textContent).not.toContain(V2_PASSWORD);

    // The previous version is another value read, made only when asked for.
    expect(calls.versionReads).toEqual([2]);
    await user.click(
      screen.getByRole('button', { name: 'Compare with version 1 (previous)' }),
    );
    const fromPrevious = await screen.findByRole('table', {
      name: 'Changes from version 1 to version 2',
    });
    expect(calls.versionReads).toEqual([2, 1]);
    expect(
      within(rowOf(fromPrevious, 'legacy')).getByText('Removed'),
    ).toBeInTheDocument();
    expect(
      within(rowOf(fromPrevious, 'blob')).getByText('Unchanged'),
    ).toBeInTheDocument();
    expect(
      within(rowOf(fromPrevious, 'password')).getByText('Changed'),
    ).toBeInTheDocument();
    expect(document.body.textContent).not.toContain(V1_PASSWORD);
  });

  it('compares keys only, and says so, when the live values are not available', async () => {
    serveHistory(server);
    const user = userEvent.setup();
    await render({ summaryOnly: true });
    const table = await versionsTable();
    await user.click(
      within(table).getByRole('button', { name: 'View values of version 2' }),
    );
    const toLive = await screen.findByRole('table', {
      name: 'Changes from version 2 to live',
    });
    expect(
      screen.getByText(
        'Only key names are compared: the live values are not loaded.',
      ),
    ).toBeInTheDocument();
    expect(
      within(rowOf(toLive, 'password')).getByText(
        'In both (values not compared)',
      ),
    ).toBeInTheDocument();
    expect(within(toLive).queryByText('Changed')).toBeNull();
  });

  it('confirms a restore with the diff, the archive version and the revision, then restores', async () => {
    const { state, calls } = serveHistory(server);
    const restored: SecretWriteAnswer[] = [];
    const user = userEvent.setup();
    await render({ onRestored: secret => restored.push(secret) });
    const table = await versionsTable();
    await user.click(
      within(table).getByRole('button', { name: 'Restore version 2' }),
    );

    const dialog = await screen.findByRole('dialog', {
      name: 'Restore version 2?',
    });
    expect(dialog).toHaveTextContent(
      'The current live state is archived first as version 3',
    );
    expect(dialog).toHaveTextContent('Expected revision: 100.');
    const diff = await within(dialog).findByRole('table', {
      name: 'Changes from live to version 2',
    });
    expect(within(rowOf(diff, 'password')).getByText('Changed')).toBeTruthy();
    expect(document.body.textContent).not.toContain(V2_PASSWORD);
    expect(document.body.textContent).not.toContain(LIVE_PASSWORD);

    state.list = () =>
      HttpResponse.json({
        items: [
          versionSummary(3, { sourceResourceVersion: '100' }),
          versionSummary(2),
          versionSummary(1),
        ],
      });
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));

    await waitFor(() => expect(restored).toHaveLength(1));
    expect(calls.restores).toEqual([{ version: 2, resourceVersion: '100' }]);
    expect(restored[0].resourceVersion).toBe('101');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(
      screen.getByText(
        'Restored version 2. The previous live state was archived as version 3.',
      ),
    ).toBeInTheDocument();
    // The history is fetched again and shows the archived state.
    const after = await versionsTable();
    expect(rowOf(after, 'Version 3')).toBeInTheDocument();
    expect(calls.lists).toBe(2);
  });

  it('reads the live values only for the confirmation, and compares values once they arrive', async () => {
    const { calls } = serveHistory(server);
    const user = userEvent.setup();
    await render({ onDemand: true });
    const table = await versionsTable();
    expect(calls.liveReads).toBe(0);
    await user.click(
      within(table).getByRole('button', { name: 'Restore version 2' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Restore version 2?',
    });
    const diff = await within(dialog).findByRole('table', {
      name: 'Changes from live to version 2',
    });
    // The confirmation opened before the values arrived takes them: a value diff, not key names.
    expect(
      await within(rowOf(diff, 'password')).findByText('Changed'),
    ).toBeTruthy();
    expect(calls.liveReads).toBe(1);
    expect(document.body.textContent).not.toContain(LIVE_PASSWORD);
  });

  it('shows a 409 with Reload latest and never retries the restore on its own', async () => {
    const { state, calls } = serveHistory(server);
    state.restore = () =>
      HttpResponse.json({ error: messages.staleRevision }, { status: 409 });
    const restored: SecretWriteAnswer[] = [];
    const user = userEvent.setup();
    await render({ onRestored: secret => restored.push(secret) });
    const table = await versionsTable();
    await user.click(
      within(table).getByRole('button', { name: 'Restore version 2' }),
    );
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByRole('table', {
      name: 'Changes from live to version 2',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));

    expect(
      await within(dialog).findByText(
        'This Secret changed since you loaded it',
      ),
    ).toBeInTheDocument();
    expect(dialog).toHaveTextContent(messages.staleRevision);
    expect(
      within(dialog).getByRole('button', { name: 'Restore' }),
    ).toBeDisabled();
    expect(
      within(dialog).getByRole('button', { name: 'Reload latest' }),
    ).toBeEnabled();
    expect(calls.restores).toHaveLength(1);
    expect(restored).toHaveLength(0);
  });

  it('names the writer and tool of changes made outside Krypton, and links portal users', async () => {
    const { state } = serveHistory(server);
    state.list = () =>
      HttpResponse.json({
        items: [
          versionSummary(3, {
            snapshotBy: 'kubernetes:admin',
            snapshotVia: 'kubectl-edit',
          }),
          versionSummary(2, {
            snapshotBy: 'kubernetes:system:serviceaccount:external-secrets:eso',
          }),
          versionSummary(1, { snapshotBy: 'user:default/bob' }),
        ],
      });
    await render();
    const table = await versionsTable();
    expect(rowOf(table, 'Version 3')).toHaveTextContent(
      'kubectl edit by admin',
    );
    expect(rowOf(table, 'Version 2')).toHaveTextContent(
      're-synced by system:serviceaccount:external-secrets:eso',
    );
    expect(within(rowOf(table, 'Version 3')).queryByRole('link')).toBeNull();
    expect(
      within(rowOf(table, 'Version 1')).getByRole('link', { name: /bob/ }),
    ).toBeInTheDocument();
  });

  it('Reload latest refetches the live Secret and the history, then closes the dialog', async () => {
    const { state, calls } = serveHistory(server);
    const user = userEvent.setup();
    await render();
    const table = await versionsTable();
    await user.click(
      within(table).getByRole('button', { name: 'Restore version 2' }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Expected revision: 100.');

    // Someone else saved meanwhile: a new revision, and version 3 archived.
    state.live = () =>
      HttpResponse.json({ ...LIVE, resourceVersion: '105', version: 4 });
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
    expect(calls.liveReads).toBe(1);
    expect(calls.restores).toEqual([]);
    const after = await versionsTable();
    expect(
      within(rowOf(after, 'Version 3')).getByRole('link', { name: /bob/ }),
    ).toBeInTheDocument();

    // The next confirmation is pinned to the reloaded revision.
    await user.click(
      within(after).getByRole('button', { name: 'Restore version 2' }),
    );
    const next = await screen.findByRole('dialog');
    expect(next).toHaveTextContent('Expected revision: 105.');
    expect(next).toHaveTextContent('archived first as version 4');
  });

  it('keeps the dialog open with the error when Reload latest fails, without restoring', async () => {
    const { state, calls } = serveHistory(server);
    const user = userEvent.setup();
    await render();
    const table = await versionsTable();
    await user.click(
      within(table).getByRole('button', { name: 'Restore version 2' }),
    );
    const dialog = await screen.findByRole('dialog');

    state.live = () =>
      HttpResponse.json({ error: messages.unavailable }, { status: 503 });
    await user.click(
      within(dialog).getByRole('button', { name: 'Reload latest' }),
    );

    expect(
      await within(dialog).findByText('Could not reload the latest state'),
    ).toBeInTheDocument();
    expect(dialog).toHaveTextContent(
      `The live Secret could not be reloaded: ${messages.unavailable}`,
    );
    expect(dialog).toHaveTextContent('Nothing was restored.');
    expect(screen.getByRole('dialog')).toBe(dialog);
    expect(calls.liveReads).toBe(1);
    expect(calls.restores).toEqual([]);
    expect(
      within(dialog).getByRole('button', { name: 'Reload latest' }),
    ).toBeEnabled();
  });

  it('keeps the dialog open, with Restore disabled, when only the history fails to reload', async () => {
    const { state, calls } = serveHistory(server);
    const user = userEvent.setup();
    await render();
    const table = await versionsTable();
    await user.click(
      within(table).getByRole('button', { name: 'Restore version 2' }),
    );
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByRole('table', {
      name: 'Changes from live to version 2',
    });

    state.live = () =>
      HttpResponse.json({ ...LIVE, resourceVersion: '105', version: 4 });
    state.list = unavailable;
    await user.click(
      within(dialog).getByRole('button', { name: 'Reload latest' }),
    );

    expect(
      await within(dialog).findByText('Could not reload the latest state'),
    ).toBeInTheDocument();
    expect(dialog).toHaveTextContent(
      `The history could not be reloaded: ${messages.historyUnreadable}`,
    );
    // The reviewed revision is gone and the list is not current: no restore from this dialog.
    expect(
      within(dialog).getByRole('button', { name: 'Restore' }),
    ).toBeDisabled();
    expect(calls.restores).toEqual([]);
  });

  it('disables restore for an immutable Secret, with the reason', async () => {
    serveHistory(server);
    await render({ initial: { ...LIVE, immutable: true } });
    await versionsTable();
    expect(
      screen.getByText(/Restore is not available: The Secret is immutable/),
    ).toBeInTheDocument();
    const buttons = restoreButtons();
    expect(buttons).toHaveLength(2);
    for (const button of buttons) expect(button).toBeDisabled();
  });

  it('disables restore for a Secret pending deletion, with the reason', async () => {
    serveHistory(server);
    await render({
      initial: { ...LIVE, deletionTimestamp: '2024-06-01T00:00:00Z' },
    });
    await versionsTable();
    expect(
      screen.getByText(
        /Restore is not available: The Secret is being deleted \(deletion is pending\)/,
      ),
    ).toBeInTheDocument();
    for (const button of restoreButtons()) expect(button).toBeDisabled();
  });

  it('opens the restore of the newest version that is not the live revision for Roll back', async () => {
    const { state } = serveHistory(server);
    // Version 3 was taken from the live revision (its write failed), so it holds the live state.
    state.list = () =>
      HttpResponse.json({
        items: [
          versionSummary(3, { sourceResourceVersion: LIVE.resourceVersion }),
          versionSummary(2),
          versionSummary(1),
        ],
      });
    await render({ startRestore: true });
    expect(
      await screen.findByRole('dialog', { name: 'Restore version 2?' }),
    ).toBeInTheDocument();
  });
});
