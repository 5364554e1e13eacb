import { QuerySchema } from '@krypton/plugin-krypton-common';
import { Router } from 'express';
import { StorageService, rewriteIncomplete } from '../services/storageService';
import { NO_QUERY, withQuery } from './query';
import { callerOf } from './target';

const REWRITE_QUERY = {
  namespace: 'text',
  dryRun: 'boolean',
} as const satisfies QuerySchema;

const MIGRATIONS_QUERY = {
  since: 'text',
} as const satisfies QuerySchema;

/** The operator's storage rewrite, its last runs, and the cluster's own migrations. */
export function storageRoutes(router: Router, storage: StorageService) {
  router.post(
    '/storage-rewrite',
    withQuery(REWRITE_QUERY, async (req, res, query) => {
      const result = await storage.rewrite(callerOf(req), query);
      res.status(rewriteIncomplete(result) ? 207 : 200).json(result);
    }),
  );

  router.get(
    '/storage-rewrite/last',
    withQuery(NO_QUERY, async (req, res) => {
      res.json({ runs: await storage.lastRuns(callerOf(req)) });
    }),
  );

  router.get(
    '/storage-rewrite/migrations',
    withQuery(MIGRATIONS_QUERY, async (req, res, query) => {
      res.json(await storage.migrations(callerOf(req), query));
    }),
  );
}
