import { registerMswTestHooks, renderInTestApp } from '@backstage/test-utils';
import { DeleteResult, SecretSummary, messages } from '@krypton/core';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { useState } from 'react';
import { KryptonApis, baseUrl, summary } from '../../__testUtils__/krypton';
import { ActionDecisions, SECRET_ACTIONS } from '../access/decide';
import { DeleteSecretButton } from './DeleteSecretButton';
import { DeletedNotice, PendingDeletionNotice } from './DeleteNotices';

const server = setupServer();
const secretUrl = `${baseUrl}/namespaces/demo/secrets/db`;

function decisions(
  deleteDecision: ActionDecisions['delete'] = { allowed: true },
): ActionDecisions {
  const out = {} as ActionDecisions;
  for (const action of SECRET_ACTIONS) out[action] = { allowed: true };
  out.delete = deleteDecision;
  return out;
}

/** Answers DELETE with the given status and body, recording every request's query. */
function serveDelete(status: number, body: unknown) {
  const requests: URLSearchParams[] = [];
  server.use(
    http.delete(secretUrl, ({ request }) => {
      requests.push(new URL(request.url).searchParams);
      return HttpResponse.json(body as Record<string, unknown>, { status });
    }),
  );
  return requests;
}

async function renderButton(
  options: {
    secret?: SecretSummary;
    decisions?: ActionDecisions;
    reloadLive?: () => Promise<void>;
  } = {},
) {
  const onDeleted = jest.fn<void, [DeleteResult]>();
  const onPending = jest.fn<void, [DeleteResult]>();
  const onFailed = jest.fn<void, []>();
  const reloadLive = jest.fn(options.reloadLive ?? (async () => {}));
  await renderInTestApp(
    <KryptonApis>
      <DeleteSecretButton
        location={{ namespace: 'demo', name: 'db' }}
        summary={options.secret ?? summary()}
        decisions={options.decisions ?? decisions()}
        reloadLive={reloadLive}
        onDeleted={onDeleted}
        onPending={onPending}
        onFailed={onFailed}
      />
    </KryptonApis>,
  );
  return {
    onDeleted,
    onPending,
    onFailed,
    reloadLive,
    user: userEvent.setup(),
  };
}

/** Opens the confirmation and types the Secret's name. */
async function openAndConfirm(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Delete…' }));
  const dialog = screen.getByRole('dialog');
  await user.type(within(dialog).getByLabelText('Type db to confirm'), 'db');
  return dialog;
}

