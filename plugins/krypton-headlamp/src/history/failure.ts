import { KryptonError } from '@krypton/core';
import { text } from '../messages';

/** How the history views read a failed engine call. */
export interface Failure {
  kind: 'denied' | 'conflict' | 'unavailable';
  /** Krypton's fixed message, never upstream text; a generic one when no answer came. */
  message: string;
}

/**
 * The engines throw KryptonError with fixed messages for every answer of the API server: 403 is
 * the user's RBAC, 409 a changed Secret. Anything else (no answer, a budget, a bug) is shown as
 * unavailable without its text, which could come from anywhere.
 */
export function failureOf(error: unknown): Failure {
  if (!(error instanceof KryptonError))
    return { kind: 'unavailable', message: text.history.unreachable };
  if (error.code === 'forbidden')
    return { kind: 'denied', message: error.message };
  if (error.code === 'conflict')
    return { kind: 'conflict', message: error.message };
  return { kind: 'unavailable', message: error.message };
}
