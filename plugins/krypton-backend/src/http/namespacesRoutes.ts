import { Router } from 'express';
import { NamespacesService } from '../services/namespacesService';
import { NO_QUERY, withQuery } from './query';
import { callerOf } from './target';

/** The namespaces of a cluster that the user may pick, for the platform page. */
export function namespacesRoutes(
  router: Router,
  namespaces: NamespacesService,
) {
  router.get(
    '/namespaces',
    withQuery(NO_QUERY, async (req, res) => {
      res.json({ items: await namespaces.list(callerOf(req)) });
    }),
  );
}
