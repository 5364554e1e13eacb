import { Entity } from '@backstage/catalog-model';
import { catalogApiRef } from '@backstage/plugin-catalog-react';
import { catalogApiMock } from '@backstage/plugin-catalog-react/testUtils';
import {
  TestApiProvider,
  registerMswTestHooks,
  renderInTestApp,
} from '@backstage/test-utils';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import {
  KryptonApis,
  baseUrl,
  listItem,
  policy,
  summary,
} from '../../__testUtils__/krypton';
import { AdoptDialog } from './AdoptDialog';

const server = setupServer();

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
];

/** The unmanaged Secret on offer, and the adopt bodies the server received. */
function serveAdopt() {
  const bodies: unknown[] = [];
  server.use(
    http.get(`${baseUrl}/namespaces/demo/secrets`, () =>
      HttpResponse.json({
        items: [
          listItem({
            name: 'legacy',
            resourceVersion: '42',
            managed: false,
            description: undefined,
            access: { owners: [], editors: [], viewers: [] },
            policy: policy(),
          }),
        ],
      }),
    ),
    http.post(
      `${baseUrl}/namespaces/demo/secrets/legacy/adopt`,
      async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json(summary({ name: 'legacy' }));
      },
    ),
  );
  return bodies;
}

jest.setTimeout(20_000);

describe('AdoptDialog', () => {
  registerMswTestHooks(server);

  it('edits the access rules with the catalog picker, as the create and edit forms do', async () => {
    const bodies = serveAdopt();
    const onAdopted = jest.fn();
    const user = userEvent.setup();
    await renderInTestApp(
      <KryptonApis>
        <TestApiProvider apis={[[catalogApiRef, catalogApiMock({ entities })]]}>
          <AdoptDialog
            location={{ namespace: 'demo' }}
            onClose={() => {}}
            onAdopted={onAdopted}
          />
        </TestApiProvider>
      </KryptonApis>,
    );
    const dialog = screen.getByRole('dialog', {
      name: 'Adopt a Secret in demo',
    });
    await user.selectOptions(
      await within(dialog).findByLabelText('Secret to adopt'),
      'legacy',
    );
    // The adopting user, proposed as owner, is a chip with their catalog name, not typed text.
    const owner = await within(dialog).findByText('Alice Adams');
    expect(owner.closest('[class*="MuiChip-root"]')).toHaveAttribute(
      'title',
      'user:default/alice',
    );
    expect(
      within(dialog).getAllByText(
        'Search the catalog for users and groups. Refs it does not know are marked unknown.',
      ),
    ).toHaveLength(3);

    await user.type(within(dialog).getByLabelText('Viewers'), 'plat');
    await user.click(
      within(await screen.findByRole('listbox')).getByText('Platform'),
    );
    const adopt = within(dialog).getByRole('button', { name: 'Adopt' });
    await waitFor(() => expect(adopt).toBeEnabled());
    await user.click(adopt);

    await waitFor(() => expect(onAdopted).toHaveBeenCalled());
    expect(bodies).toEqual([
      {
        resourceVersion: '42',
        description: '',
        access: {
          owners: ['user:default/alice'],
          editors: [],
          viewers: ['group:default/platform'],
        },
      },
    ]);
  });
});
