import { Router } from 'express';
import { OwnerSyncService } from '../services/ownerSyncService';
import { requireNoBody } from './body';
import { NO_QUERY, withQuery } from './query';
import { targetOf } from './target';

/** Whether Krypton can ask a Secret's owner to sync it for this user, and the request. */
export function ownerSyncRoutes(router: Router, ownerSync: OwnerSyncService) {
  router.get(
    '/namespaces/:namespace/secrets/:name/owner-sync',
    withQuery(NO_QUERY, async (req, res) => {
      res.json(await ownerSync.offer(targetOf(req), req.params.name));
    }),
  );

  router.post(
    '/namespaces/:namespace/secrets/:name/owner-sync',
    withQuery(NO_QUERY, async (req, res) => {
      requireNoBody(req.body, 'owner-sync');
      res.json(await ownerSync.request(targetOf(req), req.params.name));
    }),
  );
}
