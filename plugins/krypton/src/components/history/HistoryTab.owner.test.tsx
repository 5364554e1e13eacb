import { registerMswTestHooks, renderInTestApp } from '@backstage/test-utils';
import { SecretOwner } from '@krypton/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setupServer } from 'msw/node';
import { KryptonApis } from '../../__testUtils__/krypton';
import {
  Harness,
  LIVE,
  historyRoutes,
  serveHistory,
} from './__testUtils__/history';

const server = setupServer();

function helm(edits: SecretOwner['edits']): SecretOwner {
  return {
    tool: 'helm',
    kind: 'Release',
    name: 'web',
    namespace: 'demo',
    outcome: 'reverted-at-upgrade',
    evidence: ['app.kubernetes.io/managed-by', 'meta.helm.sh/release-name'],
    edits,
  };
}

function render(owner: SecretOwner) {
  return renderInTestApp(
    <KryptonApis>
      <Harness initial={{ ...LIVE, owner, dataAppliedBy: ['helm'] }} />
    </KryptonApis>,
    historyRoutes,
  );
}

const restoreButtons = () =>
  screen.queryAllByRole('button', { name: /^Restore version/ });

async function openRestore(user: ReturnType<typeof userEvent.setup>) {
  const table = await screen.findByRole('table', { name: 'Versions' });
  await user.click(
    within(table).getByRole('button', { name: 'Restore version 2' }),
  );
  const dialog = await screen.findByRole('dialog', {
    name: 'Restore version 2?',
  });
  // The comparison has loaded: only the owner's rule can still hold Restore back.
  await within(dialog).findByRole('table', {
    name: 'Changes from live to version 2',
  });
  return dialog;
}

describe('HistoryTab of an owned Secret', () => {
  registerMswTestHooks(server);

  it("offers no restore where Krypton refuses the owner's changes, and says why", async () => {
    const { calls } = serveHistory(server);
    await render(helm('refused'));
    await screen.findByRole('table', { name: 'Versions' });
    expect(
      screen.getByText(
        'Restore is not available: Helm owns this Secret, and Krypton does not change a Secret that another tool owns.',
      ),
    ).toBeInTheDocument();
    const buttons = restoreButtons();
    expect(buttons).toHaveLength(2);
    for (const button of buttons) {
      expect(button).toBeDisabled();
      expect(button).toHaveAccessibleDescription(/^Restore is not available/);
    }
    expect(calls.restores).toEqual([]);
  });

  it('shows what the restore comes to, and sends the reason that the installation asks for', async () => {
    const { calls } = serveHistory(server);
    const user = userEvent.setup();
    await render(helm('reason-required'));
    const dialog = await openRestore(user);

    const banner = within(dialog).getByRole('region', {
      name: 'Owned by Helm',
    });
    expect(banner).toHaveTextContent(
      "An edit here lasts until the release's next upgrade, which writes the chart's data back. Helm 4's upgrade, which applies server-side, fails on a field conflict instead, unless it forces.",
    );
    expect(banner).toHaveTextContent(
      'After a change of their keys here, the next server-side apply by helm of another value would fail on a field conflict with krypton, unless it forces.',
    );
    const restore = within(dialog).getByRole('button', { name: 'Restore' });
    expect(restore).toBeDisabled();

    const reason = within(dialog).getByRole('textbox', {
      name: 'Your reason for this change',
    });
    expect(reason).toBeRequired();
    expect(reason).toHaveAccessibleDescription(
      'Required: Helm owns this Secret. The audit log keeps your reason and the notification carries it.',
    );
    // Pasted in one go: typing 501 characters would only slow the test.
    fireEvent.change(reason, { target: { value: 'x'.repeat(501) } });
    expect(reason).toHaveAccessibleDescription(
      'Your reason is too long: at most 500 characters.',
    );
    expect(restore).toBeDisabled();

    await user.clear(reason);
    await user.type(reason, 'Rolling back a bad chart value; INC-7');
    expect(restore).toBeEnabled();
    await user.click(restore);
    await waitFor(() => expect(calls.restores).toHaveLength(1));
    expect(calls.restores).toEqual([
      {
        version: 2,
        resourceVersion: '100',
        ownedEditReason: 'Rolling back a bad chart value; INC-7',
      },
    ]);
  });

  it('restores without a reason where the owner is set to leave the Secret', async () => {
    const { calls } = serveHistory(server);
    const user = userEvent.setup();
    await render({
      tool: 'flux',
      kind: 'Kustomization',
      name: 'apps',
      outcome: 'kept',
      evidence: ['kustomize.toolkit.fluxcd.io/name'],
      settings: ['kustomize.toolkit.fluxcd.io/reconcile=disabled'],
      edits: 'allowed',
    });
    const dialog = await openRestore(user);
    expect(
      within(dialog).getByRole('region', { name: 'Owned by Flux' }),
    ).toHaveTextContent('Krypton changes it like any other Secret.');
    expect(within(dialog).queryByRole('textbox')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(calls.restores).toHaveLength(1));
    expect(calls.restores).toEqual([{ version: 2, resourceVersion: '100' }]);
  });
});
