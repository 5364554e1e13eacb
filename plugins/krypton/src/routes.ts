import { createRouteRef, createSubRouteRef } from '@backstage/core-plugin-api';

export const rootRouteRef = createRouteRef({ id: 'krypton' });

/**
 * One Secret's detail view under the platform page. The cluster is a `?cluster=` query parameter
 * (see secretLink), so that links to the default cluster stay short and the path keeps the
 * namespace/name shape of the catalog annotation.
 */
export const secretRouteRef = createSubRouteRef({
  id: 'krypton-secret',
  parent: rootRouteRef,
  path: '/secret/:namespace/:name',
});

/**
 * The operators' storage rewrite under the platform page, with the cluster as a `?cluster=` query
 * parameter as on the page itself. Only holders of krypton.storage.rewrite can use it.
 */
export const storageRewriteRouteRef = createSubRouteRef({
  id: 'krypton-storage-rewrite',
  parent: rootRouteRef,
  path: '/storage-rewrite',
});
