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
import VpnKeyIcon from '@material-ui/icons/VpnKey';
import { hasLinkedSecrets } from '@krypton/plugin-krypton-common';
import { kryptonApiRef } from './api/KryptonApi';
import { KryptonClient } from './api/KryptonClient';
import { readAnnotationPrefix } from './components/annotationPrefix';
import { rootRouteRef, secretRouteRef } from './routes';

const kryptonApi = ApiBlueprint.make({
  params: defineParams =>
    defineParams({
      api: kryptonApiRef,
      deps: { discoveryApi: discoveryApiRef, fetchApi: fetchApiRef },
      factory: deps => new KryptonClient(deps),
    }),
});

// This release of the new frontend system has no NavItemBlueprint: the app's sidebar lists every
// page that has a title and an icon, so the page carries both. The page draws its own header
// (shared with the legacy system), hence noHeader.
const kryptonPage = PageBlueprint.make({
  params: {
    path: '/krypton',
    title: 'Krypton',
    icon: <VpnKeyIcon />,
    noHeader: true,
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
      // Beside the Kubernetes plugin's content, which the catalog also groups under deployment.
      group: 'deployment',
      icon: <VpnKeyIcon />,
      filter: entity => hasLinkedSecrets(entity, prefix),
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
  title: 'Krypton',
  icon: <VpnKeyIcon />,
  info: { packageJson: () => import('../package.json') },
  extensions: [kryptonApi, kryptonPage, kryptonEntityContent],
  routes: {
    root: convertLegacyRouteRef(rootRouteRef),
    secret: convertLegacyRouteRef(secretRouteRef),
  },
});
