/**
 * Error codes of Krypton's API. Each maps to one HTTP status; messages are fixed texts that never
 * carry Secret values or raw upstream errors.
 *
 * @public
 */
export type KryptonErrorCode =
  | 'invalid_request'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'too_large'
  | 'unsupported_media_type'
  | 'unprocessable'
  | 'rate_limited'
  | 'unavailable'
  | 'internal';

const STATUS: Record<KryptonErrorCode, number> = {
  invalid_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  unavailable: 503,
  internal: 500,
};

/**
 * The error envelope of every non-2xx answer: `error` holds the fixed message. A few failures add
 * counts that the spec asks for (history cleanup), never text from upstream.
 *
 * @public
 */
export interface ErrorEnvelope {
  error: string;
  /** Snapshots confirmed absent, still present (finalizers) and failed, when cleanup stopped. */
  history?: HistoryCleanupCounts;
}

/**
 * What a history cleanup (retention or delete) achieved before it stopped.
 *
 * @public
 */
export interface HistoryCleanupCounts {
  confirmedAbsent: number;
  pending: number;
  failed: number;
}

/** @public */
export class KryptonError extends Error {
  readonly status: number;

  constructor(
    readonly code: KryptonErrorCode,
    message: string,
    readonly history?: HistoryCleanupCounts,
  ) {
    super(message);
    this.name = 'KryptonError';
    this.status = STATUS[code];
  }

  toEnvelope(): ErrorEnvelope {
    return this.history
      ? { error: this.message, history: this.history }
      : { error: this.message };
  }
}

/**
 * Fixed messages shared by the backend and the frontend.
 *
 * @public
 */
export const messages = {
  tooLarge: 'Secret is too large',
  notFound: 'Secret not found',
  staleRevision:
    'The Secret has changed since it was loaded. Reload it and re-apply your changes.',
  forbiddenKubernetes:
    'Access denied. Check Kubernetes permissions for the effective identity and, when enabled, ServiceAccount impersonation permissions.',
  forbiddenAcl: "You are not allowed to do this by the Secret's access rules.",
  forbiddenPermission:
    'You are not allowed to do this by the Backstage permission policy.',
  unauthenticated: 'Sign in to use Krypton.',
  unavailable: 'Kubernetes is unavailable. Try again later.',
  rateLimited: 'Kubernetes is rate-limiting requests. Try again later.',
  internal: 'Krypton could not complete the request.',
  immutableData: 'The Secret is immutable: its data cannot be changed.',
  typeChange: 'The type of a Secret cannot be changed.',
  serviceAccountToken:
    'Service-account token Secrets cannot be created, edited or restored through Krypton. Use the Kubernetes TokenRequest API or the controller that manages them.',
  alreadyExists: 'A Secret with this name already exists.',
  notManaged: 'The Secret is not managed by Krypton. Adopt it first.',
  alreadyManaged: 'The Secret is already managed by Krypton.',
  invalidCounter:
    'The Secret has an invalid Krypton version counter. An operator must review and repair it.',
  serviceAccountTokenValues:
    'The values of service-account token Secrets are never revealed through Krypton.',
  listTooLarge:
    'The namespace holds more Secrets than Krypton lists at once (2,000 Secrets or 32 MiB). Use kubectl with a label selector to inspect it.',
  namespaceListTooLarge:
    'The cluster holds more namespaces than Krypton lists at once (2,000 namespaces or 32 MiB). Type a namespace name.',
  sourceConflict:
    "A history snapshot already holds this version with other content. Reload the Secret; an operator must review the snapshot before it can be changed (see Krypton's history runbook).",
  counterBehindHistory:
    "The Secret's version counter is behind its retained history. An operator must review it before the Secret can be changed (see Krypton's history runbook).",
  archiveChanged:
    'The history snapshot of this version changed or disappeared while it was saved. Reload the Secret and try again.',
  snapshotChanged:
    "A history snapshot changed while it was being removed, so nothing more was removed. Reload the Secret and try again; an operator should review the snapshot if it happens again (see Krypton's history runbook).",
  historyUnavailable:
    'Krypton could not save the history snapshot, so the Secret was not changed. Try again later.',
  historyUnreadable:
    "Krypton could not read the Secret's history. Try again later.",
  versionNotFound: "That version is not in this Secret's history.",
  deletedNotFound:
    'Krypton keeps no history of a deleted Secret with this name and UID.',
  keptVersionChanged:
    'The kept version changed while Krypton read it. Reload the deleted Secrets and try again.',
  notDeleted:
    'This Secret is not deleted: it still exists. Restore one of its versions from its history instead.',
  pendingDeletion:
    'The Secret is being deleted (deletion is pending), so it cannot be restored. Reload it.',
  restartDisabled: 'Restarting apps is disabled on this deployment',
  reservedIdentity:
    'Your Backstage identity maps to a reserved or malformed Kubernetes name (system:..., blanks at either end, or characters other than printable ASCII). An operator must change the impersonation templates.',
  rewriteScope:
    'You may not list the Secrets of this namespace, so Krypton does not rewrite it for you.',
  namespaceNotAllowed:
    'Krypton does not create or adopt Secrets in this namespace on this deployment (serviceAccount mode allows only the namespaces its operator listed).',
  typeNotAllowed:
    'Krypton does not create or adopt Secrets of this type on this deployment (serviceAccount mode allows only the types its operator listed).',
  // The bound is MAX_REQUESTED_KEYS (validation.ts).
  invalidKeyList:
    'Query parameter "keys" must be a comma-separated list of at most 1,000 different Secret keys.',
} as const;

/**
 * What a failed answer means to a client, so that no client compares message texts of its own.
 *
 * The spec fixes the body as `{ "error": "<fixed message>" }`, so the envelope carries no code
 * beyond its status. The one distinction the status cannot make is a stale revision against the
 * other 409s (a snapshot or counter that an operator must review): only the former is healed by
 * reloading and re-applying a draft. The fixed text is the spec's contract, so it is compared
 * here, once.
 *
 * @public
 */
export type FailureKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'notFound'
  | 'staleRevision'
  | 'conflict'
  | 'tooLarge'
  | 'unprocessable'
  | 'rateLimited'
  | 'unavailable'
  | 'server'
  | 'other';

/** @public */
export function classifyFailure(status: number, message: string): FailureKind {
  switch (status) {
    case 400:
      return 'invalid';
    case 401:
      return 'unauthenticated';
    case 403:
      return 'forbidden';
    case 404:
      return 'notFound';
    case 409:
      return message === messages.staleRevision ? 'staleRevision' : 'conflict';
    case 413:
      return 'tooLarge';
    case 422:
      return 'unprocessable';
    case 429:
      return 'rateLimited';
    case 503:
      return 'unavailable';
    default:
      return status >= 500 ? 'server' : 'other';
  }
}
