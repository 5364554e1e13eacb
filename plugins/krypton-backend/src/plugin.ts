import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import { catalogServiceRef } from '@backstage/plugin-catalog-node';
import { notificationService } from '@backstage/plugin-notifications-node';
import { signalsServiceRef } from '@backstage/plugin-signals-node';
import {
  kryptonSecretPermissions,
  kryptonStorageRewritePermission,
} from '@krypton/plugin-krypton-common';
import { readKryptonConfig } from './config';
import { migratedClient } from './database/migrate';
import { ChangeRequestStore } from './database/changeRequests';
import { RestartResultStore } from './database/restartResults';
import { StorageRewriteRunStore } from './database/storageRewriteRuns';
import { StorageRewriteStore } from './database/storageRewrites';
import { createClusters } from './kubernetes/clusters';
import { actionsRegistryServiceRef } from '@backstage/backend-plugin-api/alpha';
import { registerKryptonActions } from './actions/kryptonActions';
import { KRYPTON_ROUTE_PREFIXES, createRouter } from './http/router';
import { combineNotifiers, createSecretNotifier } from './notifications';
import { createChangeRequestNotifier } from './notifications/changeRequests';
import { createResourceLoader } from './permissions/loadResources';
import { kryptonSecretResourceRef } from './permissions/resource';
import { kryptonSecretRules } from './permissions/rules';
import { createKryptonServices } from './services';
import { createSecretSignaller } from './signals/secretSignals';

/**
 * Krypton's backend plugin, mounted at /api/krypton.
 *
 * @public
 */
export const kryptonPlugin = createBackendPlugin({
  pluginId: 'krypton',
  register(env) {
    env.registerInit({
      deps: {
        config: coreServices.rootConfig,
        logger: coreServices.logger,
        httpRouter: coreServices.httpRouter,
        httpAuth: coreServices.httpAuth,
        userInfo: coreServices.userInfo,
        permissions: coreServices.permissions,
        permissionsRegistry: coreServices.permissionsRegistry,
        auditor: coreServices.auditor,
        lifecycle: coreServices.lifecycle,
        scheduler: coreServices.scheduler,
        database: coreServices.database,
        actionsRegistry: actionsRegistryServiceRef,
        // Both have default factories (HTTP clients found through discovery), so any backend
        // satisfies them; they are used only while krypton.notifications.enabled is true.
        notifications: notificationService,
        catalog: catalogServiceRef,
        auth: coreServices.auth,
        // The default factory publishes through the events service; the signals backend, where it
        // is installed, delivers to the pages that subscribed.
        signals: signalsServiceRef,
      },
      async init(deps) {
        const {
          config,
          logger,
          httpRouter,
          lifecycle,
          permissionsRegistry,
          database,
          actionsRegistry,
        } = deps;
        const kryptonConfig = readKryptonConfig(config);
        const clusters = createClusters(kryptonConfig.clusters, {
          deadlineMs: kryptonConfig.requestTimeoutMs,
        });
        permissionsRegistry.addPermissions([kryptonStorageRewritePermission]);
        permissionsRegistry.addResourceType({
          resourceRef: kryptonSecretResourceRef,
          permissions: kryptonSecretPermissions,
          rules: Object.values(kryptonSecretRules),
          getResources: createResourceLoader({ clusters }),
        });
        logger.info(
          `Krypton manages ${clusters.map(c => c.name).join(', ')} in ${
            kryptonConfig.identity
          } mode`,
        );
        if (
          kryptonConfig.identity === 'serviceAccount' &&
          kryptonConfig.serviceAccountMode.namespaces.size === 0
        ) {
          logger.warn(
            'serviceAccount mode without krypton.kubernetes.serviceAccountMode.namespaces: create and adopt are refused in every namespace until it lists some',
          );
        }
        if (!kryptonConfig.historyLimit.ok) {
          logger.error(
            `${kryptonConfig.historyLimit.error}; history writes answer 503 until it is fixed`,
          );
        }
        lifecycle.addShutdownHook(() =>
          clusters.forEach(c => c.transport.close()),
        );
        const db = await migratedClient(database);
        const services = createKryptonServices({
          ...deps,
          config: kryptonConfig,
          clusters,
          restartResults: new RestartResultStore(db),
          storageRewrites: new StorageRewriteStore(db),
          storageRewriteRuns: new StorageRewriteRunStore(db),
          changeRequests: new ChangeRequestStore(db),
          changeNotifier: createChangeRequestNotifier({
            ...deps,
            settings: kryptonConfig.notifications,
          }),
          notifier: combineNotifiers(
            createSecretNotifier({
              ...deps,
              settings: kryptonConfig.notifications,
              annotationPrefix: kryptonConfig.annotationPrefix,
              defaultCluster: clusters[0].name,
            }),
            createSecretSignaller(deps),
          ),
        });
        // Runs of this replica read as interrupted at once, rather than after their heartbeat.
        lifecycle.addShutdownHook(() => services.storage.shutdown());
        // Ends the change requests whose time is up, and those that a stopped replica left
        // being applied; every replica runs it, and the store's row locks end each request once.
        await deps.scheduler.scheduleTask({
          id: 'krypton-change-request-sweep',
          frequency: { minutes: 1 },
          timeout: { minutes: 5 },
          initialDelay: { seconds: 30 },
          scope: 'local',
          fn: async () => {
            const swept = await services.changeRequests.sweep();
            if (swept.expired + swept.interrupted > 0)
              logger.info(
                `Change requests ended: ${swept.expired} expired, ${swept.interrupted} interrupted`,
              );
          },
        });
        registerKryptonActions(actionsRegistry, services);
        httpRouter.use(
          await createRouter({
            config: kryptonConfig,
            clusterNames: clusters.map(c => c.name),
            services,
            logger,
            httpAuth: deps.httpAuth,
          }),
        );
        // Krypton's router authenticates its own routes itself (http/authGate), so that a missing
        // or expired session gets Krypton's { "error": ... } envelope like every other failure.
        // Only its own prefixes: the actions registry and the permission integration, which core
        // services mount on the same router, keep Backstage's sign-in.
        for (const path of KRYPTON_ROUTE_PREFIXES)
          httpRouter.addAuthPolicy({ path, allow: 'unauthenticated' });
      },
    });
  },
});
