import { DependencyList, useCallback, useEffect, useState } from 'react';
import { Failure, failureOf } from './history/failure';

export type LoadState<T> =
  | { status: 'loading' }
  | { status: 'loaded'; value: T }
  | { status: 'failed'; failure: Failure };

/**
 * Runs `load` whenever `deps` change or `reload` is called. Only the newest load may set the
 * state: an answer that arrives after a later load started, or after the view went away, is
 * dropped, so a slow answer never overwrites a newer one.
 */
export function useLoad<T>(
  load: () => Promise<T>,
  deps: DependencyList,
): { state: LoadState<T>; reload: () => void } {
  const [state, setState] = useState<LoadState<T>>({ status: 'loading' });
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    let current = true;
    setState({ status: 'loading' });
    load().then(
      value => {
        if (current) setState({ status: 'loaded', value });
      },
      error => {
        if (current) setState({ status: 'failed', failure: failureOf(error) });
      },
    );
    return () => {
      current = false;
    };
    // `load` is a new closure on every render; what it reads is in the caller's `deps`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, reloads]);

  const reload = useCallback(() => setReloads(n => n + 1), []);
  return { state, reload };
}
