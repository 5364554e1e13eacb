import { entityRouteRef } from '@backstage/plugin-catalog-react';
import { registerMswTestHooks, renderInTestApp } from '@backstage/test-utils';
import { SecretDto, SecretOwner } from '@krypton/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router-dom';
import {
  KryptonApis,
  baseUrl,
  kryptonConfig,
  secretDto,
} from '../../__testUtils__/krypton';
import { rootRouteRef } from '../../routes';
import { KryptonPage } from '../KryptonPage';

const server = setupServer();
const secretUrl = `${baseUrl}/namespaces/demo/secrets/db`;

const REFUSAL =
  'External Secrets owns this Secret, and Krypton does not change a Secret that another tool owns.';

function eso(edits: SecretOwner['edits']): SecretOwner {
  return {
    tool: 'external-secrets',
    kind: 'ExternalSecret',
    name: 'db-creds',
    outcome: 'reverted-at-once',
    evidence: ['ownerReferences'],
    edits,
  };
}

/** Serves one owned Secret of the default cluster, recording the bodies of PUTs. */
function serve(dto: SecretDto) {
  const puts: unknown[] = [];
  const { data: _data, binaryData: _binary, ...meta } = dto;
  server.use(
    http.get(`${baseUrl}/config`, () => HttpResponse.json(kryptonConfig())),
    http.get(`${secretUrl}/summary`, () => HttpResponse.json(meta)),
    http.get(`${secretUrl}/versions`, () => HttpResponse.json({ items: [] })),
    http.get(secretUrl, () => HttpResponse.json(dto)),
    http.get(`${secretUrl}/owner-sync`, () =>
      HttpResponse.json({
        available: true,
        target: {
          tool: 'external-secrets',
          kind: 'ExternalSecret',
          name: 'db-creds',
        },
      }),
    ),
    http.put(secretUrl, async ({ request }) => {
      puts.push(await request.json());
      return HttpResponse.json({
        ...dto,
        resourceVersion: '101',
        version: 4,
      });
    }),
  );
  return puts;
}

function renderPage() {
  return renderInTestApp(
    <KryptonApis>
      <Routes>
        <Route path="/krypton/*" element={<KryptonPage />} />
      </Routes>
    </KryptonApis>,
    {
      routeEntries: ['/krypton/secret/demo/db'],
      mountedRoutes: {
        '/krypton': rootRouteRef,
        '/catalog/:namespace/:kind/:name': entityRouteRef,
      },
    },
  );
}

jest.setTimeout(30_000);

describe('SecretDetail of an owned Secret', () => {
  registerMswTestHooks(server);

  it('shows the owner with what to do instead, and offers no change where Krypton refuses them', async () => {
    serve(secretDto({ owner: eso('refused') }));
    await renderPage();
    const banner = await screen.findByRole('region', {
      name: 'Owned by External Secrets',
    });
    expect(banner).toHaveTextContent('Owner: ExternalSecret db-creds');
    expect(banner).toHaveTextContent(
      'An edit here is undone within seconds: External Secrets watches this Secret and writes its own data back.',
    );
    expect(banner.querySelector('code')).toHaveTextContent(
      'kubectl annotate externalsecret db-creds -n demo force-sync=$(date +%s) --overwrite',
    );
    // The offer is asked where the page reads the Secret.
    expect(
      await within(banner).findByRole('button', {
        name: 'Sync from the store now',
      }),
    ).toBeEnabled();

    // Values: no Edit, and why.
    expect(
      await screen.findByText(`You cannot edit this Secret: ${REFUSAL}`),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
    // Delete: disabled, described by the reason.
    const del = screen.getByRole('button', { name: 'Delete…' });
    expect(del).toBeDisabled();
    expect(del).toHaveAccessibleDescription(
      `You cannot delete this Secret: ${REFUSAL}`,
    );

    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Access' }));
    expect(
      await screen.findByText(
        `You cannot change the rules or the description: ${REFUSAL}`,
      ),
    ).toBeInTheDocument();
  });

  it('asks for the reason before a save, where the installation allows changes with one', async () => {
    const puts = serve(secretDto({ owner: eso('reason-required') }));
    await renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const form = await screen.findByRole('form', { name: 'Edit Secret db' });

    // The prediction comes before the edit, in the form itself.
    const banner = within(form).getByRole('region', {
      name: 'Owned by External Secrets',
    });
    expect(banner).toHaveTextContent(
      'This installation lets you change it through Krypton, with your reason, which the audit log keeps and the notification carries.',
    );
    const value = within(form).getByLabelText('Value of username');
    await user.clear(value);
    await user.type(value, 'rotated');
    const save = within(form).getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    expect(save).toHaveAccessibleDescription(
      'Give your reason for changing a Secret that another tool owns.',
    );

    await user.type(
      within(form).getByRole('textbox', {
        name: 'Your reason for this change',
      }),
      '  The store is down; INC-42  ',
    );
    expect(save).toBeEnabled();
    await user.click(save);
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toMatchObject({
      resourceVersion: '100',
      data: { username: 'rotated' },
      ownedEditReason: 'The store is down; INC-42',
    });
  });

  it('saves like any other Secret where the owner is set to leave it', async () => {
    const puts = serve(
      secretDto({
        owner: {
          tool: 'flux',
          kind: 'Kustomization',
          name: 'apps',
          namespace: 'flux-system',
          outcome: 'kept',
          evidence: ['kustomize.toolkit.fluxcd.io/name'],
          settings: ['kustomize.toolkit.fluxcd.io/ssa=IfNotPresent'],
          edits: 'allowed',
        },
      }),
    );
    await renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const form = await screen.findByRole('form', { name: 'Edit Secret db' });
    expect(
      within(form).getByRole('region', { name: 'Owned by Flux' }),
    ).toHaveTextContent(
      'An edit here is kept: kustomize.toolkit.fluxcd.io/ssa=IfNotPresent on this Secret tells Flux to leave it.',
    );
    expect(
      within(form).queryByRole('textbox', {
        name: 'Your reason for this change',
      }),
    ).toBeNull();
    const value = within(form).getByLabelText('Value of username');
    await user.clear(value);
    await user.type(value, 'rotated');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).not.toHaveProperty('ownedEditReason');
  });
});
