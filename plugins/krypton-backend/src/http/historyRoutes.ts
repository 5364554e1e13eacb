import { VersionList } from '@krypton/core';
import { Router } from 'express';
import { HistoryService } from '../services/historyService';
import { NO_QUERY, withQuery } from './query';
import { targetOf } from './target';

/** A Secret's history routes: the version list, one version, restore. */
export function historyRoutes(router: Router, history: HistoryService) {
  router.get(
    '/namespaces/:namespace/secrets/:name/versions',
    withQuery(NO_QUERY, async (req, res) => {
      const body: VersionList = {
        items: await history.versions(targetOf(req), req.params.name),
      };
      res.json(body);
    }),
  );

  router.get(
    '/namespaces/:namespace/secrets/:name/versions/:version',
    withQuery(NO_QUERY, async (req, res) => {
      res.json(
        await history.version(
          targetOf(req),
          req.params.name,
          req.params.version,
        ),
      );
    }),
  );

  router.post(
    '/namespaces/:namespace/secrets/:name/restore',
    withQuery(NO_QUERY, async (req, res) => {
      const out = await history.restore(
        targetOf(req),
        req.params.name,
        req.body,
      );
      res.status('changeRequest' in out ? 202 : 200).json(out);
    }),
  );
}
