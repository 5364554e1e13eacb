import { KryptonError, KubeApiError, messages } from '@krypton/core';
import { EXIT, ExitCode } from './exitCodes';

/** What kind of failure a CliError is; each has one exit code. */
export type CliFailure =
  | 'usage'
  | 'config'
  | 'credentials'
  | 'notFound'
  | 'forbidden'
  | 'conflict'
  | 'refused'
  | 'cancelled'
  | 'failed';

const EXIT_OF: Record<CliFailure, ExitCode> = {
  usage: EXIT.usage,
  config: EXIT.usage,
  credentials: EXIT.failed,
  notFound: EXIT.notFound,
  forbidden: EXIT.forbidden,
  conflict: EXIT.conflict,
  refused: EXIT.refused,
  cancelled: EXIT.cancelled,
  failed: EXIT.failed,
};

/** A failure the CLI explains itself: its message is one line that says what to do. */
export class CliError extends Error {
  readonly exit: ExitCode;

  constructor(readonly failure: CliFailure, message: string) {
    super(message);
    this.name = 'CliError';
    this.exit = EXIT_OF[failure];
  }
}

/** Where a command acted, for messages that name it. */
export interface FailureContext {
  namespace: string;
  name?: string;
  /** The API server refused the credentials (401) during this command. */
  refusedCredentials?: boolean;
}

function secretRef(context: FailureContext): string {
  return context.name
    ? `Secret ${context.namespace}/${context.name}`
    : `namespace ${context.namespace}`;
}

/**
 * The core's fixed messages that already say what to do, as they are; the others are written for
 * a portal user (sign in, permission policy, impersonation) and the terminal says its own.
 */
const CORE_MESSAGES_KEPT: ReadonlySet<string> = new Set([
  messages.staleRevision,
  messages.immutableData,
  messages.typeChange,
  messages.serviceAccountToken,
  messages.serviceAccountTokenValues,
  messages.alreadyExists,
  messages.alreadyManaged,
  messages.invalidCounter,
  messages.sourceConflict,
  messages.counterBehindHistory,
  messages.archiveChanged,
  messages.snapshotChanged,
  messages.historyUnavailable,
  messages.historyUnreadable,
  messages.versionNotFound,
  messages.deletedNotFound,
  messages.keptVersionChanged,
  messages.notDeleted,
  messages.pendingDeletion,
  messages.rateLimited,
  messages.listTooLarge,
]);

function fromKrypton(err: KryptonError, context: FailureContext): CliError {
  const kept = CORE_MESSAGES_KEPT.has(err.message) ? err.message : undefined;
  // The core's cleanup message, built from counts only; the usual cause in a terminal is RBAC.
  if (err.history)
    return new CliError(
      err.code === 'conflict' ? 'conflict' : 'failed',
      `${err.message} Removing versions needs delete on secrets: check kubectl auth can-i delete secrets -n ${context.namespace}.`,
    );
  switch (err.code) {
    case 'not_found':
      return new CliError(
        'notFound',
        kept ??
          `${secretRef(
            context,
          )} not found, or not managed by Krypton (adopt it with kubectl krypton adopt).`,
      );
    case 'forbidden':
      return new CliError(
        'forbidden',
        kept ??
          `Kubernetes refused a request of this command (403). Check your rights with kubectl auth can-i --list -n ${context.namespace}.`,
      );
    case 'unauthenticated':
      return credentialsRefused();
    case 'conflict':
      return new CliError('conflict', kept ?? err.message);
    case 'too_large':
      return new CliError(
        'refused',
        'The Secret would be larger than 1 MiB, which Kubernetes refuses. Remove or shorten values.',
      );
    case 'invalid_request':
      return new CliError('usage', err.message);
    case 'unprocessable':
      return new CliError('refused', kept ?? err.message);
    case 'rate_limited':
      return new CliError('failed', messages.rateLimited);
    case 'unavailable':
      if (context.refusedCredentials) return credentialsRefused();
      return new CliError(
        'failed',
        kept ??
          'Kubernetes did not answer, or answered with a server error. Check the cluster with kubectl cluster-info and try again.',
      );
    default:
      return new CliError(
        'failed',
        'kubectl krypton could not complete the command. Try again; if it fails again, check the Secret with kubectl get.',
      );
  }
}

function credentialsRefused(): CliError {
  return new CliError(
    'credentials',
    'The API server refused your credentials (401). Log in again, or refresh the token in your kubeconfig.',
  );
}

/**
 * One line and an exit code for whatever a command threw. Nothing of the error's own text is
 * printed unless it is one of Krypton's fixed messages or the CLI's own, so no value, token or
 * upstream payload reaches the terminal through an error.
 */
export function describeFailure(
  err: unknown,
  context: FailureContext,
): CliError {
  if (err instanceof CliError) return err;
  if (err instanceof KryptonError) return fromKrypton(err, context);
  if (err instanceof KubeApiError) {
    if (err.status === 401) return credentialsRefused();
    if (err.status === 403)
      return fromKrypton(
        new KryptonError('forbidden', messages.forbiddenKubernetes),
        context,
      );
    if (err.status === 404)
      return fromKrypton(
        new KryptonError('not_found', messages.notFound),
        context,
      );
    return fromKrypton(
      new KryptonError('unavailable', messages.unavailable),
      context,
    );
  }
  return fromKrypton(new KryptonError('internal', messages.internal), context);
}
