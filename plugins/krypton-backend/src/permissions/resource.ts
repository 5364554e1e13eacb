import { KRYPTON_SECRET_RESOURCE_TYPE } from '@krypton/plugin-krypton-common';
import { AccessRules, LiveSecrets, NativeSecret } from '@krypton/core';
import { createPermissionResourceRef } from '@backstage/plugin-permission-node';

/**
 * What a permission policy's conditions see of one Secret: where it lives, its labels, whether
 * Krypton manages it, and its access rules. Never its values.
 *
 * @public
 */
export interface KryptonSecretResource {
  cluster: string;
  namespace: string;
  name: string;
  labels: Record<string, string>;
  managed: boolean;
  access: AccessRules;
}

/**
 * A rule's query is a predicate: Krypton filters Secrets it has already read, as a list of the
 * API server gives them, rather than a database query.
 *
 * @public
 */
export type KryptonSecretFilter = (resource: KryptonSecretResource) => boolean;

export const kryptonSecretResourceRef = createPermissionResourceRef<
  KryptonSecretResource,
  KryptonSecretFilter
>().with({
  pluginId: 'krypton',
  resourceType: KRYPTON_SECRET_RESOURCE_TYPE,
});

/** A live Secret as a policy's conditions see it. */
export function secretResource(
  live: LiveSecrets,
  secret: NativeSecret,
): KryptonSecretResource {
  return {
    cluster: live.cluster,
    namespace: secret.metadata.namespace ?? '',
    name: secret.metadata.name ?? '',
    labels: { ...secret.metadata.labels },
    managed: live.isManaged(secret),
    access: live.accessRules(secret),
  };
}
