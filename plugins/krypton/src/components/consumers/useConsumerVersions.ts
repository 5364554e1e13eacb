import { useApi } from '@backstage/core-plugin-api';
import {
  FollowState as SharedFollowState,
  FollowedVersions,
  useFollowedVersions,
} from '@krypton/plugin-krypton-react';
import { useCallback } from 'react';
import { SecretLocation, kryptonApiRef } from '../../api/KryptonApi';

export {
  FOLLOW_INTERVAL_MS,
  FOLLOW_LIMIT_MS,
} from '@krypton/plugin-krypton-react';

/** Following a rollout, with the portal's failures: the API's errors. */
export type FollowState = SharedFollowState<Error>;
export type ConsumerVersionsState = FollowedVersions<Error>;

const toError = (e: unknown): Error =>
  e instanceof Error ? e : new Error(String(e));

/**
 * Which version of the Secret the consumers' pods hold (`GET .../consumers/pods`), and the
 * following of a rollout, as krypton-react's useFollowedVersions does it for every host.
 */
export function useConsumerVersions(
  location: SecretLocation,
): ConsumerVersionsState {
  const api = useApi(kryptonApiRef);
  const { cluster, namespace, name } = location;
  const read = useCallback(
    () => api.consumerVersions({ cluster, namespace, name }),
    [api, cluster, namespace, name],
  );
  return useFollowedVersions(read, toError);
}
