import { useSignal } from '@backstage/plugin-signals-react';
import { ChangeRequest } from '@krypton/core';
import {
  CHANGE_REQUEST_SIGNAL_CHANNEL,
  ChangeRequestSignal,
} from '@krypton/plugin-krypton-common';
import { useCallback, useEffect, useRef, useState } from 'react';

export interface ChangeRequestListState {
  items?: ChangeRequest[];
  error?: Error;
  loading: boolean;
  refresh: () => void;
}

/**
 * A list of change requests: loaded at once, again on `refresh`, and again whenever Krypton
 * signals that a request the list may hold was made or moved (the signal goes to the request's
 * requester and approvers; anyone else refreshes by hand). `concerns` says which signals matter.
 */
export function useChangeRequestList(
  load: () => Promise<{ items: ChangeRequest[] }>,
  concerns: (signal: ChangeRequestSignal) => boolean,
): ChangeRequestListState {
  const [state, setState] = useState<{
    items?: ChangeRequest[];
    error?: Error;
    loading: boolean;
  }>({ loading: true });
  // Only the latest request may settle the state, so a slow earlier answer never wins.
  const latest = useRef(0);

  const refresh = useCallback(() => {
    const request = ++latest.current;
    setState(s => ({ ...s, loading: true }));
    load().then(
      list => {
        if (request === latest.current)
          setState({ items: list.items, loading: false });
      },
      (error: Error) => {
        // A failed refresh keeps what was loaded; the list shows the error beside it.
        if (request === latest.current)
          setState(s => ({ items: s.items, error, loading: false }));
      },
    );
  }, [load]);

  useEffect(refresh, [refresh]);

  const { lastSignal } = useSignal<ChangeRequestSignal>(
    CHANGE_REQUEST_SIGNAL_CHANNEL,
  );
  const matters = useRef(concerns);
  matters.current = concerns;
  useEffect(() => {
    if (lastSignal && matters.current(lastSignal)) refresh();
  }, [lastSignal, refresh]);

  return { ...state, refresh };
}
