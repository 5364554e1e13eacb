import { useApi } from '@backstage/core-plugin-api';
import { VersionDto, VersionSummary } from '@krypton/core';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { SecretLocation, kryptonApiRef } from '../../api/KryptonApi';
import { failureOf } from '../../api/failure';

export type HistoryState =
  | { status: 'loading' }
  | { status: 'loaded'; items: VersionSummary[] }
  /** denied: a 403, which must never read as an empty history. */
  | { status: 'failed'; error: Error; denied: boolean };

export interface VersionHistory {
  state: HistoryState;
  /** Resolves with the failure of this fetch, or undefined when it succeeded. Never rejects. */
  refetch: () => Promise<Error | undefined>;
  /**
   * One version with its values: a value read, so only on demand. Answers are shared until the
   * next list load, so a row and the restore dialog of one version read it once.
   */
  loadVersion: (version: number) => Promise<VersionDto>;
}

/**
 * The backend's fixed message, or undefined when no answer arrived: a network failure's own
 * message says nothing useful to the user, who is shown a fixed text instead.
 */
export const serverMessage = (e: unknown): string | undefined => {
  const failure = failureOf(e);
  return failure.kind === 'network' ? undefined : failure.message;
};

/** The live Secret's retained versions, newest first, as the versions route lists them. */
export function useVersionHistory(location: SecretLocation): VersionHistory {
  const api = useApi(kryptonApiRef);
  const { cluster, namespace, name } = location;
  const [state, setState] = useState<HistoryState>({ status: 'loading' });
  const [generation, setGeneration] = useState(0);
  // Only the latest request may settle the state, so a slow earlier answer never wins.
  const latest = useRef(0);

  const refetch = useCallback(async (): Promise<Error | undefined> => {
    const request = ++latest.current;
    // A refresh never keeps the earlier list on screen: its restore choices may no longer exist.
    setState({ status: 'loading' });
    try {
      const list = await api.listVersions({ cluster, namespace, name });
      if (request === latest.current) {
        setState({ status: 'loaded', items: list.items });
        setGeneration(g => g + 1);
      }
      return undefined;
    } catch (e) {
      const error = e instanceof Error ? e : new Error(String(e));
      if (request === latest.current) {
        setState({
          status: 'failed',
          error,
          denied: failureOf(e).kind === 'forbidden',
        });
      }
      return error;
    }
  }, [api, cluster, namespace, name]);

  useEffect(() => {
    refetch();
  }, [refetch]);

  const loadVersion = useMemo(() => {
    // generation is a dependency on purpose: each list load starts with an empty cache.
    const cache = new Map<number, Promise<VersionDto>>();
    const load = (version: number) => {
      let pending = cache.get(version);
      if (!pending) {
        pending = api.getVersion({ cluster, namespace, name }, version);
        cache.set(version, pending);
        // A failed read is not remembered, so Retry asks again.
        pending.catch(() => cache.delete(version));
      }
      return pending;
    };
    return load;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, cluster, namespace, name, generation]);

  return { state, refetch, loadVersion };
}
