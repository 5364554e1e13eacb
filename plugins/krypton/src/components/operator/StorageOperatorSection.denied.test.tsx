import { permissionApiRef } from '@backstage/plugin-permission-react';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  MockPermissionApi,
  TestApiProvider,
  renderInTestApp,
} from '@backstage/test-utils';
import { screen } from '@testing-library/react';
import { KryptonApi, kryptonApiRef } from '../../api/KryptonApi';
import { StorageOperatorSection } from './StorageOperatorSection';

// A file of its own: usePermission caches decisions per permission for a whole test module.
describe('StorageOperatorSection without the permission', () => {
  it('is not shown, and asks the backend nothing', async () => {
    const calls: string[] = [];
    const record = (name: string) => async (): Promise<never> => {
      calls.push(name);
      throw new Error('not expected');
    };
    const api = {
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
        <StorageOperatorSection />
      </TestApiProvider>,
    );
    expect(screen.queryByText('Storage rewrite (operators)')).toBeNull();
    expect(
      screen.queryByRole('button', { name: 'Rewrite storage' }),
    ).toBeNull();
    expect(calls).toEqual([]);
  });
});
