import { QuerySchema, parseDeleteBody, splitChangeReason } from '@krypton/core';
import { Router } from 'express';
import { SecretsService } from '../services/secretsService';
import { NO_QUERY, withQuery } from './query';
import { targetOf } from './target';

const LIST_QUERY = {
  labelSelector: 'text',
  adoptable: 'boolean',
} as const satisfies QuerySchema;
// `keys` names the values wanted, so that a view that shows one value reads (and audits) one.
const GET_QUERY = { keys: 'keyList' } as const satisfies QuerySchema;
const DELETE_QUERY = {
  resourceVersion: 'resourceVersion',
  keepHistory: 'boolean',
} as const satisfies QuerySchema;

/** The live Secrets' routes: list, create, read, summary, update, adopt, delete. */
export function secretsRoutes(router: Router, secrets: SecretsService) {
  router.get(
    '/namespaces/:namespace/secrets',
    withQuery(LIST_QUERY, async (req, res, query) => {
      res.json({ items: await secrets.list(targetOf(req), query) });
    }),
  );

  router.post(
    '/namespaces/:namespace/secrets',
    withQuery(NO_QUERY, async (req, res) => {
      res.status(201).json(await secrets.create(targetOf(req), req.body));
    }),
  );

  router.get(
    '/namespaces/:namespace/secrets/:name',
    withQuery(GET_QUERY, async (req, res, query) => {
      res.json(await secrets.get(targetOf(req), req.params.name, query));
    }),
  );

  router.get(
    '/namespaces/:namespace/secrets/:name/summary',
    withQuery(NO_QUERY, async (req, res) => {
      // Only this route carries the sizes: the portal's masked values. The summary action's
      // contract is key names alone.
      res.json(
        await secrets.summary(targetOf(req), req.params.name, {
          keySizes: true,
        }),
      );
    }),
  );

  router.put(
    '/namespaces/:namespace/secrets/:name',
    withQuery(NO_QUERY, async (req, res) => {
      const out = await secrets.update(
        targetOf(req),
        req.params.name,
        req.body,
      );
      res.status('changeRequest' in out ? 202 : 200).json(out);
    }),
  );

  router.post(
    '/namespaces/:namespace/secrets/:name/adopt',
    withQuery(NO_QUERY, async (req, res) => {
      res.json(await secrets.adopt(targetOf(req), req.params.name, req.body));
    }),
  );

  router.delete(
    '/namespaces/:namespace/secrets/:name',
    withQuery(DELETE_QUERY, async (req, res, query) => {
      // The reasons for deleting an owned Secret, and for asking approval of it, are free text:
      // they come in the body, not the URL.
      const { body, changeReason } = splitChangeReason(req.body);
      const out = await secrets.delete(targetOf(req), req.params.name, {
        ...query,
        ...parseDeleteBody(body),
        changeReason,
      });
      res
        .status('changeRequest' in out || out.status !== 'deleted' ? 202 : 200)
        .json(out);
    }),
  );
}
