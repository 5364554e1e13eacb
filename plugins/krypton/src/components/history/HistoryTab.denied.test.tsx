import { registerMswTestHooks, renderInTestApp } from '@backstage/test-utils';
import { messages } from '@krypton/core';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { KryptonApis } from '../../__testUtils__/krypton';
import {
  Harness,
  HarnessProps,
  allowAll,
  historyRoutes,
  serveHistory,
} from './__testUtils__/history';

// A file of its own, like the other denied cases: refusals here must not leak into other tests.
const server = setupServer();

function render(props: HarnessProps = {}) {
  return renderInTestApp(
    <KryptonApis>
      <Harness {...props} />
    </KryptonApis>,
    historyRoutes,
  );
}

const restoreButtons = () =>
  screen.queryAllByRole('button', { name: /^Restore version/ });

describe('HistoryTab when access is denied', () => {
  registerMswTestHooks(server);

  it('says a 403 is a refusal, not an empty history, and Retry recovers', async () => {
    const { state, calls } = serveHistory(server);
    const answer = state.list;
    state.list = () =>
      HttpResponse.json({ error: messages.forbiddenAcl }, { status: 403 });
    const user = userEvent.setup();
    await render({ noSummary: true });

    expect(
      await screen.findByText("You may not see this Secret's history"),
    ).toBeInTheDocument();
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent(messages.forbiddenAcl);
    expect(alert).toHaveTextContent('This is not an empty history');
    expect(screen.queryByText(/No versions yet/)).toBeNull();
    expect(screen.queryByText('The history is unavailable')).toBeNull();

    state.list = answer;
    await user.click(screen.getByRole('button', { name: 'Retry history' }));
    expect(
      await screen.findByRole('table', { name: 'Versions' }),
    ).toBeInTheDocument();
    expect(calls.lists).toBe(2);
  });

  it('lists versions but offers no restore when the live summary could not be read', async () => {
    serveHistory(server);
    await render({ noSummary: true });
    await screen.findByRole('table', { name: 'Versions' });
    expect(
      screen.getByText(
        /Restore is not available: The live Secret could not be read/,
      ),
    ).toBeInTheDocument();
    expect(restoreButtons()).toHaveLength(2);
    for (const button of restoreButtons()) expect(button).toBeDisabled();
  });

  it('disables restore with the decision reason when the user may not restore', async () => {
    serveHistory(server);
    const reason = "Only the Secret's editors and owners may do this.";
    await render({
      decisions: allowAll({ restore: { allowed: false, reason } }),
    });
    await screen.findByRole('table', { name: 'Versions' });
    expect(
      screen.getByText(
        `Restore is not available: You may not restore versions of this Secret. ${reason}`,
      ),
    ).toBeInTheDocument();
    for (const button of restoreButtons()) expect(button).toBeDisabled();
  });

  it('does not open version values for a user who may not reveal them, and compares keys only', async () => {
    const { calls } = serveHistory(server);
    const reason =
      'The Backstage permission policy does not grant krypton.secret.reveal.';
    const user = userEvent.setup();
    await render({
      summaryOnly: true,
      decisions: allowAll({ reveal: { allowed: false, reason } }),
    });
    const table = await screen.findByRole('table', { name: 'Versions' });
    expect(
      within(table).getByRole('button', { name: 'View values of version 2' }),
    ).toBeDisabled();
    expect(
      screen.getByText(
        `You may not reveal values, so versions cannot be opened. ${reason}`,
      ),
    ).toBeInTheDocument();

    // Restore is still offered, with a key-level diff that reads no values.
    await user.click(
      within(table).getByRole('button', { name: 'Restore version 2' }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(
      'Only key names are compared: you may not reveal the live values.',
    );
    const diff = within(dialog).getByRole('table', {
      name: 'Changes from live to version 2',
    });
    expect(
      within(diff).getAllByText('In both (values not compared)'),
    ).toHaveLength(2);
    expect(calls.versionReads).toEqual([]);
  });
});
