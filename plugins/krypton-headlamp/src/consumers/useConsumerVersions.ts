import {
  FollowState as SharedFollowState,
  FollowedVersions,
  useFollowedVersions,
} from '@krypton/plugin-krypton-react';
import { useCallback } from 'react';
import { HeadlampKrypton } from '../engines';
import { Failure, failureOf } from '../history/failure';
import { ShownSecret } from '../shownSecret';

export {
  FOLLOW_INTERVAL_MS,
  FOLLOW_LIMIT_MS,
} from '@krypton/plugin-krypton-react';

/** Following a rollout, with Headlamp's failures. */
export type FollowState = SharedFollowState<Failure>;
export type ConsumerVersionsState = FollowedVersions<Failure>;

/**
 * Which version of the Secret the consumers' pods hold, from the core's ConsumerVersions engine
 * as the backend's route runs it (the live Secret's gate, metadata only, then the dry run and
 * each workload's pods, every list the user's own), and the following of a rollout, as
 * krypton-react's useFollowedVersions does it for every host.
 */
export function useConsumerVersions(
  krypton: HeadlampKrypton,
  secret: ShownSecret,
): ConsumerVersionsState {
  const { namespace, name } = secret;
  const read = useCallback(
    () => krypton.consumerVersions.read(namespace, name, krypton.gate),
    [krypton, namespace, name],
  );
  return useFollowedVersions(read, failureOf);
}
