import { VersionDto } from '@krypton/core';
import { useCallback, useEffect, useRef, useState } from 'react';

export interface VersionValuesState {
  version?: VersionDto;
  loading: boolean;
  error?: Error;
  retry: () => void;
}

/**
 * One version's values through the history's shared loader, fetched only while enabled: each read
 * is audited as a value read, so nothing is fetched before the user asks for it.
 */
export function useVersionValues(
  loadVersion: (version: number) => Promise<VersionDto>,
  version: number | undefined,
  enabled: boolean,
): VersionValuesState {
  const [state, setState] = useState<{
    version?: VersionDto;
    loading: boolean;
    error?: Error;
  }>({ loading: false });
  const latest = useRef(0);

  const load = useCallback(async () => {
    if (version === undefined) return;
    const request = ++latest.current;
    setState({ loading: true });
    try {
      const dto = await loadVersion(version);
      if (request === latest.current)
        setState({ version: dto, loading: false });
    } catch (e) {
      if (request === latest.current) {
        setState({
          loading: false,
          error: e instanceof Error ? e : new Error(String(e)),
        });
      }
    }
  }, [loadVersion, version]);

  useEffect(() => {
    if (enabled) {
      load();
    } else {
      latest.current += 1;
      setState({ loading: false });
    }
  }, [enabled, load]);

  return { ...state, retry: load };
}
