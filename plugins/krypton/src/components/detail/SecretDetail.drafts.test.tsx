import { registerMswTestHooks } from '@backstage/test-utils';
import { secretSignalChannel } from '@krypton/plugin-krypton-common';
import { SecretDto, messages } from '@krypton/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { baseUrl, kryptonConfig, secretDto } from '../../__testUtils__/krypton';
import { TestSignals, renderSecretPage } from '../../__testUtils__/secretPage';
import { SIGNAL_SETTLE_MS } from './ChangesElsewhere';

const server = setupServer();
const secretUrl = `${baseUrl}/namespaces/demo/secrets/db`;
const DRAFT = 'draft-value-91c2';

/** Serves the live Secret that `state.live` answers, and an empty history. */
function serve(state: { live: () => Response }) {
  server.use(
    http.get(`${baseUrl}/config`, () => HttpResponse.json(kryptonConfig())),
    http.get(`${secretUrl}/summary`, () => {
      const { data: _d, binaryData: _b, ...meta } = secretDto();
      return HttpResponse.json(meta);
    }),
    http.get(secretUrl, () => state.live()),
    http.get(`${secretUrl}/versions`, () => HttpResponse.json({ items: [] })),
  );
}

type User = ReturnType<typeof userEvent.setup>;

/** Opens the values form and types a new password: a draft with changes. */
async function startDraft(user: User) {
  await user.click(await screen.findByRole('button', { name: 'Edit' }));
  const password = within(
    screen.getByRole('form', { name: 'Edit Secret db' }),
  ).getByLabelText('Value of password');
  await user.clear(password);
  await user.type(password, DRAFT);
}

const draftValue = () =>
  within(screen.getByRole('form', { name: 'Edit Secret db' })).getByLabelText(
    'Value of password',
  );

describe('SecretDetail keeps a draft until the user lets it go', () => {
  registerMswTestHooks(server);

  it('keeps the draft while the user looks at another tab', async () => {
    serve({ live: () => HttpResponse.json(secretDto()) });
    const user = userEvent.setup();
    await renderSecretPage();
    await startDraft(user);

    await user.click(screen.getByRole('tab', { name: 'History' }));
    expect(await screen.findByText(/No versions yet/)).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Values' }));

    expect(draftValue()).toHaveValue(DRAFT);
  });

  it('asks before Cancel throws a changed draft away', async () => {
    serve({ live: () => HttpResponse.json(secretDto()) });
    const user = userEvent.setup();
    await renderSecretPage();
    await startDraft(user);

    await user.click(screen.getByRole('button', { name: 'Cancel editing' }));
    const ask = screen.getByRole('dialog', { name: 'Discard your changes?' });
    await user.click(within(ask).getByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(draftValue()).toHaveValue(DRAFT);

    await user.click(screen.getByRole('button', { name: 'Cancel editing' }));
    await user.click(
      within(
        screen.getByRole('dialog', { name: 'Discard your changes?' }),
      ).getByRole('button', { name: 'Discard changes' }),
    );
    expect(
      await screen.findByRole('button', { name: 'Edit' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('form')).toBeNull();
  });

  it('closes an unchanged form at once, and asks before the access form replaces a changed one', async () => {
    serve({ live: () => HttpResponse.json(secretDto()) });
    const user = userEvent.setup();
    await renderSecretPage();
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    await user.click(screen.getByRole('button', { name: 'Cancel editing' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Edit' })).toBeInTheDocument();

    await startDraft(user);
    await user.click(screen.getByRole('tab', { name: 'Access' }));
    await user.click(
      screen.getByRole('button', { name: 'Edit access and description' }),
    );
    expect(
      screen.getByRole('dialog', { name: 'Discard your changes?' }),
    ).toBeInTheDocument();
  });

  it('keeps the form and its draft when a background refresh of the values fails', async () => {
    let fail = false;
    serve({
      live: () =>
        fail
          ? HttpResponse.json({ error: messages.unavailable }, { status: 502 })
          : HttpResponse.json(secretDto()),
    });
    const signals = new TestSignals();
    const user = userEvent.setup();
    await renderSecretPage(signals);
    await startDraft(user);

    // A change elsewhere reloads the values, and that read fails.
    fail = true;
    signals.push(secretSignalChannel('uid-db'), {
      cluster: 'local',
      namespace: 'demo',
      name: 'db',
      event: 'update',
      resourceVersion: '101',
      version: 4,
    });
    expect(
      await screen.findByText(/The values could not be refreshed/, undefined, {
        timeout: SIGNAL_SETTLE_MS + 2000,
      }),
    ).toBeInTheDocument();
    expect(draftValue()).toHaveValue(DRAFT);
  });

  it("moves the page's facts to the revision that the form's Reload latest loaded", async () => {
    let live = secretDto();
    serve({ live: () => HttpResponse.json(live) });
    const user = userEvent.setup();
    await renderSecretPage();
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const facts = () =>
      screen.getByText('Version').closest('dl') as HTMLElement;
    expect(within(facts()).getByText('3')).toBeInTheDocument();

    live = secretDto({ resourceVersion: '105', version: 4 });
    await user.click(screen.getByRole('button', { name: 'Reload latest' }));
    expect(
      await screen.findByText(/version 4, loaded revision 105$/),
    ).toBeInTheDocument();
    expect(within(facts()).getByText('4')).toBeInTheDocument();
  });

  it('offers no edit of a service-account token, and says why', async () => {
    const token: SecretDto = secretDto({
      type: 'kubernetes.io/service-account-token',
    });
    serve({ live: () => HttpResponse.json(token) });
    server.use(
      http.get(`${secretUrl}/summary`, () => {
        const { data: _d, binaryData: _b, ...meta } = token;
        return HttpResponse.json(meta);
      }),
    );
    const user = userEvent.setup();
    await renderSecretPage();
    // Its values are never answered, so the Values tab shows its keys and says why; no Edit.
    expect(
      await screen.findByText(
        `You may see this Secret's metadata, but not its values. ${messages.serviceAccountTokenValues}`,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
    await user.click(screen.getByRole('tab', { name: 'Access' }));
    expect(
      screen.getByText(
        `You cannot change the rules or the description: ${messages.serviceAccountToken}`,
      ),
    ).toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: 'Edit access and description' }),
    ).toBeNull();
  });
});
