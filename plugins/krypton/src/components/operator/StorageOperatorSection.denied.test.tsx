import { permissionApiRef } from '@backstage/plugin-permission-react';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  MockPermissionApi,
  TestApiProvider,
  renderInTestApp,
} from '@backstage/test-utils';
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { kryptonConfig } from '../../__testUtils__/krypton';
import { KryptonApi, kryptonApiRef } from '../../api/KryptonApi';
import { rootRouteRef } from '../../routes';
import { KryptonPage } from '../KryptonPage';

// A file of its own: usePermission caches decisions per permission for a whole test module.
describe('the storage rewrite page without the permission', () => {
  it('says who may use it, shows no tools, and asks the backend nothing about storage', async () => {
    const calls: string[] = [];
    const record = (name: string) => async (): Promise<never> => {
      calls.push(name);
      throw new Error('not expected');
    };
    const api = {
      getConfig: async () => kryptonConfig({ clusters: ['local', 'prod'] }),
      listStorageRewrites: record('listStorageRewrites'),
      storageRewriteRuns: record('storageRewriteRuns'),
      storageRewriteRun: record('storageRewriteRun'),
      getStorageMigrations: record('getStorageMigrations'),
      startStorageRewrite: record('startStorageRewrite'),
    } as Partial<KryptonApi> as KryptonApi;
    await renderInTestApp(
      <TestApiProvider
        apis={[
          [kryptonApiRef, api],
          [permissionApiRef, new MockPermissionApi(() => AuthorizeResult.DENY)],
        ]}
      >
        <Routes>
          <Route path="/krypton/*" element={<KryptonPage />} />
        </Routes>
      </TestApiProvider>,
      {
        routeEntries: ['/krypton/storage-rewrite?cluster=prod'],
        mountedRoutes: { '/krypton': rootRouteRef },
      },
    );
    expect(await screen.findByText(/Only for operators/)).toBeInTheDocument();
    expect(
      screen.getByText(
        'Only operators who hold the krypton.storage.rewrite permission can rewrite storage. The Backstage permission policy does not grant it to you; ask the people who run Backstage if you need it.',
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('heading', { name: 'Storage rewrite' }),
    ).toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: 'Rewrite storage' }),
    ).toBeNull();
    expect(screen.queryByLabelText('Cluster')).toBeNull();
    expect(calls).toEqual([]);
  });
});
