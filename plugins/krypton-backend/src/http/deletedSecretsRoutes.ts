import { DeletedSecretList } from '@krypton/core';
import { Router } from 'express';
import { DeletedSecretsService } from '../services/deletedSecretsService';
import { NO_QUERY, withQuery } from './query';
import { targetOf } from './target';

/** Secrets that are gone while their history is kept: the list, and recreate. */
export function deletedSecretsRoutes(
  router: Router,
  deleted: DeletedSecretsService,
) {
  router.get(
    '/namespaces/:namespace/deleted-secrets',
    withQuery(NO_QUERY, async (req, res) => {
      const body: DeletedSecretList = {
        items: await deleted.list(targetOf(req)),
      };
      res.json(body);
    }),
  );

  router.post(
    '/namespaces/:namespace/deleted-secrets/:name/recreate',
    withQuery(NO_QUERY, async (req, res) => {
      res
        .status(201)
        .json(await deleted.recreate(targetOf(req), req.params.name, req.body));
    }),
  );
}
