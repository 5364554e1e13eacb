import { OUTSIDE_ACTOR_PREFIX } from './secretRecorder';

/**
 * A version's change made outside Krypton, as the recorder kept it: who, with what, and how.
 *
 * @public
 */
export interface OutsideChange {
  /** The API server's name for the writer (`admin`, `system:serviceaccount:ns:name`). */
  user: string;
  /**
   * The tool, from the write's field manager: a kubectl command (`kubectl edit`) for kubectl's
   * own managers, else the manager as named (`helm`); absent when the write named none.
   */
  tool?: string;
  /** The writer is a ServiceAccount: a controller or a pipeline rather than a person. */
  serviceAccount: boolean;
  /** The Secret was deleted in this state rather than replaced. */
  deleted: boolean;
}

// kubectl names its field managers after its commands; `kubectl` alone is server-side apply's.
const KUBECTL_MANAGERS: Record<string, string> = {
  kubectl: 'kubectl apply --server-side',
  'kubectl-client-side-apply': 'kubectl apply',
  'kubectl-edit': 'kubectl edit',
  'kubectl-patch': 'kubectl patch',
  'kubectl-replace': 'kubectl replace',
  'kubectl-set': 'kubectl set',
  'kubectl-create': 'kubectl create',
};

/**
 * Reads a version's snapshot-by, snapshot-via and final-state as a change outside Krypton;
 * undefined for a change through Krypton (an entity ref, or a Headlamp user).
 *
 * @public
 */
export function outsideChange(version: {
  snapshotBy: string;
  snapshotVia?: string;
  finalState?: boolean;
}): OutsideChange | undefined {
  if (!version.snapshotBy.startsWith(OUTSIDE_ACTOR_PREFIX)) return undefined;
  const user = version.snapshotBy.slice(OUTSIDE_ACTOR_PREFIX.length);
  const change: OutsideChange = {
    user,
    serviceAccount: user.startsWith('system:serviceaccount:'),
    deleted: version.finalState === true,
  };
  const via = version.snapshotVia;
  if (via) {
    change.tool = Object.prototype.hasOwnProperty.call(KUBECTL_MANAGERS, via)
      ? KUBECTL_MANAGERS[via]
      : via;
  }
  return change;
}
