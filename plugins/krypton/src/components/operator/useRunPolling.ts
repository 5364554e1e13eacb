import { useApi } from '@backstage/core-plugin-api';
import { StorageRewriteRunStatus } from '@krypton/core';
import { useEffect, useRef, useState } from 'react';
import { kryptonApiRef } from '../../api/KryptonApi';
import { Failure, failureOf } from '../../api/failure';

/** How often the progress of a running run is read. */
export const RUN_POLL_MS = 2_000;
/** The longest wait between reads after failed ones; each failure doubles the wait up to it. */
export const RUN_POLL_MAX_MS = 30_000;

/** Why the progress could not be read, and when it is read again (never, for a 404). */
export interface PollFailure {
  failure: Failure;
  retryInMs?: number;
}

/**
 * Reads a running run every {@link RUN_POLL_MS} from whichever backend replica answers, and hands
 * each answer to `onUpdate` until the run has ended. One read at a time: the next is scheduled
 * when the last has answered, so a slow backend is never asked twice at once. Stops on unmount,
 * when the run ends, and when another run is shown.
 */
export function useRunPolling(props: {
  cluster?: string;
  run?: StorageRewriteRunStatus;
  onUpdate: (run: StorageRewriteRunStatus) => void;
}): PollFailure | undefined {
  const api = useApi(kryptonApiRef);
  const [failed, setFailed] = useState<PollFailure>();
  const onUpdate = useRef(props.onUpdate);
  onUpdate.current = props.onUpdate;

  const { cluster } = props;
  const id = props.run?.id;
  const running = props.run?.state === 'running';
  useEffect(() => {
    if (id === undefined || !running) return undefined;
    let stopped = false;
    let wait = RUN_POLL_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const next = await api.storageRewriteRun({ cluster, id });
        if (stopped) return;
        wait = RUN_POLL_MS;
        setFailed(undefined);
        onUpdate.current(next);
        // An ended run changes `running`, and this effect's clean-up stops the loop.
        if (next.state !== 'running') return;
      } catch (e) {
        if (stopped) return;
        const failure = failureOf(e);
        // The run is gone or no longer visible to this user: asking again cannot bring it back.
        if (failure.kind === 'notFound') {
          setFailed({ failure });
          return;
        }
        wait = Math.min(wait * 2, RUN_POLL_MAX_MS);
        setFailed({ failure, retryInMs: wait });
      }
      timer = setTimeout(poll, wait);
    };
    timer = setTimeout(poll, wait);
    return () => {
      stopped = true;
      clearTimeout(timer);
      setFailed(undefined);
    };
  }, [api, cluster, id, running]);
  return failed;
}
