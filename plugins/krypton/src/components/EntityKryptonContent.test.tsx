import { Entity } from '@backstage/catalog-model';
import { configApiRef } from '@backstage/core-plugin-api';
import { EntityProvider } from '@backstage/plugin-catalog-react';
import {
  TestApiProvider,
  mockApis,
  renderInTestApp,
} from '@backstage/test-utils';
import { screen } from '@testing-library/react';
import { KryptonApi, kryptonApiRef } from '../api/KryptonApi';
import { EntityKryptonContent } from './EntityKryptonContent';

// The tab only asks for the backend's health; every other call would be a test mistake.
const kryptonApi = {
  getHealth: async () => ({ status: 'ok' }),
} as Partial<KryptonApi> as KryptonApi;

function renderFor(
  annotations: Record<string, string>,
  config: { krypton?: { annotationPrefix: string } },
) {
  const entity: Entity = {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: { name: 'c', annotations },
  };
  return renderInTestApp(
    <TestApiProvider
      apis={[
        [kryptonApiRef, kryptonApi],
        [configApiRef, mockApis.config({ data: config })],
      ]}
    >
      <EntityProvider entity={entity}>
        <EntityKryptonContent />
      </EntityProvider>
    </TestApiProvider>,
  );
}

describe('EntityKryptonContent', () => {
  const custom = { krypton: { annotationPrefix: 'secrets.example.com' } };

  it('lists the Secrets under the configured prefix', async () => {
    await renderFor({ 'secrets.example.com/secrets': 'demo/db' }, custom);
    expect(await screen.findByText('db')).toBeInTheDocument();
    expect(screen.queryByText('No Secrets linked')).not.toBeInTheDocument();
  });

  it('names the configured annotation when nothing is linked', async () => {
    await renderFor({ 'krypton.io/secrets': 'demo/db' }, custom);
    expect(
      await screen.findByText(
        /Add a secrets\.example\.com\/secrets annotation/,
      ),
    ).toBeInTheDocument();
  });

  it('falls back to the default prefix without configuration', async () => {
    await renderFor({}, {});
    expect(
      await screen.findByText(/Add a krypton\.io\/secrets annotation/),
    ).toBeInTheDocument();
  });
});
