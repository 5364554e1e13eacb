/**
 * The cluster as requests, links and addresses name it: not at all for the default cluster, so
 * that their addresses stay short.
 */
export function namedCluster(
  cluster: string,
  defaultCluster: string | undefined,
): string | undefined {
  return cluster && cluster !== defaultCluster ? cluster : undefined;
}

/**
 * The cluster that a page's address names with `?cluster=`, or the default one; and the same
 * cluster as requests and links name it (namedCluster).
 */
export function clusterParam(
  search: URLSearchParams,
  defaultCluster: string | undefined,
): { cluster: string; apiCluster?: string } {
  const cluster = search.get('cluster') || defaultCluster || '';
  return { cluster, apiCluster: namedCluster(cluster, defaultCluster) };
}

/**
 * The clusters a page offers: the configured ones, and the one its address names when that is
 * not among them, so that the picker shows what the page lists.
 */
export function clusterChoices(
  configured: string[],
  cluster: string,
): string[] {
  return configured.includes(cluster) ? configured : [...configured, cluster];
}
