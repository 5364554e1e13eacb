import { QuerySchema } from '@krypton/core';
import { Router } from 'express';
import { StorageService } from '../services/storageService';
import { NO_QUERY, withQuery } from './query';
import { callerOf } from './target';

const REWRITE_QUERY = {
  namespace: 'text',
  dryRun: 'boolean',
} as const satisfies QuerySchema;

const RUNS_QUERY = {
  namespace: 'text',
} as const satisfies QuerySchema;

const MIGRATIONS_QUERY = {
  since: 'text',
} as const satisfies QuerySchema;

/** The operator's storage rewrite runs, the last part of each namespace, and the cluster's migrations. */
export function storageRoutes(router: Router, storage: StorageService) {
  // 202: the run goes on without this request; its row answers for it on every replica.
  router.post(
    '/storage-rewrite',
    withQuery(REWRITE_QUERY, async (req, res, query) => {
      const run = await storage.start(callerOf(req), query);
      res
        .status(202)
        .location(`${req.baseUrl}/storage-rewrite/runs/${run.id}`)
        .json(run);
    }),
  );

  router.get(
    '/storage-rewrite/runs',
    withQuery(RUNS_QUERY, async (req, res, query) => {
      res.json({ runs: await storage.runs(callerOf(req), query) });
    }),
  );

  router.get(
    '/storage-rewrite/runs/:id',
    withQuery(NO_QUERY, async (req, res) => {
      res.json(await storage.run(callerOf(req), req.params.id));
    }),
  );

  router.post(
    '/storage-rewrite/runs/:id/cancel',
    withQuery(NO_QUERY, async (req, res) => {
      res.status(202).json(await storage.cancel(callerOf(req), req.params.id));
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
