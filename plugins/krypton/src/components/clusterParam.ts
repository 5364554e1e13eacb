/**
 * The cluster that a page's address names with `?cluster=`, or the default one; and the same
 * cluster as requests and links name it, which is not at all for the default cluster, so that
 * their addresses stay short.
 */
export function clusterParam(
  search: URLSearchParams,
  defaultCluster: string | undefined,
): { cluster: string; apiCluster?: string } {
  const cluster = search.get('cluster') || defaultCluster || '';
  return {
    cluster,
    apiCluster: cluster && cluster !== defaultCluster ? cluster : undefined,
  };
}
