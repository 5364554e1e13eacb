import {
  createApiFactory,
  createComponentExtension,
  createPlugin,
  createRoutableExtension,
  discoveryApiRef,
  fetchApiRef,
} from '@backstage/core-plugin-api';
import { kryptonApiRef } from './api/KryptonApi';
import { KryptonClient } from './api/KryptonClient';
import { rootRouteRef, secretRouteRef, storageRewriteRouteRef } from './routes';

/**
 * Krypton for the legacy frontend system.
 *
 * @public
 */
export const kryptonPlugin = createPlugin({
  id: 'krypton',
  apis: [
    createApiFactory({
      api: kryptonApiRef,
      deps: { discoveryApi: discoveryApiRef, fetchApi: fetchApiRef },
      factory: deps => new KryptonClient(deps),
    }),
  ],
  routes: {
    root: rootRouteRef,
    secret: secretRouteRef,
    storageRewrite: storageRewriteRouteRef,
  },
});

/**
 * The platform page: Secrets per cluster and namespace, create and adopt, one Secret's detail
 * view under /secret/:namespace/:name, and the operators' storage rewrite under
 * /storage-rewrite. Mount it with a trailing wildcard (FlatRoutes adds one) so that the sub
 * routes match.
 *
 * @public
 */
export const KryptonPage = kryptonPlugin.provide(
  createRoutableExtension({
    name: 'KryptonPage',
    component: () =>
      import('./components/KryptonPage').then(m => m.KryptonPage),
    mountPoint: rootRouteRef,
  }),
);

/**
 * The entity tab: the Secrets that the entity's annotations link (see hasLinkedSecrets). Show it
 * for the entities that `isKryptonAvailable` accepts.
 *
 * @public
 */
export const EntityKryptonContent = kryptonPlugin.provide(
  createComponentExtension({
    name: 'EntityKryptonContent',
    component: {
      lazy: () =>
        import('./components/EntityKryptonContent').then(
          m => m.EntityKryptonContent,
        ),
    },
  }),
);

/**
 * The entity overview's card: the entity's linked Secrets with their version, the last change
 * (who and when) and any problem, linking to each Secret's history and consumers. Show it for
 * the entities that `isKryptonAvailable` accepts.
 *
 * @public
 */
export const EntityKryptonOverviewCard = kryptonPlugin.provide(
  createComponentExtension({
    name: 'EntityKryptonOverviewCard',
    component: {
      lazy: () =>
        import('./components/overview').then(m => m.EntityKryptonOverviewCard),
    },
  }),
);
