/**
 * Runs `run` over the items with at most `limit` calls in flight, keeping the results in order.
 * Callers catch their own failures: one item never stops the others. Isomorphic, like the rest of
 * the core: the engines bound their Kubernetes calls with it, the frontend its API requests.
 *
 * @public
 */
export async function inPool<T, R>(
  items: readonly T[],
  limit: number,
  run: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await run(items[i]);
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, worker),
  );
  return results;
}
