import { KryptonKeys, MANAGED_BY_VALUE } from './annotations';

/**
 * The type of a service-account token Secret: a credential of the cluster itself.
 *
 * @public
 */
export const SERVICE_ACCOUNT_TOKEN_TYPE = 'kubernetes.io/service-account-token';

/**
 * Whether Krypton manages a Secret: its managed-by label says so. The engines serve only such
 * Secrets by default, and a host that edits Secrets itself (Headlamp) hides its raw editor on them.
 *
 * @public
 */
export function isManagedSecret(
  labels: Record<string, string> | undefined,
  keys: KryptonKeys,
): boolean {
  return labels?.[keys.managedBy] === MANAGED_BY_VALUE;
}
