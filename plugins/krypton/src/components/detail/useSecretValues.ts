import { useApi } from '@backstage/core-plugin-api';
import { SecretDto, SecretSummary, SecretWriteAnswer } from '@krypton/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { SecretLocation, kryptonApiRef } from '../../api/KryptonApi';
import { carriesValues, summaryOf } from '../writeAnswer';

/** Values fetched one key at a time, with the revision they were read at. */
export interface FetchedValues {
  uid: string;
  resourceVersion: string;
  data: Record<string, string>;
  binaryData: Record<string, string>;
}

export interface SecretValuesState {
  /**
   * The Secret with every value, once something needed them all (Edit, a comparison with live,
   * a restore's confirmation) or a write answered them.
   */
  secret?: SecretDto;
  /** Values of single keys that the user revealed, expanded or copied, of one revision. */
  fetched?: FetchedValues;
  /**
   * The metadata of the last write's answer when it came without values: the values shown
   * before are dropped (they are not the live ones any more) and none are fetched on their own.
   */
  withheld?: SecretSummary;
  /** A fetch of every value is under way. */
  loading: boolean;
  error?: Error;
  /**
   * Fetches one key's value for a Reveal, Expand, Raw or Copy (an audited value read that names
   * the key); resolves undefined when it could not be read, with the failure in `error`.
   */
  loadKey: (key: string) => Promise<string | undefined>;
  /** Fetches every value (Edit, Compare, a restore's confirmation); a failure lands in `error`. */
  load: () => void;
  /** Fetches every value, and rejects when that fails (for Reload latest in confirmations). */
  refresh: () => Promise<void>;
  /**
   * Takes what a write (save or restore) answered as the current state: its values, or with a
   * redacted answer no values at all.
   */
  replace: (secret: SecretWriteAnswer) => void;
  /** Forgets every value: the page moved to another revision, or the user may not reveal. */
  drop: () => void;
}

function ownValue(map: Record<string, string>, key: string) {
  return Object.prototype.hasOwnProperty.call(map, key) ? map[key] : undefined;
}

/**
 * The Secret's values, fetched only when a person asks for them: each fetch is an audited value
 * read, and a value that nobody asked for never reaches the page. Nothing is fetched while the
 * user may not reveal the values; what was fetched is dropped then.
 */
export function useSecretValues(
  location: SecretLocation,
  enabled: boolean,
): SecretValuesState {
  const api = useApi(kryptonApiRef);
  const { cluster, namespace, name } = location;
  const [state, setState] = useState<{
    secret?: SecretDto;
    fetched?: FetchedValues;
    withheld?: SecretSummary;
    loading: boolean;
    error?: Error;
  }>({ loading: false });
  // Only the latest request may settle the state, so a slow earlier answer never wins; a drop or
  // a write's answer counts as a request.
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

  const load = useCallback(() => {
    refresh().catch(() => undefined);
  }, [refresh]);

  const loadKey = useCallback(
    async (key: string): Promise<string | undefined> => {
      const request = latest.current;
      let answer: SecretDto;
      try {
        answer = await api.getSecret(
          { cluster, namespace, name },
          { keys: [key] },
        );
      } catch (e) {
        if (request === latest.current)
          setState(s => ({ ...s, error: e as Error }));
        return undefined;
      }
      const value =
        ownValue(answer.data, key) ?? ownValue(answer.binaryData, key);
      // A drop, a write or a full fetch since the request was sent makes this answer old news.
      if (request !== latest.current) return undefined;
      setState(s => {
        const same =
          s.fetched?.uid === answer.uid &&
          s.fetched.resourceVersion === answer.resourceVersion;
        const fetched: FetchedValues = {
          uid: answer.uid,
          resourceVersion: answer.resourceVersion,
          data: { ...(same ? s.fetched!.data : {}), ...answer.data },
          binaryData: {
            ...(same ? s.fetched!.binaryData : {}),
            ...answer.binaryData,
          },
        };
        return { ...s, fetched, error: undefined };
      });
      return value;
    },
    [api, cluster, namespace, name],
  );

  const drop = useCallback(() => {
    latest.current += 1;
    setState({ loading: false });
  }, []);

  useEffect(() => {
    // Values the user may no longer reveal are dropped, not kept on screen.
    if (!enabled) drop();
  }, [enabled, drop]);

  const replace = useCallback((answer: SecretWriteAnswer) => {
    latest.current += 1;
    setState(
      carriesValues(answer)
        ? { secret: answer, loading: false }
        : { withheld: summaryOf(answer), loading: false },
    );
  }, []);

  return { ...state, loadKey, load, refresh, replace, drop };
}
