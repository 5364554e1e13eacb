import express, { RequestHandler, Response } from 'express';

/**
 * Express's default ETag is a hash of the whole body, values included: a fingerprint of the
 * Secret's data that caches and logs keep, and with If-None-Match an oracle that answers 304 when
 * a guessed value is right. The setting belongs to the host's application, so this response sees
 * a view of it without an ETag function; every other setting is the host's own.
 */
function withoutETag(res: Response) {
  const host = res.app;
  const view: express.Application = Object.create(host);
  view.settings = Object.create(host.settings, {
    'etag fn': { value: undefined },
  });
  res.app = view;
}

/**
 * Every answer of this API may carry Secret data or depend on live access: never cache it, and
 * never fingerprint it.
 */
export function noStore(): RequestHandler {
  return (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    withoutETag(res);
    next();
  };
}
