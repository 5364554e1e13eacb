import { registerMswTestHooks, renderInTestApp } from '@backstage/test-utils';
import { SecretOwner } from '@krypton/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { englishT } from '../../__testUtils__/englishT';
import { KryptonApis, baseUrl, summary } from '../../__testUtils__/krypton';
import {
  ActionDecisions,
  SECRET_ACTIONS,
  limitByOwner,
} from '../access/decide';
import { DeleteSecretButton } from './DeleteSecretButton';

const server = setupServer();
const secretUrl = `${baseUrl}/namespaces/demo/secrets/db`;

function argo(edits: SecretOwner['edits']): SecretOwner {
  return {
    tool: 'argocd',
    kind: 'Application',
    name: 'shop',
    outcome: 'reverted-at-sync',
    evidence: ['argocd.argoproj.io/tracking-id'],
    edits,
  };
}

/** Every action allowed by the user's standing, less what the owner's rule refuses, as the page has them. */
function decisionsFor(owner: SecretOwner): ActionDecisions {
  const out = {} as ActionDecisions;
  for (const action of SECRET_ACTIONS) out[action] = { allowed: true };
  return limitByOwner(out, owner, englishT());
}

async function renderFor(owner: SecretOwner) {
  const queries: URLSearchParams[] = [];
  const bodies: string[] = [];
  server.use(
    http.delete(secretUrl, async ({ request }) => {
      queries.push(new URL(request.url).searchParams);
      bodies.push(await request.text());
      return HttpResponse.json({ status: 'deleted', history: 'cleaned' });
    }),
  );
  const onDeleted = jest.fn();
  await renderInTestApp(
    <KryptonApis>
      <DeleteSecretButton
        location={{ namespace: 'demo', name: 'db' }}
        summary={summary({ owner })}
        decisions={decisionsFor(owner)}
        reloadLive={async () => {}}
        onDeleted={onDeleted}
        onPending={() => {}}
      />
    </KryptonApis>,
  );
  return { queries, bodies, onDeleted, user: userEvent.setup() };
}

describe('DeleteSecretButton of an owned Secret', () => {
  registerMswTestHooks(server);

  it("is disabled with the owner's reason where Krypton refuses its changes", async () => {
    await renderFor(argo('refused'));
    const del = screen.getByRole('button', { name: 'Delete…' });
    expect(del).toBeDisabled();
    expect(del).toHaveAccessibleDescription(
      'You cannot delete this Secret: Argo CD owns this Secret, and Krypton does not change a Secret that another tool owns.',
    );
  });

  it('shows what comes of it and sends the reason in the body, where the installation asks for one', async () => {
    const { queries, bodies, onDeleted, user } = await renderFor(
      argo('reason-required'),
    );
    await user.click(screen.getByRole('button', { name: 'Delete…' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Secret db?' });
    expect(
      within(dialog).getByRole('region', { name: 'Owned by Argo CD' }),
    ).toHaveTextContent(
      'An edit here is undone by Argo CD: at once where the Application self-heals, otherwise at its next sync.',
    );
    await user.type(within(dialog).getByLabelText('Type db to confirm'), 'db');
    const del = within(dialog).getByRole('button', { name: 'Delete' });
    expect(del).toBeDisabled();
    expect(del).toHaveAccessibleDescription(
      'Give your reason for changing a Secret that another tool owns.',
    );

    const reason = within(dialog).getByRole('textbox', {
      name: 'Your reason for this change',
    });
    await user.type(reason, '   ');
    // Blanks are no reason: Delete stays off, and the field says why.
    expect(del).toBeDisabled();
    expect(reason).toHaveAccessibleDescription(
      'Give your reason for changing a Secret that another tool owns.',
    );
    await user.type(reason, 'two apps share this one; removing the leftover');
    await user.click(del);
    await waitFor(() => expect(onDeleted).toHaveBeenCalled());
    expect(queries).toHaveLength(1);
    // The user's free text never goes in the URL.
    expect(queries[0].get('ownedEditReason')).toBeNull();
    expect(JSON.parse(bodies[0])).toEqual({
      ownedEditReason: 'two apps share this one; removing the leftover',
    });
    expect(queries[0].get('resourceVersion')).toBe('100');
  });

  it('deletes without a reason where the owner is set to leave the Secret', async () => {
    const { bodies, onDeleted, user } = await renderFor({
      ...argo('allowed'),
      tool: 'flux',
      kind: 'Kustomization',
      name: 'apps',
      outcome: 'kept',
    });
    await user.click(screen.getByRole('button', { name: 'Delete…' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Secret db?' });
    expect(within(dialog).queryByLabelText(/Your reason/)).toBeNull();
    await user.type(within(dialog).getByLabelText('Type db to confirm'), 'db');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(onDeleted).toHaveBeenCalled());
    // No reason, so no body at all.
    expect(bodies).toEqual(['']);
  });
});
