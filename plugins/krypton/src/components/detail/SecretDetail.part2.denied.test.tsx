import { catalogApiRef, entityRouteRef } from '@backstage/plugin-catalog-react';
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
import { Route, Routes } from 'react-router-dom';
import {
  KryptonApis,
  baseUrl,
  kryptonConfig,
  policy,
} from '../../__testUtils__/krypton';
import { rootRouteRef } from '../../routes';
import { versions } from '../consumers/__testUtils__/consumers';
import {
  LIVE,
  VERSIONS,
  toSummary,
  versionSummary,
} from '../history/__testUtils__/history';
import { KryptonPage } from '../KryptonPage';

/** Which version the pods hold, for the Consumers tab: no workload reads the Secret. */
const server = setupServer(
  http.get(/\/consumers\/pods$/, () =>
    HttpResponse.json(versions({ workloads: [] })),
  ),
);
const prefix = `${baseUrl}/namespaces/demo/secrets/db`;
const live = { ...LIVE, resourceVersion: '4711' };

describe('SecretDetail restore notice when the permission policy refuses restarts', () => {
  registerMswTestHooks(server);

  it('offers no "Restart consumers…" although /config enables restarting', async () => {
    const restores: unknown[] = [];
    let consumerReads = 0;
    server.use(
      http.get(`${baseUrl}/config`, () =>
        HttpResponse.json(kryptonConfig({ restartEnabled: true })),
      ),
      http.get(`${prefix}/summary`, () =>
        HttpResponse.json({ ...toSummary(live), policy: policy('restart') }),
      ),
      http.get(prefix, () => HttpResponse.json(live)),
      http.get(`${prefix}/versions`, () =>
        HttpResponse.json({ items: [versionSummary(2), versionSummary(1)] }),
      ),
      http.get(`${prefix}/versions/:version`, ({ params }) =>
        HttpResponse.json(VERSIONS[Number(params.version)]),
      ),
      http.post(`${prefix}/restore`, async ({ request }) => {
        restores.push(await request.json());
        return HttpResponse.json({
          ...live,
          resourceVersion: '4712',
          version: 4,
        });
      }),
      http.get(`${prefix}/consumers`, () => {
        consumerReads += 1;
        return HttpResponse.json({ workloads: [], discoveryFailures: [] });
      }),
      http.get(`${prefix}/restart-consumers/last`, () =>
        HttpResponse.json({ last: null }),
      ),
    );
    const user = userEvent.setup();
    await renderInTestApp(
      <KryptonApis>
        <TestApiProvider apis={[[catalogApiRef, catalogApiMock()]]}>
          <Routes>
            <Route path="/krypton/*" element={<KryptonPage />} />
          </Routes>
        </TestApiProvider>
      </KryptonApis>,
      {
        routeEntries: ['/krypton/secret/demo/db?tab=history&rollback=1'],
        mountedRoutes: {
          '/krypton': rootRouteRef,
          '/catalog/:namespace/:kind/:name': entityRouteRef,
        },
      },
    );

    const dialog = await screen.findByRole('dialog', {
      name: 'Restore version 2?',
    });
    await within(dialog).findByRole('table', {
      name: 'Changes from live to version 2',
    });
    const restore = within(dialog).getByRole('button', { name: 'Restore' });
    await waitFor(() => expect(restore).toBeEnabled());
    await user.click(restore);

    const notice = await screen.findByText(
      /^Restored: the Secret is now at version 4/,
    );
    expect(restores).toEqual([{ version: 2, resourceVersion: '4711' }]);
    expect(
      within(notice.closest('[role="alert"]') as HTMLElement).queryByRole(
        'button',
      ),
    ).toHaveAccessibleName('Close');
    expect(
      screen.queryByRole('button', { name: 'Restart consumers…' }),
    ).toBeNull();

    // The Consumers tab says why, with the policy's reason rather than the config's.
    await user.click(screen.getByRole('tab', { name: 'Consumers' }));
    expect(
      await screen.findByText(
        'You cannot restart the consumers: The Backstage permission policy does not grant krypton.secret.restart.',
      ),
    ).toBeInTheDocument();
    expect(consumerReads).toBe(1);
  });
});
