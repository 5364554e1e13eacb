import { kryptonSecretReadPermission } from '@krypton/plugin-krypton-common';
import {
  KryptonError,
  MANAGED_NAMESPACES_CONCURRENCY,
  MANAGED_NAMESPACES_MAX,
  ManagedNamespace,
  ManagedNamespacesDto,
  inPool,
  listNamespaceNames,
  messages,
} from '@krypton/core';
import { CallerInput } from './requestContext';
import { ServiceDeps } from './deps';
import { SecretsService } from './secretsService';

/**
 * The namespaces a user may pick on the platform page: names only, never anything else of the
 * Namespace objects. Not audited, like every read that returns no values and changes nothing.
 */
export class NamespacesService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly secrets: SecretsService,
  ) {}

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

  /**
   * The namespaces of the picker that hold managed Secrets the user may list, with how many.
   * Each count is the length of the Secret list that the user would see there, made by the same
   * service with every gate (RBAC as the user, the access rules, the policy's conditions), so a
   * namespace whose Secrets the user may not list is never named. The lists share one context:
   * the caller is identified, and each permission asked, once for all of them. Budgeted: the
   * first MANAGED_NAMESPACES_MAX namespaces by name are looked in, and the answer says how many
   * were not.
   */
  async managed(input: CallerInput): Promise<ManagedNamespacesDto> {
    const names = await this.list(input);
    const { inNamespace } = await this.deps.callers.inNamespaces(input);
    const looked = names.slice(0, MANAGED_NAMESPACES_MAX);
    const found = await inPool(
      looked,
      MANAGED_NAMESPACES_CONCURRENCY,
      async (namespace): Promise<ManagedNamespace | undefined> => {
        try {
          const items = await this.secrets.listIn(inNamespace(namespace), {
            managed: true,
          });
          return items.length > 0
            ? { namespace, secrets: items.length }
            : undefined;
        } catch (err) {
          return managedNamespaceOnFailure(namespace, err);
        }
      },
    );
    return {
      items: found.filter((item): item is ManagedNamespace => !!item),
      notLookedIn: names.length - looked.length,
    };
  }
}

/**
 * A namespace whose list failed: one the user may not list, or that is gone, is left out; one
 * over the list budget is named without a count; any other failure is the answer's.
 */
function managedNamespaceOnFailure(
  namespace: string,
  err: unknown,
): ManagedNamespace | undefined {
  if (!(err instanceof KryptonError)) throw err;
  if (err.code === 'forbidden' || err.code === 'not_found') return undefined;
  if (err.message === messages.listTooLarge)
    return { namespace, secrets: null };
  throw err;
}
