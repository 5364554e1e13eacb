import { TestApiProvider, renderInTestApp } from '@backstage/test-utils';
import { SecretDto } from '@krypton/core';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, Route, Routes, useLocation } from 'react-router-dom';
import { kryptonApiRef } from '../../api/KryptonApi';
import { KryptonClient } from '../../api/KryptonClient';
import { SecretForm } from './SecretForm';

const client = new KryptonClient({
  discoveryApi: { getBaseUrl: async () => 'http://backstage.test/api/krypton' },
  fetchApi: { fetch: (input, init) => fetch(input, init) },
});

const secret: SecretDto = {
  cluster: 'local',
  namespace: 'team-a',
  name: 'db',
  uid: 'uid-1',
  resourceVersion: '100',
  type: 'Opaque',
  immutable: false,
  managed: true,
  version: 3,
  description: 'Database credentials',
  access: { owners: ['user:default/alice'], editors: [], viewers: [] },
  data: { PASS: 'pw' },
  binaryData: {},
  keys: ['PASS'],
  binaryKeys: [],
};

function Where() {
  return <output aria-label="Address">{useLocation().pathname}</output>;
}

/** The detail page's route with an open edit form, and a sidebar link out of it. */
function Page() {
  return (
    <TestApiProvider apis={[[kryptonApiRef, client]]}>
      <Where />
      <Link to="/catalog">Catalog</Link>
      <Link to="/krypton/secret/team-a/db/history">History</Link>
      <Routes>
        <Route
          path="/krypton/secret/:namespace/:name/:tab?"
          element={
            <SecretForm
              mode="edit"
              location={{ namespace: 'team-a', name: 'db' }}
              initial={secret}
              onSaved={() => {}}
              canEditAccess
              keepValues
            />
          }
        />
        <Route path="/catalog" element={<p>The catalog</p>} />
      </Routes>
    </TestApiProvider>
  );
}

const address = () => screen.getByLabelText('Address').textContent;

describe('SecretForm leaving the page', () => {
  it('leaves at once without changes, and asks with the discard dialog when the draft has some', async () => {
    const user = userEvent.setup();
    await renderInTestApp(<Page />, {
      routeEntries: ['/krypton/secret/team-a/db/values'],
    });
    const description = () => screen.getByLabelText('Description');

    await user.type(description(), ', rotated');
    // A tab of the same Secret keeps the mounted form and asks nothing.
    await user.click(screen.getByRole('link', { name: 'History' }));
    expect(address()).toBe('/krypton/secret/team-a/db/history');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'Catalog' }));
    expect(
      await screen.findByRole('dialog', { name: 'Discard your changes?' }),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Keep editing' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
    );
    expect(address()).toBe('/krypton/secret/team-a/db/history');
    expect(description()).toHaveValue('Database credentials, rotated');

    await user.click(screen.getByRole('link', { name: 'Catalog' }));
    await user.click(
      await screen.findByRole('button', { name: 'Discard changes' }),
    );
    expect(await screen.findByText('The catalog')).toBeInTheDocument();
    expect(address()).toBe('/catalog');
  });

  it('asks nothing once the draft is back to the loaded revision', async () => {
    const user = userEvent.setup();
    await renderInTestApp(<Page />, {
      routeEntries: ['/krypton/secret/team-a/db'],
    });
    await user.type(screen.getByLabelText('Description'), 'x');
    await user.type(screen.getByLabelText('Description'), '{Backspace}');
    await user.click(screen.getByRole('link', { name: 'Catalog' }));
    expect(await screen.findByText('The catalog')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
