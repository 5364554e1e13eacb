import { restartHttpStatus } from '@krypton/core';
import { Router } from 'express';
import { RestartService } from '../services/restartService';
import { requireNoBody } from './body';
import { NO_QUERY, withQuery } from './query';
import { targetOf } from './target';

/** The consumers dry run, its pods' versions, restart-consumers and its last result. */
export function restartRoutes(router: Router, restart: RestartService) {
  router.post(
    '/namespaces/:namespace/secrets/:name/restart-consumers',
    withQuery(NO_QUERY, async (req, res) => {
      restart.assertEnabled();
      requireNoBody(req.body, 'restart-consumers');
      const result = await restart.restart(targetOf(req), req.params.name);
      res.status(restartHttpStatus(result.status)).json(result);
    }),
  );

  router.get(
    '/namespaces/:namespace/secrets/:name/restart-consumers/last',
    withQuery(NO_QUERY, async (req, res) => {
      res.json({ last: await restart.last(targetOf(req), req.params.name) });
    }),
  );

  router.get(
    '/namespaces/:namespace/secrets/:name/consumers',
    withQuery(NO_QUERY, async (req, res) => {
      res.json(await restart.consumers(targetOf(req), req.params.name));
    }),
  );

  router.get(
    '/namespaces/:namespace/secrets/:name/consumers/pods',
    withQuery(NO_QUERY, async (req, res) => {
      res.json(await restart.consumerVersions(targetOf(req), req.params.name));
    }),
  );
}
