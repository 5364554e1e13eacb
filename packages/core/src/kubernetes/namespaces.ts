import { KryptonError, messages } from '../errors';
import {
  INVENTORY_BUDGET,
  IncompleteListError,
  InventoryBudget,
  readInventory,
} from './inventory';
import { KubeApiError, KubeGateway, NAMESPACES } from './types';

/**
 * The names of every namespace that the gateway's identity may list, sorted, read as metadata
 * within the inventory budget (never a truncated list). Failures are raw: IncompleteListError, or
 * the KubeApiError of a refused page, for callers that report them in their own terms.
 *
 * @public
 */
export async function namespaceNames(
  gateway: KubeGateway,
  budget: InventoryBudget = INVENTORY_BUDGET,
): Promise<string[]> {
  const out: string[] = [];
  for await (const page of readInventory(
    request => gateway.listMetadata(NAMESPACES, '', request),
    { budget },
  )) {
    for (const ns of page) if (ns.metadata.name) out.push(ns.metadata.name);
  }
  return out.sort();
}

/**
 * The namespace list as an API answers it: only names, and failures as Krypton's fixed errors. A
 * refusal by RBAC is the fixed 403, so that the portal can offer typing a name instead.
 *
 * @public
 */
export async function listNamespaceNames(
  gateway: KubeGateway,
  budget?: InventoryBudget,
): Promise<string[]> {
  try {
    return await namespaceNames(gateway, budget);
  } catch (err) {
    throw namespaceListError(err);
  }
}

function namespaceListError(err: unknown): KryptonError {
  if (err instanceof KryptonError) return err;
  if (err instanceof IncompleteListError) {
    return new KryptonError(
      'unavailable',
      err.cause === 'budget'
        ? messages.namespaceListTooLarge
        : messages.unavailable,
    );
  }
  if (!(err instanceof KubeApiError))
    return new KryptonError('internal', messages.internal);
  if (err.status === 403)
    return new KryptonError('forbidden', messages.forbiddenKubernetes);
  if (err.status === 429)
    return new KryptonError('rate_limited', messages.rateLimited);
  // 401 (Krypton's own credentials refused), 5xx and transport failures are outages; a list of
  // namespaces has no 404, 409 or 422 of its own to report.
  return new KryptonError('unavailable', messages.unavailable);
}
