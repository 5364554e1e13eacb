import { ParsedQuery, QuerySchema, parseQuery } from '@krypton/core';
import { Request, Response } from 'express';

export const NO_QUERY = {} as const satisfies QuerySchema;

/**
 * A route handler with the query parameters it declares. Every route names its schema, so an
 * unknown or malformed parameter is a 400 rather than silently ignored. The check runs after the
 * router's :name gate, so a snapshot name answers 404 before any query is judged.
 */
export function withQuery<S extends QuerySchema>(
  schema: S,
  handler: (
    req: Request,
    res: Response,
    query: ParsedQuery<S>,
  ) => Promise<void>,
) {
  return (req: Request, res: Response) =>
    handler(req, res, parseQuery(rawQuery(req), schema));
}

/**
 * The query as the client sent it. Express's parser drops names such as __proto__ and nests
 * a[b]=c, which would let a parameter pass unseen; each name is checked as written instead.
 */
function rawQuery(req: Request): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  const at = req.originalUrl.indexOf('?');
  if (at < 0) return out;
  for (const [name, value] of new URLSearchParams(
    req.originalUrl.slice(at + 1),
  )) {
    const seen = out[name];
    if (seen === undefined) out[name] = value;
    else out[name] = [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return out;
}
