import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import { readKryptonConfig } from './config';
import { createClusters } from './kubernetes/clusters';
import { createRouter } from './router';

/** Krypton's backend plugin, mounted at /api/krypton. */
export const kryptonPlugin = createBackendPlugin({
  pluginId: 'krypton',
  register(env) {
    env.registerInit({
      deps: {
        config: coreServices.rootConfig,
        logger: coreServices.logger,
        httpRouter: coreServices.httpRouter,
        lifecycle: coreServices.lifecycle,
      },
      async init({ config, logger, httpRouter, lifecycle }) {
        const kryptonConfig = readKryptonConfig(config);
        const clusters = createClusters(kryptonConfig.clusters);
        logger.info(
          `Krypton manages ${clusters.map(c => c.name).join(', ')} in ${
            kryptonConfig.identity
          } mode`,
        );
        lifecycle.addShutdownHook(() =>
          clusters.forEach(c => c.transport.close()),
        );
        httpRouter.use(await createRouter());
        httpRouter.addAuthPolicy({ path: '/health', allow: 'unauthenticated' });
      },
    });
  },
});
