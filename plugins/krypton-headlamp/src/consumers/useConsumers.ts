import { ConsumersResult } from '@krypton/plugin-krypton-common/engine';
import { useCallback, useEffect, useRef, useState } from 'react';
import { HeadlampKrypton } from '../engines';
import { Failure, failureOf } from '../history/failure';
import { ShownSecret } from '../shownSecret';

export type ConsumersState =
  | { status: 'loading' }
  | { status: 'loaded'; result: ConsumersResult }
  | { status: 'failed'; failure: Failure };

/**
 * The dry run of restart-consumers, as the backend's restartService runs it: the live Secret's
 * gate first (metadata only), then common's discovery of the three workload kinds. Only the
 * newest request may set the state, so a slow answer never overwrites a later one.
 */
export function useConsumers(
  krypton: HeadlampKrypton,
  secret: ShownSecret,
): { state: ConsumersState; reload: () => void } {
  const { namespace, name } = secret;
  const [state, setState] = useState<ConsumersState>({ status: 'loading' });
  const [reloads, setReloads] = useState(0);
  const latest = useRef(0);

  useEffect(() => {
    const request = ++latest.current;
    setState({ status: 'loading' });
    (async () => {
      await krypton.live.loadGated(namespace, name, ['read'], krypton.gate, {
        metadataOnly: true,
      });
      return krypton.restart.consumers(namespace, name);
    })().then(
      result => {
        if (request === latest.current) setState({ status: 'loaded', result });
      },
      error => {
        if (request === latest.current)
          setState({ status: 'failed', failure: failureOf(error) });
      },
    );
  }, [krypton, namespace, name, reloads]);

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
