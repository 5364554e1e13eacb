import { VersionSummary } from '@krypton/plugin-krypton-common/engine';
import { useCallback, useEffect, useRef, useState } from 'react';
import { HeadlampKrypton } from '../engines';
import { ShownSecret } from '../shownSecret';
import { Failure, failureOf } from './failure';

export type VersionsState =
  | { status: 'loading' }
  | { status: 'loaded'; items: VersionSummary[] }
  | { status: 'failed'; failure: Failure };

/**
 * The Secret's versions, newest first, read again whenever the live revision changes (Headlamp
 * watches the object, and a restore or an edit through Krypton adds a version). Only the newest
 * request may set the state, so a slow answer never overwrites a later one.
 */
export function useVersions(
  krypton: HeadlampKrypton,
  secret: ShownSecret,
): { state: VersionsState; reload: () => void } {
  const { namespace, name } = secret;
  const revision = secret.native.metadata.resourceVersion;
  const [state, setState] = useState<VersionsState>({ status: 'loading' });
  const [reloads, setReloads] = useState(0);
  const latest = useRef(0);

  useEffect(() => {
    const request = ++latest.current;
    setState({ status: 'loading' });
    krypton.versioned.versions(namespace, name, krypton.gate).then(
      items => {
        if (request === latest.current) setState({ status: 'loaded', items });
      },
      error => {
        if (request === latest.current)
          setState({ status: 'failed', failure: failureOf(error) });
      },
    );
  }, [krypton, namespace, name, revision, reloads]);

  // A change of the view ends the request's claim on the state.
  useEffect(
    () => () => {
      latest.current++;
    },
    [],
  );

  const reload = useCallback(() => setReloads(n => n + 1), []);
  return { state, reload };
}
