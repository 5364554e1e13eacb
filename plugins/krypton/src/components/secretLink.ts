import { RouteFunc, useRouteRef } from '@backstage/core-plugin-api';
import { SecretLocation } from '../api/KryptonApi';
import { secretRouteRef } from '../routes';

/** The tabs of the detail view, in order; each is a path segment after the Secret's name. */
export const SECRET_TABS = [
  { id: 'values' },
  { id: 'access' },
  { id: 'history' },
  { id: 'consumers' },
  { id: 'changes' },
] as const;
export type SecretTabId = (typeof SECRET_TABS)[number]['id'];

/** The tab an address without a tab segment opens (links made before tabs were routed). */
export const DEFAULT_SECRET_TAB: SecretTabId = 'values';

export function isSecretTabId(
  value: string | null | undefined,
): value is SecretTabId {
  return SECRET_TABS.some(t => t.id === value);
}

/**
 * The detail view's address of one Secret, optionally at one of its tabs, with the detail page's
 * query parameters (rollback, entity; see SecretDetailPage).
 */
export type SecretHref = (
  location: SecretLocation,
  query?: Record<string, string>,
  tab?: SecretTabId,
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
  return (location, query, tab) => {
    const path = route({ namespace: location.namespace, name: location.name });
    return withCluster(tab ? `${path}/${tab}` : path, location.cluster, query);
  };
}
