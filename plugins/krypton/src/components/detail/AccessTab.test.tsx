import {
  TestApiProvider,
  registerMswTestHooks,
  renderInTestApp,
} from '@backstage/test-utils';
import { SecretDto, SecretSummary, messages } from '@krypton/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { kryptonApiRef } from '../../api/KryptonApi';
import { ActionDecisions, SECRET_ACTIONS, SecretRole } from '../access/decide';
import {
  baseUrl,
  client,
  secretDto,
  summary,
} from '../../__testUtils__/krypton';
import { AccessTab, AccessTabProps } from './AccessTab';

const server = setupServer();
const secretUrl = `${baseUrl}/namespaces/demo/secrets/db`;

const allowed = Object.fromEntries(
  SECRET_ACTIONS.map(action => [action, { allowed: true }]),
) as ActionDecisions;

// A variable: the a11y lint takes a literal role prop for an ARIA role.
const OWNER: SecretRole = 'owner';

/** Serves the routes the access form may use, counting value reads (it must make none). */
function serve(live: () => SecretSummary, put: () => Response) {
  const calls = { values: 0, summaries: 0, puts: [] as unknown[] };
  server.use(
    http.get(`${secretUrl}/summary`, () => {
      calls.summaries += 1;
      return HttpResponse.json(live());
    }),
    http.get(secretUrl, () => {
      calls.values += 1;
      return HttpResponse.json(secretDto());
    }),
    http.put(secretUrl, async ({ request }) => {
      calls.puts.push(await request.json());
      return put();
    }),
  );
  return calls;
}

function renderTab(props: Partial<AccessTabProps> = {}) {
  return renderInTestApp(
    <TestApiProvider apis={[[kryptonApiRef, client]]}>
      <AccessTab
        location={{ namespace: 'demo', name: 'db' }}
        secret={summary()}
        decisions={allowed}
        role={OWNER}
        editing
        onEdit={() => {}}
        onSaved={() => {}}
        {...props}
      />
    </TestApiProvider>,
  );
}

const form = () =>
  screen.getByRole('form', { name: 'Edit access and description of db' });

jest.setTimeout(20_000);

describe('AccessTab: the access and description form', () => {
  registerMswTestHooks(server);

  it('offers only the description and the rules, and saves them without touching the values', async () => {
    const onDirtyChange = jest.fn();
    const onSaved = jest.fn();
    const saved: SecretDto = secretDto({
      resourceVersion: '101',
      description: 'Rotated by the platform team',
    });
    const calls = serve(summary, () => HttpResponse.json(saved));
    const user = userEvent.setup();
    await renderTab({ onDirtyChange, onSaved });

    const inForm = within(form());
    expect(inForm.getByLabelText('Owners')).toHaveValue('group:default/team-a');
    expect(inForm.getByLabelText('Editors')).toBeInTheDocument();
    expect(inForm.getByLabelText('Viewers')).toBeInTheDocument();
    expect(inForm.queryByLabelText(/^Value of/)).toBeNull();
    expect(inForm.queryByLabelText(/^Key/)).toBeNull();
    expect(inForm.queryByLabelText('Paste KEY=value lines')).toBeNull();
    expect(inForm.queryByRole('checkbox')).toBeNull();
    expect(inForm.queryByLabelText('Estimated size')).toBeNull();
    expect(inForm.queryByText(/values are not shown or kept here/)).toBeNull();

    const description = inForm.getByLabelText('Description');
    await user.clear(description);
    await user.type(description, 'Rotated by the platform team');
    expect(onDirtyChange).toHaveBeenLastCalledWith(true);
    await user.click(inForm.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    // A PUT without data or binaryData is metadata-only: the backend keeps the data byte for byte.
    expect(calls.puts).toEqual([
      {
        resourceVersion: '100',
        description: 'Rotated by the platform team',
      },
    ]);
    // The form keeps no values from the answer, even one that carries them.
    expect(onSaved.mock.calls[0][0]).not.toHaveProperty('data');
    expect(calls.values).toBe(0);
  });

  it('answers a 409 with the conflict dialog, and reloads the metadata only', async () => {
    let live = summary();
    const calls = serve(
      () => live,
      () =>
        HttpResponse.json({ error: messages.staleRevision }, { status: 409 }),
    );
    const user = userEvent.setup();
    await renderTab();
    const description = within(form()).getByLabelText('Description');
    await user.clear(description);
    await user.type(description, 'Mine');
    await user.click(within(form()).getByRole('button', { name: 'Save' }));

    const dialog = await screen.findByRole('dialog', {
      name: 'This Secret changed since you loaded it.',
    });
    expect(calls.puts).toHaveLength(1);
    live = summary({ resourceVersion: '120', description: 'Theirs' });
    await user.click(
      within(dialog).getByRole('button', { name: 'Reload latest' }),
    );
    await waitFor(() =>
      expect(within(form()).getByLabelText('Description')).toHaveValue(
        'Theirs',
      ),
    );
    expect(within(form()).getByText(/loaded revision 120/)).toBeInTheDocument();
    expect(calls.summaries).toBe(1);
    expect(calls.values).toBe(0);
    // Never retried on its own.
    expect(calls.puts).toHaveLength(1);
  });

  it('edits the metadata of an immutable Secret, which Kubernetes allows', async () => {
    const calls = serve(summary, () =>
      HttpResponse.json(secretDto({ immutable: true, resourceVersion: '101' })),
    );
    const user = userEvent.setup();
    await renderTab({ secret: summary({ immutable: true }) });
    const owners = within(form()).getByLabelText('Owners');
    await user.clear(owners);
    await user.type(owners, 'group:default/platform');
    await user.click(within(form()).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.puts).toHaveLength(1));
    expect(calls.puts[0]).toEqual({
      resourceVersion: '100',
      access: { owners: ['group:default/platform'] },
    });
  });
});
