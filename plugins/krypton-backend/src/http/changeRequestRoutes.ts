import { ChangeRequestList, QuerySchema } from '@krypton/core';
import { Router } from 'express';
import { ChangeRequestService } from '../services/changeRequestService';
import { NO_QUERY, withQuery } from './query';
import { callerOf, targetOf } from './target';

const REQUEST = '/namespaces/:namespace/secrets/:name/change-requests/:id';
const WAITING_QUERY = {} as const satisfies QuerySchema;
// `keys` names the keys whose texts the comparison may carry: a value read of those keys only.
const DIFF_QUERY = { keys: 'keyList' } as const satisfies QuerySchema;

/**
 * Change requests: a Secret's requests, one request, its comparison with the live Secret, the
 * decisions on it, and the requests that wait for the signed-in user.
 */
export function changeRequestRoutes(
  router: Router,
  changeRequests: ChangeRequestService,
) {
  router.get(
    '/change-requests',
    withQuery(WAITING_QUERY, async (req, res) => {
      const body: ChangeRequestList = {
        items: await changeRequests.waiting(callerOf(req)),
      };
      res.json(body);
    }),
  );

  router.get(
    '/namespaces/:namespace/secrets/:name/change-requests',
    withQuery(NO_QUERY, async (req, res) => {
      const body: ChangeRequestList = {
        items: await changeRequests.list(targetOf(req), req.params.name),
      };
      res.json(body);
    }),
  );

  router.get(
    REQUEST,
    withQuery(NO_QUERY, async (req, res) => {
      res.json(
        await changeRequests.get(targetOf(req), req.params.name, req.params.id),
      );
    }),
  );

  router.get(
    `${REQUEST}/diff`,
    withQuery(DIFF_QUERY, async (req, res, query) => {
      res.json(
        await changeRequests.diff(
          targetOf(req),
          req.params.name,
          req.params.id,
          query,
        ),
      );
    }),
  );

  for (const decision of ['approve', 'reject', 'withdraw', 'bypass'] as const) {
    router.post(
      `${REQUEST}/${decision}`,
      withQuery(NO_QUERY, async (req, res) => {
        res.json(
          await changeRequests[decision](
            targetOf(req),
            req.params.name,
            req.params.id,
            req.body,
          ),
        );
      }),
    );
  }
}
