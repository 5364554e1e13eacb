import { KryptonError, messages } from '../errors';
import { KubeApiError } from './types';

/**
 * Maps a failed Kubernetes request to Krypton's fixed, sanitized errors.
 *
 * @public
 */
export function fromKubeError(err: unknown): KryptonError {
  if (err instanceof KryptonError) return err;
  if (!(err instanceof KubeApiError))
    return new KryptonError('internal', messages.internal);
  switch (err.status) {
    case 403:
      return new KryptonError('forbidden', messages.forbiddenKubernetes);
    case 404:
      return new KryptonError('not_found', messages.notFound);
    case 409:
      return err.reason === 'AlreadyExists'
        ? new KryptonError('conflict', messages.alreadyExists)
        : new KryptonError('conflict', messages.staleRevision);
    case 413:
      return new KryptonError('too_large', messages.tooLarge);
    case 400:
    case 422:
      return new KryptonError(
        'unprocessable',
        'Kubernetes rejected the Secret as invalid.',
      );
    case 429:
      return new KryptonError('rate_limited', messages.rateLimited);
    default:
      // 401 means Krypton's own credentials were refused, not the user's session; 5xx and
      // transport failures are outages.
      return new KryptonError('unavailable', messages.unavailable);
  }
}
