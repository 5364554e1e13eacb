import { HttpAuthService, LoggerService } from '@backstage/backend-plugin-api';
import {
  KryptonConfigDto,
  KryptonError,
  MAX_SECRET_BYTES,
  PREVIEW_LIMIT_CODE_UNITS,
} from '@krypton/core';
import express from 'express';
import Router from 'express-promise-router';
import { KryptonBackendConfig } from '../config';
import { KryptonServices, admitSecretName } from '../services';
import { serverTiming } from '../diagnostics/serverTiming';
import { authGate } from './authGate';
import { jsonBody } from './body';
import { changeRequestRoutes } from './changeRequestRoutes';
import { deletedSecretsRoutes } from './deletedSecretsRoutes';
import { errorHandler } from './errorHandler';
import { historyRoutes } from './historyRoutes';
import { namespacesRoutes } from './namespacesRoutes';
import { noStore } from './noStore';
import { NO_QUERY, withQuery } from './query';
import { ownerSyncRoutes } from './ownerSyncRoutes';
import { restartRoutes } from './restartRoutes';
import { secretsRoutes } from './secretsRoutes';
import { storageRoutes } from './storageRoutes';

export interface RouterOptions {
  config: KryptonBackendConfig;
  /** The configured clusters' names, the default first. */
  clusterNames: string[];
  services: KryptonServices;
  logger: LoggerService;
  httpAuth: HttpAuthService;
}

/**
 * The first segments of every route below: the paths that Krypton authenticates itself. Anything
 * else under the plugin's base path (the actions registry, the permission integration) is not
 * Krypton's, and keeps Backstage's own sign-in.
 */
export const KRYPTON_ROUTE_PREFIXES = [
  '/health',
  '/config',
  '/namespaces',
  '/managed-namespaces',
  '/clusters',
  '/storage-rewrite',
  '/change-requests',
] as const;

/** Krypton's HTTP API: each route parses the request, calls a service and shapes the answer. */
export async function createRouter(
  options: RouterOptions,
): Promise<express.Router> {
  const { config, clusterNames, services, httpAuth, logger } = options;
  const router = Router();
  if (config.serverTiming) router.use(serverTiming());
  router.use(noStore());

  router.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });

  // Everything below, unknown routes included, needs a signed-in Backstage user.
  router.use(authGate(httpAuth));

  router.get(
    '/config',
    withQuery(NO_QUERY, async (_req, res) => {
      const body: KryptonConfigDto = {
        annotationPrefix: config.annotationPrefix,
        identityMode: config.identity,
        clusters: clusterNames,
        defaultCluster: clusterNames[0],
        historyLimit: config.historyLimit.ok ? config.historyLimit.value : null,
        restartEnabled: config.restartEnabled,
        managedOnly: config.managedOnly,
        maxSecretBytes: MAX_SECRET_BYTES,
        previewLimit: PREVIEW_LIMIT_CODE_UNITS,
      };
      if (!config.historyLimit.ok) {
        res.status(503).json({ ...body, error: config.historyLimit.error });
        return;
      }
      res.json(body);
    }),
  );

  const scoped = Router({ mergeParams: true });
  // The name rule runs before the body is read, so a snapshot name answers 404 whatever body
  // comes with it; the services apply it again for callers that are not routes.
  scoped.use(
    [
      '/namespaces/:namespace/secrets/:name',
      '/namespaces/:namespace/deleted-secrets/:name',
    ],
    (req, _res, next) => {
      admitSecretName(req.params.name);
      next();
    },
  );
  scoped.use(...jsonBody());
  secretsRoutes(scoped, services.secrets);
  historyRoutes(scoped, services.history);
  deletedSecretsRoutes(scoped, services.deleted);
  restartRoutes(scoped, services.restart);
  ownerSyncRoutes(scoped, services.ownerSync);
  storageRoutes(scoped, services.storage);
  namespacesRoutes(scoped, services.namespaces);
  changeRequestRoutes(scoped, services.changeRequests);

  router.use('/clusters/:cluster', scoped);
  router.use('/', scoped);
  router.use((_req, _res) => {
    throw new KryptonError('not_found', 'No such Krypton route.');
  });
  router.use(errorHandler(logger));
  return router;
}
