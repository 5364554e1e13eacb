import { ConsumersResult } from '@krypton/core';
import { HeadlampKrypton } from '../engines';
import { ShownSecret } from '../shownSecret';
import { LoadState, useLoad } from '../useLoad';

export type ConsumersState = LoadState<ConsumersResult>;

/**
 * The dry run of restart-consumers, as the backend's restartService runs it: the live Secret's
 * gate first (metadata only), then the core's discovery of the three workload kinds.
 */
export function useConsumers(krypton: HeadlampKrypton, secret: ShownSecret) {
  const { namespace, name } = secret;
  return useLoad(async () => {
    await krypton.live.loadGated(namespace, name, ['read'], krypton.gate, {
      metadataOnly: true,
    });
    return krypton.restart.consumers(namespace, name);
  }, [krypton, namespace, name]);
}
