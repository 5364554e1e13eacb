import { EntityRefLink } from '@backstage/plugin-catalog-react';
import { tryNormalizeEntityRef } from '@krypton/core';
import { Fragment } from 'react';

/**
 * Entity refs (access rules, owners) as catalog links, comma-separated. An entry that is not a
 * user or group ref (a hand-edited annotation) is shown as written: it matches nobody, and a link
 * would point nowhere.
 */
export function EntityRefList({ refs }: { refs: readonly string[] }) {
  if (refs.length === 0) return <>—</>;
  return (
    <>
      {refs.map((ref, i) => (
        <Fragment key={`${i}:${ref}`}>
          {i > 0 && ', '}
          {tryNormalizeEntityRef(ref) ? <EntityRefLink entityRef={ref} /> : ref}
        </Fragment>
      ))}
    </>
  );
}
