import { useApi } from '@backstage/core-plugin-api';
import {
  SecretDto,
  SecretSummary,
  SecretWriteAnswer,
} from '@krypton/plugin-krypton-common';
import { useCallback, useEffect, useRef, useState } from 'react';
import { SecretLocation, kryptonApiRef } from '../../api/KryptonApi';
import { carriesValues, summaryOf } from '../writeAnswer';

export interface SecretValuesState {
  secret?: SecretDto;
  /**
   * The metadata of the last write's answer when it came without values: the values shown
   * before are dropped (they are not the live ones any more) and none are fetched on their own.
   */
  withheld?: SecretSummary;
  loading: boolean;
  error?: Error;
  /** Refetches in the background; a failure lands in `error`. */
  reload: () => void;
  /** Refetches, and rejects when that fails (for Reload latest in confirmations). */
  refresh: () => Promise<void>;
  /**
   * Takes what a write (save or restore) answered as the current state: its values, or with a
   * redacted answer no values at all.
   */
  replace: (secret: SecretWriteAnswer) => void;
}

/**
 * The Secret with its values, fetched only while the user may reveal them: each fetch is audited
 * as a value read, and a reader without reveal rights would only collect a 403.
 */
export function useSecretValues(
  location: SecretLocation,
  enabled: boolean,
): SecretValuesState {
  const api = useApi(kryptonApiRef);
  const { cluster, namespace, name } = location;
  const [state, setState] = useState<{
    secret?: SecretDto;
    withheld?: SecretSummary;
    loading: boolean;
    error?: Error;
  }>({ loading: enabled });
  // Only the latest request may settle the state, so a slow earlier answer never wins.
  const latest = useRef(0);

  const refresh = useCallback(async () => {
    const request = ++latest.current;
    setState(s => ({ ...s, loading: true, error: undefined }));
    try {
      const secret = await api.getSecret({ cluster, namespace, name });
      if (request === latest.current) setState({ secret, loading: false });
    } catch (e) {
      // The Secret loaded before stays for an open edit form, whose draft is pinned to it; every
      // other view shows the error instead of it.
      if (request === latest.current)
        setState(s => ({ ...s, loading: false, error: e as Error }));
      throw e;
    }
  }, [api, cluster, namespace, name]);

  const reload = useCallback(() => {
    refresh().catch(() => undefined);
  }, [refresh]);

  useEffect(() => {
    if (enabled) {
      reload();
    } else {
      // Values the user may no longer reveal are dropped, not kept on screen.
      latest.current += 1;
      setState({ loading: false });
    }
  }, [enabled, reload]);

  const replace = useCallback((answer: SecretWriteAnswer) => {
    latest.current += 1;
    setState(
      carriesValues(answer)
        ? { secret: answer, loading: false }
        : { withheld: summaryOf(answer), loading: false },
    );
  }, []);

  return { ...state, reload, refresh, replace };
}
