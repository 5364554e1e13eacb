import { KryptonError, messages } from '@krypton/core';

/** Turns any error into a Krypton error: known ones keep their fixed message, the rest are 500. */
export function toKryptonError(err: unknown): KryptonError {
  if (err instanceof KryptonError) return err;
  const e = err as {
    name?: unknown;
    type?: unknown;
    status?: unknown;
    expose?: unknown;
  };
  if (e?.name === 'AuthenticationError' || e?.name === 'NotAllowedError') {
    return e.name === 'AuthenticationError'
      ? new KryptonError('unauthenticated', messages.unauthenticated)
      : new KryptonError('forbidden', messages.forbiddenPermission);
  }
  // body-parser errors (the raw reader: JSON itself is parsed by parseJsonBody)
  if (e?.type === 'entity.too.large')
    return new KryptonError('too_large', messages.tooLarge);
  if (typeof e?.type === 'string' && e.status === 415) {
    return new KryptonError(
      'invalid_request',
      'Send the request body as UTF-8 JSON.',
    );
  }
  // A body that could not be read or decompressed (a corrupt gzip stream has no type).
  if ((typeof e?.type === 'string' || e?.expose === true) && e.status === 400) {
    return new KryptonError(
      'invalid_request',
      'The request body could not be read.',
    );
  }
  // express could not percent-decode a path parameter (%E0%A4%A, %C0).
  if (e?.name === 'URIError' && e.status === 400) {
    return new KryptonError(
      'invalid_request',
      'The request path is not valid percent-encoded UTF-8.',
    );
  }
  return new KryptonError('internal', messages.internal);
}
