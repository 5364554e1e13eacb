import { useApi } from '@backstage/core-plugin-api';
import { ConsumerVersionsResult } from '@krypton/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { SecretLocation, kryptonApiRef } from '../../api/KryptonApi';

/** How often a followed rollout is read again: often enough to watch, rarely enough for the API. */
export const FOLLOW_INTERVAL_MS = 5_000;

/** How long a rollout is followed before the tab says what is stuck and stops asking. */
export const FOLLOW_LIMIT_MS = 10 * 60_000;

/**
 * Following a rollout: `following` while the tab reads the pods again every FOLLOW_INTERVAL_MS
 * (`error` is the last read's failure, if it failed), `done` once every pod holds the live
 * version, `timedOut` at FOLLOW_LIMIT_MS, `stopped` when the user stopped it.
 */
export type FollowState =
  | { phase: 'idle' }
  | { phase: 'following'; error?: Error }
  | { phase: 'done'; version: number | null }
  | { phase: 'timedOut' }
  | { phase: 'stopped' };

export interface ConsumerVersionsState {
  loading: boolean;
  /** The latest read's failure, when no read has succeeded since. */
  error?: Error;
  /** The latest answer: a followed rollout replaces it with every read. */
  value?: ConsumerVersionsResult;
  /** Reads the pods again once. */
  retry: () => void;
  follow: FollowState;
  /** Follows a rollout: reads now, then every FOLLOW_INTERVAL_MS until all pods are current. */
  startFollowing: () => void;
  stopFollowing: () => void;
}

/**
 * Which version of the Secret the consumers' pods hold, read once when the tab opens and again on
 * request; and the following of a rollout. Reads may overlap (a retry while following): only an
 * answer newer than the one shown replaces it. Following ends when the component unmounts or the
 * Secret changes.
 */
export function useConsumerVersions(
  location: SecretLocation,
): ConsumerVersionsState {
  const api = useApi(kryptonApiRef);
  const { cluster, namespace, name } = location;
  const [state, setState] = useState<{
    loading: boolean;
    error?: Error;
    value?: ConsumerVersionsResult;
  }>({ loading: true });
  const [follow, setFollow] = useState<FollowState>({ phase: 'idle' });

  // Every read has a number; an answer older than the one applied is dropped.
  const sent = useRef(0);
  const applied = useRef(0);
  // Each follow has a number: a stopped or replaced follow ignores its reads still in flight.
  const followRun = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const alive = useRef(true);

  const read = useCallback(async (): Promise<ConsumerVersionsResult> => {
    const id = ++sent.current;
    setState(s => ({ ...s, loading: true }));
    try {
      const value = await api.consumerVersions({ cluster, namespace, name });
      if (alive.current && id > applied.current) {
        applied.current = id;
        setState({ loading: false, value });
      }
      return value;
    } catch (e) {
      if (alive.current && id > applied.current) {
        applied.current = id;
        // The last answer stays in view: a failed re-read says so beside it.
        setState(s => ({ loading: false, error: e as Error, value: s.value }));
      }
      throw e;
    }
  }, [api, cluster, namespace, name]);

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
    read().catch(() => undefined);
    return () => {
      alive.current = false;
      cancelFollow();
    };
  }, [read, cancelFollow]);

  const retry = useCallback(() => {
    read().catch(() => undefined);
  }, [read]);

  const startFollowing = useCallback(() => {
    cancelFollow();
    const run = followRun.current;
    const deadline = Date.now() + FOLLOW_LIMIT_MS;
    setFollow({ phase: 'following' });
    const poll = async () => {
      timer.current = undefined;
      let value: ConsumerVersionsResult | undefined;
      let error: Error | undefined;
      try {
        value = await read();
      } catch (e) {
        error = e as Error;
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
      setFollow({ phase: 'following', error });
      // The last read falls on the deadline, so the limit is never overshot by a whole interval.
      timer.current = setTimeout(poll, Math.min(FOLLOW_INTERVAL_MS, left));
    };
    poll();
  }, [cancelFollow, read]);

  const stopFollowing = useCallback(() => {
    cancelFollow();
    setFollow({ phase: 'stopped' });
  }, [cancelFollow]);

  return { ...state, retry, follow, startFollowing, stopFollowing };
}
