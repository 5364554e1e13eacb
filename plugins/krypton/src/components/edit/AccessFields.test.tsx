import { Entity } from '@backstage/catalog-model';
import { CatalogApi, catalogApiRef } from '@backstage/plugin-catalog-react';
import { catalogApiMock } from '@backstage/plugin-catalog-react/testUtils';
import {
  TestApiProvider,
  registerMswTestHooks,
  renderInTestApp,
} from '@backstage/test-utils';
import { AccessRules, SecretDto } from '@krypton/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { kryptonApiRef } from '../../api/KryptonApi';
import { KryptonClient } from '../../api/KryptonClient';
import { SecretForm } from './SecretForm';

const server = setupServer();
const baseUrl = 'http://backstage.test/api/krypton';
const secretUrl = `${baseUrl}/namespaces/team-a/secrets/db`;

const client = new KryptonClient({
  discoveryApi: { getBaseUrl: async () => baseUrl },
  fetchApi: { fetch: (input, init) => fetch(input, init) },
});

const entities: Entity[] = [
  {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'User',
    metadata: { name: 'alice', namespace: 'default' },
    spec: { profile: { displayName: 'Alice Adams' }, memberOf: [] },
  },
  {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Group',
    metadata: { name: 'platform', namespace: 'default', title: 'Platform' },
    spec: { type: 'team', children: [] },
  },
  {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Group',
    metadata: { name: 'platform-ops', namespace: 'default' },
    spec: { type: 'team', children: [] },
  },
  {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: { name: 'platform-api', namespace: 'default' },
    spec: { type: 'service', owner: 'group:platform', lifecycle: 'production' },
  },
];

function secret(access: AccessRules): SecretDto {
  return {
    cluster: 'local',
    namespace: 'team-a',
    name: 'db',
    uid: 'uid-1',
    resourceVersion: '100',
    type: 'Opaque',
    immutable: false,
    managed: true,
    version: 3,
    access,
    data: { PASS: 'pw' },
    binaryData: {},
    keys: ['PASS'],
    binaryKeys: [],
  };
}

function renderForm(access: AccessRules, catalog: CatalogApi) {
  return renderInTestApp(
    <TestApiProvider
      apis={[
        [kryptonApiRef, client],
        [catalogApiRef, catalog],
      ]}
    >
      <SecretForm
        mode="edit"
        location={{ namespace: 'team-a', name: 'db' }}
        initial={secret(access)}
        onSaved={() => {}}
        canEditAccess
        keepValues
      />
    </TestApiProvider>,
  );
}

function recordPuts() {
  const bodies: Array<Record<string, unknown>> = [];
  server.use(
    http.put(secretUrl, async ({ request }) => {
      bodies.push((await request.json()) as Record<string, unknown>);
      return HttpResponse.json(
        secret({ owners: [], editors: [], viewers: [] }),
      );
    }),
  );
  return bodies;
}

/** The chip of a ref, found by its visible label. */
const chip = (label: string) =>
  screen.getByText(label).closest('[class*="MuiChip-root"]') as HTMLElement;
const removeChip = (user: ReturnType<typeof userEvent.setup>, label: string) =>
  user.click(
    chip(label).querySelector('[class*="MuiChip-deleteIcon"]') as Element,
  );

jest.setTimeout(20_000);

describe('AccessFields with the catalog', () => {
  registerMswTestHooks(server);

  it('shows known refs by display name, and keeps unknown and bad entries visible and removable', async () => {
    const user = userEvent.setup();
    await renderForm(
      {
        owners: ['user:default/alice', 'group:default/ghosts', 'not a ref!'],
        editors: [],
        viewers: [],
      },
      catalogApiMock({ entities }),
    );
    expect(await screen.findByText('Alice Adams')).toBeInTheDocument();
    expect(chip('Alice Adams')).toHaveAttribute('title', 'user:default/alice');
    expect(
      await screen.findByText('group:default/ghosts (unknown)'),
    ).toBeInTheDocument();
    expect(
      screen.getByText('not a ref! (not a user or group ref)'),
    ).toBeInTheDocument();
    // The bad entry blocks the save until it is removed; nothing is dropped on the user's behalf.
    expect(
      screen.getByText(/"not a ref!" is not a user or group entity ref/),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();

    await removeChip(user, 'not a ref! (not a user or group ref)');
    await removeChip(user, 'group:default/ghosts (unknown)');
    const puts = recordPuts();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({
      resourceVersion: '100',
      access: { owners: ['user:default/alice'] },
    });
  });

  it('searches users and groups only, and stores the chosen one as a normalized ref', async () => {
    const user = userEvent.setup();
    const catalog = catalogApiMock({ entities });
    const query = jest.spyOn(catalog, 'queryEntities');
    await renderForm(
      { owners: ['user:default/alice'], editors: [], viewers: [] },
      catalog,
    );
    await user.type(screen.getByLabelText('Editors'), 'platform');
    await waitFor(() =>
      expect(query).toHaveBeenLastCalledWith(
        expect.objectContaining({
          filter: { kind: ['User', 'Group'] },
          fullTextFilter: expect.objectContaining({ term: 'platform' }),
          limit: 20,
        }),
      ),
    );
    const listbox = await screen.findByRole('listbox');
    expect(
      await within(listbox).findByText('group:default/platform-ops'),
    ).toBeInTheDocument();
    // Components named like the term are not offered.
    expect(within(listbox).queryByText(/component:/)).toBeNull();
    await user.click(within(listbox).getByText('Platform'));
    expect(chip('Platform')).toHaveAttribute('title', 'group:default/platform');

    const puts = recordPuts();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({
      resourceVersion: '100',
      access: { editors: ['group:default/platform'] },
    });
  });

  it('falls back to typed refs, validated, when the catalog cannot be reached', async () => {
    const user = userEvent.setup();
    const catalog = catalogApiMock({ entities });
    jest
      .spyOn(catalog, 'getEntitiesByRefs')
      .mockRejectedValue(new Error('catalog down'));
    await renderForm(
      {
        owners: ['user:default/alice', 'group:default/ghosts'],
        editors: [],
        viewers: [],
      },
      catalog,
    );
    expect(
      await screen.findByText(
        'The catalog could not be searched, so type the refs instead.',
      ),
    ).toBeInTheDocument();
    // Every ref the annotation holds is still there, as text.
    expect(screen.getByLabelText('Owners')).toHaveValue(
      'user:default/alice, group:default/ghosts',
    );
    await user.type(screen.getByLabelText('Viewers'), 'component:x');
    expect(
      screen.getByText(/"component:x" is not a user or group entity ref/),
    ).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Viewers'));
    await user.type(screen.getByLabelText('Viewers'), 'Group:Team-B');

    const puts = recordPuts();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({
      resourceVersion: '100',
      access: { viewers: ['group:default/team-b'] },
    });
  });
});
