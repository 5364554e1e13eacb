import {
  ApiBlueprint,
  PageBlueprint,
  configApiRef,
  createFrontendPlugin,
  discoveryApiRef,
  fetchApiRef,
} from '@backstage/frontend-plugin-api';
import { convertLegacyRouteRef } from '@backstage/core-compat-api';
import {
  EntityCardBlueprint,
  EntityContentBlueprint,
} from '@backstage/plugin-catalog-react/alpha';
import VpnKeyIcon from '@material-ui/icons/VpnKey';
import { hasLinkedSecrets } from '@krypton/plugin-krypton-common';
import { kryptonApiRef } from './api/KryptonApi';
import { KryptonClient } from './api/KryptonClient';
import { readAnnotationPrefix } from './components/annotationPrefix';
import { rootRouteRef, secretRouteRef, storageRewriteRouteRef } from './routes';

const kryptonApi = ApiBlueprint.make({
  params: defineParams =>
    defineParams({
      api: kryptonApiRef,
      deps: { discoveryApi: discoveryApiRef, fetchApi: fetchApiRef },
      factory: deps => new KryptonClient(deps),
    }),
});

// This release of the new frontend system has no NavItemBlueprint: the app's sidebar lists every
// page that has a title and an icon, so the page carries both. The app draws the plugin's header
// from them; the page's routes then draw no legacy Header and name their sub pages in the
// header's breadcrumbs instead.
const kryptonPage = PageBlueprint.make({
  params: {
    path: '/krypton',
    title: 'Krypton',
    icon: <VpnKeyIcon />,
    routeRef: convertLegacyRouteRef(rootRouteRef),
    loader: () =>
      Promise.all([
        import('./components/KryptonPage'),
        import('./components/KryptonPageFrame'),
      ]).then(([page, frame]) => (
        <frame.KryptonHeaderModeProvider value="app">
          <page.KryptonPage />
        </frame.KryptonHeaderModeProvider>
      )),
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

// The entity overview's card, on the entities that link Secrets; with overrides for the same
// reason as the tab.
const kryptonEntityCard = EntityCardBlueprint.makeWithOverrides({
  factory(originalFactory, { apis }) {
    const prefix = readAnnotationPrefix(apis.get(configApiRef));
    return originalFactory({
      filter: entity => hasLinkedSecrets(entity, prefix),
      loader: () =>
        import('./components/overview').then(m => (
          <m.EntityKryptonOverviewCard />
        )),
    });
  },
});

export { kryptonTranslationRef } from './translation';

/** Krypton for the new frontend system. */
export default createFrontendPlugin({
  pluginId: 'krypton',
  title: 'Krypton',
  icon: <VpnKeyIcon />,
  info: { packageJson: () => import('../package.json') },
  extensions: [
    kryptonApi,
    kryptonPage,
    kryptonEntityContent,
    kryptonEntityCard,
  ],
  routes: {
    root: convertLegacyRouteRef(rootRouteRef),
    secret: convertLegacyRouteRef(secretRouteRef),
    storageRewrite: convertLegacyRouteRef(storageRewriteRouteRef),
  },
});
