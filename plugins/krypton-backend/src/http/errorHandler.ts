import { LoggerService } from '@backstage/backend-plugin-api';
import { ErrorRequestHandler } from 'express';
import { toKryptonError } from '../errors';

/**
 * Answers every failure with { "error": "..." } and Cache-Control: no-store. Unexpected errors are
 * logged by name only: their messages can quote upstream payloads.
 */
export function errorHandler(logger: LoggerService): ErrorRequestHandler {
  return (err, _req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const kryptonError = toKryptonError(err);
    if (kryptonError.code === 'internal') {
      logger.error(
        `Unexpected ${(err as Error)?.name ?? 'error'} in a Krypton request`,
      );
    }
    res.setHeader('Cache-Control', 'no-store');
    res.status(kryptonError.status).json(kryptonError.toEnvelope());
  };
}
