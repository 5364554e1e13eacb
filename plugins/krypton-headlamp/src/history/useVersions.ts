import { VersionSummary } from '@krypton/core';
import { HeadlampKrypton } from '../engines';
import { ShownSecret } from '../shownSecret';
import { LoadState, useLoad } from '../useLoad';

export type VersionsState = LoadState<VersionSummary[]>;

/**
 * The Secret's versions, newest first, read again whenever the live revision changes (Headlamp
 * watches the object, and a restore or an edit through Krypton adds a version).
 */
export function useVersions(krypton: HeadlampKrypton, secret: ShownSecret) {
  const { namespace, name } = secret;
  const revision = secret.native.metadata.resourceVersion;
  return useLoad(
    () => krypton.versioned.versions(namespace, name, krypton.gate),
    [krypton, namespace, name, revision],
  );
}
