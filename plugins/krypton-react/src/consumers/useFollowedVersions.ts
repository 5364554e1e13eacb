import { ConsumerVersionsResult } from '@krypton/core';
import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * How often a followed rollout is read again: often enough to watch, rarely enough for the API
 * server.
 *
 * @public
 */
export const FOLLOW_INTERVAL_MS = 5_000;

/**
 * How long a rollout is followed before the view says what is stuck and stops asking.
 *
 * @public
 */
export const FOLLOW_LIMIT_MS = 10 * 60_000;

/**
 * Following a rollout: `following` while the view reads the pods again every FOLLOW_INTERVAL_MS
 * (`failure` is the last read's, if it failed), `done` once every pod holds the live version,
 * `timedOut` at FOLLOW_LIMIT_MS, `stopped` when the user stopped it. `F` is the host's failure.
 *
 * @public
 */
export type FollowState<F> =
  | { phase: 'idle' }
  | { phase: 'following'; failure?: F }
  | { phase: 'done'; version: number | null }
  | { phase: 'timedOut' }
  | { phase: 'stopped' };

/** @public */
export interface FollowedVersions<F> {
  loading: boolean;
  /** The latest read's failure, when no read has succeeded since. */
  failure?: F;
  /** The latest answer: a followed rollout replaces it with every read. */
  value?: ConsumerVersionsResult;
  /** Reads the pods again once. */
  retry: () => void;
  follow: FollowState<F>;
  /** Follows a rollout: reads now, then every FOLLOW_INTERVAL_MS until all pods are current. */
  startFollowing: () => void;
  stopFollowing: () => void;
}

/**
 * Which version of a Secret its consumers' pods hold, read once when the view opens and again on
 * request, and the following of a rollout after a restart; for every host, each of which gives
 * its own `read` (the portal's API, Headlamp's engine) and how it names a failure. Reads may
 * overlap (a retry while following): only an answer newer than the one shown replaces it. A new
 * `read` (another Secret) starts afresh; following ends then, and when the view unmounts.
 *
 * @public
 */
export function useFollowedVersions<F>(
  read: () => Promise<ConsumerVersionsResult>,
  failureOf: (error: unknown) => F,
): FollowedVersions<F> {
  const [state, setState] = useState<{
    loading: boolean;
    failure?: F;
    value?: ConsumerVersionsResult;
  }>({ loading: true });
  const [follow, setFollow] = useState<FollowState<F>>({ phase: 'idle' });
  const toFailure = useRef(failureOf);
  toFailure.current = failureOf;

  // Every read has a number; an answer older than the one applied is dropped.
  const sent = useRef(0);
  const applied = useRef(0);
  // Each follow has a number: a stopped or replaced follow ignores its reads still in flight.
  const followRun = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const alive = useRef(true);

  const readOnce = useCallback(async (): Promise<ConsumerVersionsResult> => {
    const id = ++sent.current;
    setState(s => ({ ...s, loading: true }));
    try {
      const value = await read();
      if (alive.current && id > applied.current) {
        applied.current = id;
        setState({ loading: false, value });
      }
      return value;
    } catch (error) {
      if (alive.current && id > applied.current) {
        applied.current = id;
        // The last answer stays in view: a failed re-read says so beside it.
        setState(s => ({
          loading: false,
          failure: toFailure.current(error),
          value: s.value,
        }));
      }
      throw error;
    }
  }, [read]);

  const cancelFollow = useCallback(() => {
    followRun.current += 1;
    if (timer.current !== undefined) clearTimeout(timer.current);
    timer.current = undefined;
  }, []);

  // A new Secret starts afresh: its first read, and no follow of the last one's rollout.
  useEffect(() => {
    alive.current = true;
    cancelFollow();
    setFollow({ phase: 'idle' });
    setState({ loading: true });
    readOnce().catch(() => undefined);
    return () => {
      alive.current = false;
      cancelFollow();
    };
  }, [readOnce, cancelFollow]);

  const retry = useCallback(() => {
    readOnce().catch(() => undefined);
  }, [readOnce]);

  const startFollowing = useCallback(() => {
    cancelFollow();
    const run = followRun.current;
    const deadline = Date.now() + FOLLOW_LIMIT_MS;
    setFollow({ phase: 'following' });
    const poll = async () => {
      timer.current = undefined;
      let value: ConsumerVersionsResult | undefined;
      let failure: F | undefined;
      try {
        value = await readOnce();
      } catch (error) {
        failure = toFailure.current(error);
      }
      if (!alive.current || followRun.current !== run) return;
      if (value?.summary.allCurrent) {
        setFollow({ phase: 'done', version: value.live.version });
        return;
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        setFollow({ phase: 'timedOut' });
        return;
      }
      setFollow({ phase: 'following', failure });
      // The last read falls on the deadline, so the limit is never overshot by a whole interval.
      timer.current = setTimeout(poll, Math.min(FOLLOW_INTERVAL_MS, left));
    };
    poll();
  }, [cancelFollow, readOnce]);

  const stopFollowing = useCallback(() => {
    cancelFollow();
    setFollow({ phase: 'stopped' });
  }, [cancelFollow]);

  return { ...state, retry, follow, startFollowing, stopFollowing };
}
