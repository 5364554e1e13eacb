import { useApi } from '@backstage/core-plugin-api';
import { KryptonConfigDto } from '@krypton/core';
import useAsync from 'react-use/esm/useAsync';
import { kryptonApiRef } from '../../api/KryptonApi';

/** The deployment's settings from GET /config (clusters, identity mode, restart switch). */
export function useKryptonConfig(): {
  config?: KryptonConfigDto;
  loading: boolean;
  error?: Error;
} {
  const api = useApi(kryptonApiRef);
  const state = useAsync(() => api.getConfig(), [api]);
  return { config: state.value, loading: state.loading, error: state.error };
}
