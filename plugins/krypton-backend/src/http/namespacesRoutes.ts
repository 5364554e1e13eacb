import { Router } from 'express';
import { NamespacesService } from '../services/namespacesService';
import { NO_QUERY, withQuery } from './query';
import { callerOf } from './target';

/**
 * The namespaces of a cluster that the user may pick, for the platform page, and those of them that
 * hold managed Secrets, for its first view.
 */
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
  router.get(
    '/managed-namespaces',
    withQuery(NO_QUERY, async (req, res) => {
      res.json(await namespaces.managed(callerOf(req)));
    }),
  );
}
