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
import { rootRouteRef } from './routes';

/** Krypton for the legacy frontend system. */
export const kryptonPlugin = createPlugin({
  id: 'krypton',
  apis: [
    createApiFactory({
      api: kryptonApiRef,
      deps: { discoveryApi: discoveryApiRef, fetchApi: fetchApiRef },
      factory: deps => new KryptonClient(deps),
    }),
  ],
  routes: { root: rootRouteRef },
});

export const KryptonPage = kryptonPlugin.provide(
  createRoutableExtension({
    name: 'KryptonPage',
    component: () =>
      import('./components/KryptonPage').then(m => m.KryptonPage),
    mountPoint: rootRouteRef,
  }),
);

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
