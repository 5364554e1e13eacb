import { RouteFunc, useRouteRef } from '@backstage/core-plugin-api';
import { SecretLocation } from '../api/KryptonApi';
import { secretRouteRef } from '../routes';

/**
 * The detail view's address of one Secret, with the detail page's other query parameters
 * (tab, rollback, entity; see SecretDetailPage).
 */
export type SecretHref = (
  location: SecretLocation,
  query?: Record<string, string>,
) => string;

/**
 * Adds the cluster as a query parameter when the location names one; locations without a cluster
 * mean the default cluster, and their links stay without it.
 */
export function withCluster(
  path: string,
  cluster: string | undefined,
  query: Record<string, string> = {},
): string {
  const params = new URLSearchParams(cluster ? { cluster, ...query } : query);
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/**
 * Links to the detail view, or undefined where the app does not mount Krypton's page (a legacy
 * app may show the entity tab without it): names are then shown without links rather than the
 * tab failing.
 */
export function useSecretHref(): SecretHref | undefined {
  let route: RouteFunc<{ namespace: string; name: string }>;
  try {
    // useRouteRef runs on every render and runs its own hooks before it throws for an unmounted
    // route, so the hook order is stable; the rule only sees the try block as a condition.
    // eslint-disable-next-line react-hooks/rules-of-hooks
    route = useRouteRef(secretRouteRef);
  } catch {
    return undefined;
  }
  return (location, query) =>
    withCluster(
      route({ namespace: location.namespace, name: location.name }),
      location.cluster,
      query,
    );
}
