import { Entity } from '@backstage/catalog-model';
import { catalogApiRef } from '@backstage/plugin-catalog-react';
import { catalogApiMock } from '@backstage/plugin-catalog-react/testUtils';
import {
  TestApiProvider,
  registerMswTestHooks,
  renderInTestApp,
} from '@backstage/test-utils';
import { SecretOwner } from '@krypton/core';
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

describe('AdoptDialog with owned Secrets', () => {
  registerMswTestHooks(server);

  const sealed: SecretOwner = {
    tool: 'sealed-secrets',
    kind: 'SealedSecret',
    outcome: 'lost-later',
    evidence: ['sealedsecrets.bitnami.com/managed'],
    edits: 'refused',
  };
  const vso: SecretOwner = {
    tool: 'vault-secrets-operator',
    outcome: 'reverted-at-refresh',
    evidence: ['app.kubernetes.io/managed-by'],
    edits: 'reason-required',
  };

  /** Three unmanaged Secrets: one nobody owns, one whose owner Krypton refuses, one with a reason. */
  function serveOwned() {
    const bodies: unknown[] = [];
    const unmanaged = {
      managed: false,
      description: undefined,
      access: { owners: [], editors: [], viewers: [] },
      policy: policy(),
    };
    server.use(
      http.get(`${baseUrl}/namespaces/demo/secrets`, () =>
        HttpResponse.json({
          items: [
            listItem({ ...unmanaged, name: 'legacy' }),
            listItem({ ...unmanaged, name: 'sealed', owner: sealed }),
            listItem({
              ...unmanaged,
              name: 'vault',
              resourceVersion: '7',
              owner: vso,
            }),
          ],
        }),
      ),
      http.post(
        `${baseUrl}/namespaces/demo/secrets/:name/adopt`,
        async ({ request }) => {
          bodies.push(await request.json());
          return HttpResponse.json(summary({ name: 'vault' }));
        },
      ),
    );
    return bodies;
  }

  async function renderDialog(onAdopted = jest.fn()) {
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
    const picker = await within(dialog).findByLabelText('Secret to adopt');
    return { dialog, picker, onAdopted, user: userEvent.setup() };
  }

  it('lists owned Secrets with their owner, and why Krypton does not adopt the refused ones', async () => {
    serveOwned();
    const { dialog, picker, user } = await renderDialog();
    const options = within(picker)
      .getAllByRole('option')
      .map(o => o.textContent);
    expect(options).toEqual([
      'Choose a Secret',
      'legacy (Opaque)',
      'sealed (Opaque), owned by Sealed Secrets: Krypton does not adopt it',
      'vault (Opaque), owned by Vault Secrets Operator',
    ]);
    expect(dialog).toHaveTextContent(
      '1 of these Secrets is owned by a tool whose Secrets Krypton does not change, so it cannot be adopted; pick it to see why and what to do instead.',
    );

    await user.selectOptions(picker, 'sealed');
    const banner = within(dialog).getByRole('region', {
      name: 'Owned by Sealed Secrets',
    });
    expect(banner).toHaveTextContent(
      "Seal the new value with this command (the value on standard input), then put its output in the SealedSecret sealed's spec.encryptedData:",
    );
    expect(banner.querySelector('code')).toHaveTextContent(
      'kubeseal --raw --namespace demo --name sealed',
    );
    const adopt = within(dialog).getByRole('button', { name: 'Adopt' });
    expect(adopt).toBeDisabled();
    expect(adopt).toHaveAccessibleDescription(
      'Sealed Secrets owns this Secret, and Krypton does not change a Secret that another tool owns.',
    );
    // No rules to write for a Secret that cannot be adopted.
    expect(within(dialog).queryByLabelText('Description')).toBeNull();
  });

  it('asks for the reason, and sends it with the adopt, where the installation allows it', async () => {
    const bodies = serveOwned();
    const { dialog, picker, onAdopted, user } = await renderDialog();
    await user.selectOptions(picker, 'vault');
    expect(
      within(dialog).getByRole('region', {
        name: 'Owned by Vault Secrets Operator',
      }),
    ).toHaveTextContent(
      'An edit here lasts only until Vault Secrets Operator next refreshes or reconciles this Secret, which writes its own data back.',
    );
    const adopt = within(dialog).getByRole('button', { name: 'Adopt' });
    await waitFor(() =>
      expect(adopt).toHaveAccessibleDescription(
        'Give your reason for changing a Secret that another tool owns.',
      ),
    );
    expect(adopt).toBeDisabled();
    await user.type(
      within(dialog).getByRole('textbox', {
        name: 'Your reason for this change',
      }),
      'Keep its history while we move it out of Vault',
    );
    await waitFor(() => expect(adopt).toBeEnabled());
    await user.click(adopt);
    await waitFor(() => expect(onAdopted).toHaveBeenCalled());
    expect(bodies).toEqual([
      {
        resourceVersion: '7',
        description: '',
        access: { owners: ['user:default/alice'], editors: [], viewers: [] },
        ownedEditReason: 'Keep its history while we move it out of Vault',
      },
    ]);
  });

  it('starts over with an empty reason for another Secret', async () => {
    serveOwned();
    const { dialog, picker, user } = await renderDialog();
    await user.selectOptions(picker, 'vault');
    await user.type(
      within(dialog).getByRole('textbox', {
        name: 'Your reason for this change',
      }),
      'meant for vault',
    );
    await user.selectOptions(picker, 'legacy');
    expect(within(dialog).queryByRole('region')).toBeNull();
    await user.selectOptions(picker, 'vault');
    expect(
      within(dialog).getByRole('textbox', {
        name: 'Your reason for this change',
      }),
    ).toHaveValue('');
  });
});
