import { useApi } from '@backstage/core-plugin-api';
import { SecretSummary } from '@krypton/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { SecretLocation, kryptonApiRef } from '../../api/KryptonApi';

export interface SecretSummaryState {
  summary?: SecretSummary;
  error?: Error;
  /** Refetches; rejects when that fails, keeping the summary shown so far. */
  refresh: () => Promise<void>;
  /** Takes the metadata of a Secret the backend returned (after a save or restore). */
  replace: (summary: SecretSummary) => void;
}

/** The live Secret's metadata (the summary route: no values, so no reveal rights needed). */
export function useSecretSummary(location: SecretLocation): SecretSummaryState {
  const api = useApi(kryptonApiRef);
  const { cluster, namespace, name } = location;
  const [state, setState] = useState<{
    summary?: SecretSummary;
    error?: Error;
  }>({});
  // Only the latest request may settle the state, so a slow earlier answer never wins.
  const latest = useRef(0);

  const refresh = useCallback(async () => {
    const request = ++latest.current;
    try {
      const summary = await api.getSecretSummary({ cluster, namespace, name });
      if (request === latest.current) setState({ summary });
    } catch (e) {
      // A failed refresh after a success keeps the loaded metadata; the caller shows the error.
      if (request === latest.current)
        setState(s => (s.summary ? s : { error: e as Error }));
      throw e;
    }
  }, [api, cluster, namespace, name]);

  useEffect(() => {
    refresh().catch(() => undefined);
  }, [refresh]);

  // Write answers and value reads carry neither the policy's answers, the approval policy nor the
  // sizes: the last summary's answers and approval stand until the next summary, as the buttons'
  // guide (the backend judges every action again), and its sizes while the revision is the same.
  const replace = useCallback((summary: SecretSummary) => {
    latest.current += 1;
    setState(s => {
      const before = s.summary;
      const next = { ...summary };
      if (!next.policy && before?.policy) next.policy = before.policy;
      if (!next.approval && before?.approval && before.uid === next.uid)
        next.approval = before.approval;
      if (
        !next.keySizes &&
        before?.keySizes &&
        before.uid === next.uid &&
        before.resourceVersion === next.resourceVersion
      )
        next.keySizes = before.keySizes;
      return { summary: next };
    });
  }, []);

  return { ...state, refresh, replace };
}
