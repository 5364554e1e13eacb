import { EntityRefLink } from '@backstage/plugin-catalog-react';
import { tryNormalizeEntityRef } from '@krypton/core';
import { describeOutsideChange } from '@krypton/plugin-krypton-react';
import { useKryptonT } from '../../translation';

export interface ChangeActorProps {
  change: { snapshotBy: string; snapshotVia?: string; finalState?: boolean };
}

/**
 * Who made a kept change (a version's, or a deleted Secret's delete): for one outside Krypton,
 * the writer and tool that the recorder kept ("kubectl edit by admin", "deleted by admin");
 * otherwise a link to their catalog entity, or the text as recorded.
 */
export function ChangeActor({ change }: ChangeActorProps) {
  const t = useKryptonT();
  const outside = describeOutsideChange(change, t);
  if (outside) return <>{outside}</>;
  // Anyone who may edit a snapshot's metadata could have written this: only a well-formed user
  // or group ref becomes a link.
  const ref = tryNormalizeEntityRef(change.snapshotBy);
  return ref ? <EntityRefLink entityRef={ref} /> : <>{change.snapshotBy}</>;
}
