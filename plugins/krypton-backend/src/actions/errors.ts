import {
  AuthenticationError,
  ConflictError,
  InputError,
  NotAllowedError,
  NotFoundError,
  ServiceUnavailableError,
} from '@backstage/errors';
import { KryptonError, messages } from '@krypton/core';

/**
 * Krypton's refusals as the Backstage errors that the actions registry answers with their own
 * status; the message stays Krypton's fixed text. Anything else is an internal error whose
 * message never leaves the backend.
 */
export function toActionError(err: unknown): Error {
  if (!(err instanceof KryptonError)) return new Error(messages.internal);
  switch (err.status) {
    case 400:
    case 413:
    case 415:
    case 422:
      return new InputError(err.message);
    case 401:
      return new AuthenticationError(err.message);
    case 403:
      return new NotAllowedError(err.message);
    case 404:
      return new NotFoundError(err.message);
    case 409:
      return new ConflictError(err.message);
    case 503:
      return new ServiceUnavailableError(err.message);
    default:
      return new Error(messages.internal);
  }
}
