import type { OwnerSyncResult } from '@krypton/core';
import { useCallback, useRef, useState } from 'react';
import type { OwnerT } from './describe';
import { describeOwnerSyncResult } from './sync';

/**
 * Where a sync request stands, with the words to show once it ended.
 *
 * @public
 */
export type OwnerSyncRequestState =
  | { status: 'idle' }
  | { status: 'busy' }
  | { status: 'done'; text: string }
  | { status: 'failed'; text: string };

/**
 * One sync request at a time, in the words of both hosts: `send` asks the owner (the portal
 * through the backend, Headlamp through the core's engine), and `messageOf` reads the host's
 * error. A second click while a request runs sends nothing.
 *
 * @public
 */
export function useOwnerSyncRequest(
  send: () => Promise<OwnerSyncResult>,
  t: OwnerT,
  messageOf: (error: unknown) => string,
): { state: OwnerSyncRequestState; sync: () => Promise<void> } {
  const [state, setState] = useState<OwnerSyncRequestState>({
    status: 'idle',
  });
  // Before the button disables, a second click must not send a second patch.
  const inFlight = useRef(false);
  const sync = useCallback(async () => {
    if (inFlight.current) return;
    inFlight.current = true;
    setState({ status: 'busy' });
    try {
      const result = await send();
      setState({ status: 'done', text: describeOwnerSyncResult(result, t) });
    } catch (error) {
      setState({
        status: 'failed',
        text: t('owner.sync.failed', { message: messageOf(error) }),
      });
    } finally {
      inFlight.current = false;
    }
  }, [send, t, messageOf]);
  return { state, sync };
}
