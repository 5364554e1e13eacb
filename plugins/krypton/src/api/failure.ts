import { ResponseError, isError } from '@backstage/errors';
import { FailureKind, classifyFailure } from '@krypton/core';
import { ChangeRequestedError } from './KryptonClient';

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
  // Nothing was written, and that is certain: the dialogs show the request's message as they
  // show a refusal, never as an outcome they cannot know.
  if (e instanceof ChangeRequestedError)
    return { kind: 'other', status: 202, message: e.message };
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
