import { kryptonSecretReadPermission } from '@krypton/plugin-krypton-common';
import { listNamespaceNames } from '@krypton/core';
import { CallerInput } from './requestContext';
import { ServiceDeps } from './deps';

/**
 * The namespaces a user may pick on the platform page: names only, never anything else of the
 * Namespace objects. Not audited, like every read that returns no values and changes nothing.
 */
export class NamespacesService {
  constructor(private readonly deps: ServiceDeps) {}

  async list(input: CallerInput): Promise<string[]> {
    const { config, policy } = this.deps;
    const ctx = await this.deps.callers.identify(input);
    // Listing is the gate of reading Secrets: a DENY of krypton.secret.read is a 403, and a
    // conditional read lets the user read some Secrets, so the picker stays offered. As on the
    // Secret list, Kubernetes RBAC answers first: the policy is asked beside the list and
    // observed after it.
    const permitted = policy.decide(ctx.credentials, [
      kryptonSecretReadPermission,
    ]);
    permitted.catch(() => undefined);
    // In serviceAccount mode the identity is Krypton's own, which may list every namespace:
    // answering that would show users more than their rights, so the operator's allow-list is
    // the answer, without a Kubernetes call.
    const names =
      config.identity === 'serviceAccount'
        ? [...config.serviceAccountMode.namespaces].sort()
        : await listNamespaceNames(ctx.gateways.user);
    await permitted;
    return names;
  }
}
