import { entityRouteRef } from '@backstage/plugin-catalog-react';
import { registerMswTestHooks, renderInTestApp } from '@backstage/test-utils';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router-dom';
import {
  KryptonApis,
  baseUrl,
  kryptonConfig,
  listItem,
  policy,
} from '../__testUtils__/krypton';
import { rootRouteRef } from '../routes';
import { KryptonPage } from './KryptonPage';

// A file of its own: usePermission caches decisions per permission for a whole test module.
const server = setupServer();

const DENIED = ['krypton.secret.create', 'krypton.storage.rewrite'];

describe('KryptonPage without create, update and storage rewrite permissions', () => {
  registerMswTestHooks(server);

  it('disables Create and Adopt with the reason, and shows no link to the storage rewrite', async () => {
    let adopts = 0;
    server.use(
      http.get(`${baseUrl}/config`, () => HttpResponse.json(kryptonConfig())),
      http.get(/\/deleted-secrets$/, () => HttpResponse.json({ items: [] })),
      http.get(/\/change-requests$/, () => HttpResponse.json({ items: [] })),
      http.get(/\/namespaces$/, () =>
        HttpResponse.json({ error: 'Access denied.' }, { status: 403 }),
      ),
      http.get(`${baseUrl}/namespaces/demo/secrets`, ({ request }) =>
        HttpResponse.json({
          items:
            new URL(request.url).searchParams.get('adoptable') === 'true'
              ? [
                  listItem({
                    name: 'legacy',
                    managed: false,
                    policy: policy('update', 'manageAccess'),
                  }),
                ]
              : [listItem()],
        }),
      ),
      http.post(`${baseUrl}/namespaces/demo/secrets/legacy/adopt`, () => {
        adopts += 1;
        return HttpResponse.json({ error: 'not expected' }, { status: 500 });
      }),
    );
    const user = userEvent.setup();
    await renderInTestApp(
      <KryptonApis authorize={permission => !DENIED.includes(permission)}>
        <Routes>
          <Route path="/krypton/*" element={<KryptonPage />} />
        </Routes>
      </KryptonApis>,
      {
        routeEntries: ['/krypton?namespace=demo'],
        mountedRoutes: {
          '/krypton': rootRouteRef,
          '/catalog/:namespace/:kind/:name': entityRouteRef,
        },
      },
    );
    await screen.findByRole('link', { name: 'db' });

    const create = screen.getByRole('button', { name: 'Create Secret' });
    expect(create).toBeDisabled();
    expect(create).toHaveAccessibleDescription(
      'The Backstage permission policy does not grant krypton.secret.create.',
    );
    expect(
      screen.queryByRole('link', { name: 'Storage rewrite (operators)' }),
    ).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Adopt a Secret' }));
    const dialog = screen.getByRole('dialog');
    await user.selectOptions(
      await within(dialog).findByLabelText('Secret to adopt'),
      'legacy',
    );
    const adopt = within(dialog).getByRole('button', { name: 'Adopt' });
    expect(
      await within(dialog).findByText(
        'The Backstage permission policy does not grant krypton.secret.update.',
      ),
    ).toBeInTheDocument();
    expect(adopt).toBeDisabled();
    expect(adopts).toBe(0);
  });
});