describe('DeleteSecretButton', () => {
  registerMswTestHooks(server);

  it('names the Secret, its expected revision and version in the confirmation', async () => {
    const { user } = await renderButton();
    await user.click(screen.getByRole('button', { name: 'Delete…' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Secret db?' });
    const facts = within(dialog).getByLabelText('Secret to delete');
    expect(within(facts).getByText('demo/db')).toBeInTheDocument();
    expect(within(facts).getByText('local')).toBeInTheDocument();
    expect(within(facts).getByText('100')).toBeInTheDocument();
    expect(within(facts).getByText('3')).toBeInTheDocument();
    expect(
      within(dialog).getByRole('checkbox', { name: 'Keep history' }),
    ).not.toBeChecked();
    expect(
      within(dialog).getByRole('button', { name: 'Reload latest' }),
    ).toBeEnabled();
    expect(
      within(dialog).getByRole('button', { name: 'Cancel' }),
    ).toBeEnabled();
  });

  it('enables Delete only once the Secret name is typed exactly', async () => {
    const requests = serveDelete(200, {
      status: 'deleted',
      history: 'cleaned',
    });
    const { user } = await renderButton();
    await user.click(screen.getByRole('button', { name: 'Delete…' }));
    const dialog = screen.getByRole('dialog');
    const del = within(dialog).getByRole('button', { name: 'Delete' });
    expect(del).toBeDisabled();
    expect(del).toHaveAccessibleDescription('Type db to enable Delete.');

    const field = within(dialog).getByLabelText('Type db to confirm');
    await user.type(field, 'DB');
    expect(del).toBeDisabled();
    await user.clear(field);
    await user.type(field, 'd');
    expect(del).toBeDisabled();
    // Enter submits the form, but a gated Delete sends nothing.
    await user.type(field, '{Enter}');
    expect(requests).toHaveLength(0);
    await user.type(field, 'b');
    expect(del).toBeEnabled();
    expect(del).not.toHaveAttribute('aria-describedby');
  });

  it('deletes with the loaded revision and reports a deleted Secret whose history was cleaned', async () => {
    const requests = serveDelete(200, {
      status: 'deleted',
      history: 'cleaned',
    });
    const { user, onDeleted, onPending } = await renderButton();
    const dialog = await openAndConfirm(user);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    await waitFor(() =>
      expect(onDeleted).toHaveBeenCalledWith({
        status: 'deleted',
        history: 'cleaned',
      }),
    );
    expect(requests).toHaveLength(1);
    expect(requests[0].get('resourceVersion')).toBe('100');
    expect(requests[0].get('keepHistory')).toBe('false');
    expect(onPending).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('sends keepHistory=true when history is kept', async () => {
    const requests = serveDelete(200, { status: 'deleted', history: 'kept' });
    const { user, onDeleted } = await renderButton();
    const dialog = await openAndConfirm(user);
    const keep = within(dialog).getByRole('checkbox', { name: 'Keep history' });
    await user.click(keep);
    expect(keep).toHaveAccessibleDescription(
      /Krypton no longer lists or restores them, not even through a new Secret of the same name/,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    await waitFor(() =>
      expect(onDeleted).toHaveBeenCalledWith({
        status: 'deleted',
        history: 'kept',
      }),
    );
    expect(requests).toHaveLength(1);
    expect(requests[0].get('keepHistory')).toBe('true');
    expect(requests[0].get('resourceVersion')).toBe('100');
  });

  it('reports a 202 as pending, not as deleted', async () => {
    serveDelete(202, { status: 'pending', history: 'cleaned' });
    const { user, onDeleted, onPending, onFailed } = await renderButton();
    const dialog = await openAndConfirm(user);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    await waitFor(() =>
      expect(onPending).toHaveBeenCalledWith({
        status: 'pending',
        history: 'cleaned',
      }),
    );
    expect(onDeleted).not.toHaveBeenCalled();
    expect(onFailed).not.toHaveBeenCalled();
  });

  it("shows a 409's message and offers Reload latest instead of retrying", async () => {
    const requests = serveDelete(409, { error: messages.staleRevision });
    const { user, onDeleted, reloadLive } = await renderButton();
    const dialog = await openAndConfirm(user);
    const del = within(dialog).getByRole('button', { name: 'Delete' });
    await user.click(del);

    expect(
      await within(dialog).findByText(
        'This Secret changed since you loaded it',
      ),
    ).toBeInTheDocument();
    expect(dialog).toHaveTextContent(messages.staleRevision);
    expect(del).toBeDisabled();
    expect(del).toHaveAccessibleDescription(
      'Reload latest before trying again.',
    );
    // Enter in the confirmation field submits the form: it must not retry either.
    await user.type(
      within(dialog).getByLabelText('Type db to confirm'),
      '{Enter}',
    );
    expect(requests).toHaveLength(1);
    expect(onDeleted).not.toHaveBeenCalled();

    await user.click(
      within(dialog).getByRole('button', { name: 'Reload latest' }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(reloadLive).toHaveBeenCalledTimes(1);
    expect(requests).toHaveLength(1);
  });

  it("shows another error's server message", async () => {
    const message =
      'History cleanup did not finish (1 confirmed absent, 1 pending, 0 failed), so the Secret was not deleted. Resolve pending or failed snapshots and try again.';
    serveDelete(503, { error: message });
    const { user, onDeleted, onPending, onFailed, reloadLive } =
      await renderButton();
    const dialog = await openAndConfirm(user);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    await within(dialog).findByText(/History cleanup did not finish/);
    expect(dialog).toHaveTextContent(message);
    expect(dialog).toHaveTextContent('The Secret was not deleted');
    expect(onDeleted).not.toHaveBeenCalled();
    expect(onPending).not.toHaveBeenCalled();
    // Cleanup may have removed snapshots: the history is refetched, the live Secret is not.
    expect(onFailed).toHaveBeenCalledTimes(1);
    expect(reloadLive).not.toHaveBeenCalled();
  });

  it('does not claim success when the answer never arrives', async () => {
    server.use(http.delete(secretUrl, () => HttpResponse.error()));
    const { user, onDeleted, onFailed } = await renderButton();
    const dialog = await openAndConfirm(user);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(
      await within(dialog).findByText('The outcome of the delete is unknown'),
    ).toBeInTheDocument();
    expect(dialog).toHaveTextContent(/may or may not have been applied/);
    expect(
      within(dialog).getByRole('button', { name: 'Delete' }),
    ).toBeDisabled();
    expect(onDeleted).not.toHaveBeenCalled();
    expect(onFailed).toHaveBeenCalledTimes(1);
  });

  it('Reload latest refetches and closes the confirmation without deleting', async () => {
    const requests = serveDelete(200, {
      status: 'deleted',
      history: 'cleaned',
    });
    const { user, reloadLive, onDeleted } = await renderButton();
    const dialog = await openAndConfirm(user);
    await user.click(
      within(dialog).getByRole('button', { name: 'Reload latest' }),
    );

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(reloadLive).toHaveBeenCalledTimes(1);
    expect(requests).toHaveLength(0);
    expect(onDeleted).not.toHaveBeenCalled();
  });

  it('keeps the confirmation open with the error when Reload latest fails, and sends no DELETE', async () => {
    const requests = serveDelete(409, { error: messages.staleRevision });
    const { user, reloadLive } = await renderButton({
      reloadLive: async () => {
        throw new Error('offline');
      },
    });
    const dialog = await openAndConfirm(user);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await within(dialog).findByText('This Secret changed since you loaded it');

    await user.click(
      within(dialog).getByRole('button', { name: 'Reload latest' }),
    );
    expect(
      await within(dialog).findByText('Could not reload the Secret'),
    ).toBeInTheDocument();
    expect(dialog).toHaveTextContent('Reload latest never sends the delete.');
    // The 409 stays, and Delete stays blocked until a reload succeeds.
    expect(dialog).toHaveTextContent(messages.staleRevision);
    expect(
      within(dialog).getByRole('button', { name: 'Delete' }),
    ).toBeDisabled();
    expect(screen.getByRole('dialog')).toBe(dialog);
    expect(reloadLive).toHaveBeenCalledTimes(1);
    expect(requests).toHaveLength(1);
  });

  it('sends no DELETE when the first Reload latest fails', async () => {
    const requests = serveDelete(200, {
      status: 'deleted',
      history: 'cleaned',
    });
    const { user } = await renderButton({
      reloadLive: async () => {
        throw new Error('offline');
      },
    });
    const dialog = await openAndConfirm(user);
    await user.click(
      within(dialog).getByRole('button', { name: 'Reload latest' }),
    );
    expect(
      await within(dialog).findByText('Could not reload the Secret'),
    ).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });

  it('is disabled with the reason when delete is not allowed', async () => {
    const reason = "Only the Secret's owners may do this.";
    await renderButton({
      decisions: decisions({ allowed: false, reason }),
    });
    const button = screen.getByRole('button', { name: 'Delete…' });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription(
      `You cannot delete this Secret: ${reason}`,
    );
    expect(
      screen.getByText(`You cannot delete this Secret: ${reason}`),
    ).toBeVisible();
  });

  it('is disabled when Kubernetes is already deleting the Secret', async () => {
    await renderButton({
      secret: summary({ deletionTimestamp: '2024-05-01T10:00:00Z' }),
    });
    const button = screen.getByRole('button', { name: 'Delete…' });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription(
      'Kubernetes is already deleting this Secret (pending since 2024-05-01T10:00:00Z).',
    );
  });

  it('keeps the revision the user confirmed when a newer one arrives, and blocks Delete', async () => {
    const requests = serveDelete(200, {
      status: 'deleted',
      history: 'cleaned',
    });
    function Harness() {
      const [secret, setSecret] = useState(summary());
      return (
        <>
          <button
            type="button"
            onClick={() => setSecret(summary({ resourceVersion: '101' }))}
          >
            Background refetch
          </button>
          <DeleteSecretButton
            location={{ namespace: 'demo', name: 'db' }}
            summary={secret}
            decisions={decisions()}
            reloadLive={async () => {}}
            onDeleted={() => {}}
            onPending={() => {}}
          />
        </>
      );
    }
    await renderInTestApp(
      <KryptonApis>
        <Harness />
      </KryptonApis>,
    );
    const user = userEvent.setup();
    const dialog = await openAndConfirm(user);
    // The dialog is modal, so the page behind it is driven directly.
    act(() => {
      screen
        .getByRole('button', { name: 'Background refetch', hidden: true })
        .click();
    });

    const facts = within(dialog).getByLabelText('Secret to delete');
    expect(within(facts).getByText('100')).toBeInTheDocument();
    expect(dialog).toHaveTextContent(
      /A newer revision \(101\) has been loaded/,
    );
    const del = within(dialog).getByRole('button', { name: 'Delete' });
    expect(del).toBeDisabled();
    expect(del).toHaveAccessibleDescription(
      'A newer revision was loaded: Reload latest to review it.',
    );
    expect(requests).toHaveLength(0);
  });

  it('closes on Cancel without sending anything', async () => {
    const requests = serveDelete(200, {
      status: 'deleted',
      history: 'cleaned',
    });
    const { user, reloadLive } = await renderButton();
    const dialog = await openAndConfirm(user);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(requests).toHaveLength(0);
    expect(reloadLive).not.toHaveBeenCalled();
  });
});

describe('delete notices', () => {
  const secret = { cluster: 'local', namespace: 'demo', name: 'db' };

  it('says a deleted Secret is gone and its history was cleaned', async () => {
    await renderInTestApp(
      <DeletedNotice
        secret={secret}
        result={{ status: 'deleted', history: 'cleaned' }}
      />,
    );
    expect(screen.getByText('Deleted demo/db')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(
      /Its history was cleaned/,
    );
  });

  it('says kept history survives but is not restorable through Krypton', async () => {
    await renderInTestApp(
      <DeletedNotice
        secret={secret}
        result={{ status: 'deleted', history: 'kept' }}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent(
      /Its history was kept.*Krypton no longer lists or restores them/,
    );
  });

  it('explains a pending deletion without calling it deleted', async () => {
    await renderInTestApp(
      <PendingDeletionNotice
        secret={secret}
        result={{ status: 'pending', history: 'kept' }}
      />,
    );
    expect(
      screen.getByText('Deletion of demo/db is pending'),
    ).toBeInTheDocument();
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent(/finalizers/);
    expect(alert).toHaveTextContent(/cannot be restored meanwhile/);
    expect(alert).not.toHaveTextContent(/^Deleted/);
  });
});
