import { KryptonError, restartHttpStatus } from '@krypton/core';
import { Router } from 'express';
import { RestartService } from '../services/restartService';
import { NO_QUERY, withQuery } from './query';
import { targetOf } from './target';

/** restart-consumers takes no body; an empty JSON object is tolerated as none. */
function requireNoBody(body: unknown) {
  const empty =
    body === undefined ||
    (typeof body === 'object' &&
      body !== null &&
      !Array.isArray(body) &&
      Object.keys(body).length === 0);
  if (!empty) {
    throw new KryptonError(
      'invalid_request',
      'restart-consumers takes no request body.',
    );
  }
}

/** The consumers dry run, restart-consumers and its last result. */
export function restartRoutes(router: Router, restart: RestartService) {
  router.post(
    '/namespaces/:namespace/secrets/:name/restart-consumers',
    withQuery(NO_QUERY, async (req, res) => {
      restart.assertEnabled();
      requireNoBody(req.body);
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
}
