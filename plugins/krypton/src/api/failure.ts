import { ResponseError, isError } from '@backstage/errors';
import { FailureKind, classifyFailure } from '@krypton/core';

/** A failed call to Krypton, as the components decide on it. */
export interface Failure {
  /** `network` when no answer arrived (the backend or the network is down). */
  kind: FailureKind | 'network';
  /** The HTTP status, when an answer arrived. */
  status?: number;
  /** The server's fixed message, or the client's own for a failure without an answer. */
  message: string;
}

/** Classifies what a KryptonClient call threw; the one place the frontend reads a status. */
export function failureOf(e: unknown): Failure {
  if (e instanceof ResponseError) {
    return {
      kind: classifyFailure(e.statusCode, e.message),
      status: e.statusCode,
      message: e.message,
    };
  }
  return {
    kind: 'network',
    // isError reads the shape: errors from another realm (jsdom, an iframe) fail instanceof.
    message: isError(e) ? e.message : String(e),
  };
}
