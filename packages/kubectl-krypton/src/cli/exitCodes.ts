/**
 * kubectl krypton's exit codes; docs/cli.md lists them for scripts. Restart's own statuses have
 * codes of their own, so that a script tells "nothing to restart" from "half restarted" without
 * reading the output.
 */
export const EXIT = {
  /** Done; for restart, status requested. */
  ok: 0,
  /** Kubernetes unreachable, a server error, refused credentials; for restart, status failed. */
  failed: 1,
  /** A flag, an argument or the kubeconfig is wrong. */
  usage: 2,
  /** The Secret, the version or the deleted history is not there. */
  notFound: 3,
  /** Kubernetes RBAC refused a request. */
  forbidden: 4,
  /** The Secret changed since it was loaded, or history needs review: reload and try again. */
  conflict: 5,
  /**
   * The change is not allowed: immutable, a service-account token, owned, needs approval, too
   * large, invalid.
   */
  refused: 6,
  /** The confirmation was declined, or there was no terminal to ask on and no --yes. */
  cancelled: 7,
  /** restart: some workloads acknowledged, some failed (status partial). */
  restartPartial: 8,
  /** restart: no workload references the Secret (status no_targets). */
  restartNoTargets: 9,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
