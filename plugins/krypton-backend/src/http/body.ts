import { KryptonError, parseJsonBody } from '@krypton/core';
import express, { RequestHandler } from 'express';

/** The largest request body: a 1 MiB Secret as JSON text, with room for escapes. */
const BODY_LIMIT = '4mb';

/**
 * Request bodies are JSON in UTF-8, read strictly: another media type or charset is a 415, and
 * bytes that are not UTF-8 are a 400, never replaced by U+FFFD as a lenient decoder would.
 */
export function jsonBody(): RequestHandler[] {
  const mediaType: RequestHandler = (req, _res, next) => {
    const hasBody =
      Number(req.headers['content-length'] ?? 0) > 0 ||
      req.headers['transfer-encoding'] !== undefined;
    if (!hasBody) {
      next();
      return;
    }
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(
      req.headers['content-type'] ?? '',
    )?.[1];
    if (
      !req.is('application/json') ||
      (charset !== undefined && charset.toLowerCase() !== 'utf-8')
    ) {
      next(
        new KryptonError(
          'unsupported_media_type',
          'Send the request body as application/json in UTF-8.',
        ),
      );
      return;
    }
    next();
  };
  const parse: RequestHandler = (req, _res, next) => {
    try {
      // Content-Length: 0 is no body, as the media-type check above already treats it.
      if (Buffer.isBuffer(req.body))
        req.body = req.body.length === 0 ? {} : parseJsonBody(req.body);
      next();
    } catch (err) {
      next(err);
    }
  };
  return [
    mediaType,
    express.raw({ type: 'application/json', limit: BODY_LIMIT }),
    parse,
  ];
}

/** A route that takes no body: an empty JSON object is tolerated as none. */
export function requireNoBody(body: unknown, route: string): void {
  const empty =
    body === undefined ||
    (typeof body === 'object' &&
      body !== null &&
      !Array.isArray(body) &&
      Object.keys(body).length === 0);
  if (!empty) {
    throw new KryptonError(
      'invalid_request',
      `${route} takes no request body.`,
    );
  }
}
