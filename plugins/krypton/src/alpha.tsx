import {
  ApiBlueprint,
  PageBlueprint,
  configApiRef,
  createFrontendPlugin,
  discoveryApiRef,
  fetchApiRef,
} from '@backstage/frontend-plugin-api';
import { convertLegacyRouteRef } from '@backstage/core-compat-api';
import { EntityContentBlueprint } from '@backstage/plugin-catalog-react/alpha';
import { kryptonApiRef } from './api/KryptonApi';
import { KryptonClient } from './api/KryptonClient';
import { readAnnotationPrefix } from './components/annotationPrefix';
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

// With overrides because the tab's filter needs the configured annotation prefix, and only the
// factory sees the app's APIs.
const kryptonEntityContent = EntityContentBlueprint.makeWithOverrides({
  factory(originalFactory, { apis }) {
    const prefix = readAnnotationPrefix(apis.get(configApiRef));
    return originalFactory({
      path: 'krypton',
      title: 'Secrets',
      filter: entity => linkedSecrets(entity, prefix).length > 0,
      loader: () =>
        import('./components/EntityKryptonContent').then(m => (
          <m.EntityKryptonContent />
        )),
    });
  },
});

/** Krypton for the new frontend system. */
export default createFrontendPlugin({
  pluginId: 'krypton',
  extensions: [kryptonApi, kryptonPage, kryptonEntityContent],
  routes: { root: convertLegacyRouteRef(rootRouteRef) },
});
