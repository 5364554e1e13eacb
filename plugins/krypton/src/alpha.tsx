import {
  ApiBlueprint,
  PageBlueprint,
  createFrontendPlugin,
  discoveryApiRef,
  fetchApiRef,
} from '@backstage/frontend-plugin-api';
import { convertLegacyRouteRef } from '@backstage/core-compat-api';
import { EntityContentBlueprint } from '@backstage/plugin-catalog-react/alpha';
import { kryptonApiRef } from './api/KryptonApi';
import { KryptonClient } from './api/KryptonClient';
import { linkedSecrets } from './components/linkedSecrets';
import { rootRouteRef } from './routes';

const kryptonApi = ApiBlueprint.make({
  params: defineParams =>
    defineParams({
      api: kryptonApiRef,
      deps: { discoveryApi: discoveryApiRef, fetchApi: fetchApiRef },
      factory: deps => new KryptonClient(deps),
    }),
});

const kryptonPage = PageBlueprint.make({
  params: {
    path: '/krypton',
    title: 'Krypton',
    routeRef: convertLegacyRouteRef(rootRouteRef),
    loader: () =>
      import('./components/KryptonPage').then(m => <m.KryptonPage />),
  },
});

const kryptonEntityContent = EntityContentBlueprint.make({
  params: {
    path: 'krypton',
    title: 'Secrets',
    filter: entity => linkedSecrets(entity).length > 0,
    loader: () =>
      import('./components/EntityKryptonContent').then(m => (
        <m.EntityKryptonContent />
      )),
  },
});

/** Krypton for the new frontend system. */
export default createFrontendPlugin({
  pluginId: 'krypton',
  extensions: [kryptonApi, kryptonPage, kryptonEntityContent],
  routes: { root: convertLegacyRouteRef(rootRouteRef) },
});
