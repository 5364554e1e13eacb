import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The time one review spends waiting for Kubernetes, summed over its requests: the review's log
 * line carries it beside its total, so that the recorder's own share is visible even while
 * reviews overlap.
 */
const clock = new AsyncLocalStorage<{ kubeMs: number }>();

/** Runs one review with a clock of its own; answers what it returned and its Kubernetes time. */
export async function timingKube<T>(
  review: () => Promise<T>,
): Promise<{ value: T; kubeMs: number }> {
  const store = { kubeMs: 0 };
  const value = await clock.run(store, review);
  return { value, kubeMs: store.kubeMs };
}

/** Adds one Kubernetes request's time to the current review's clock, if any. */
export function addKubeTime(ms: number): void {
  const store = clock.getStore();
  if (store) store.kubeMs += ms;
}
