import {
  ResourcePermission,
  createPermission,
} from '@backstage/plugin-permission-common';
import type { SecretAction } from '@krypton/core';

/**
 * The resource type of Krypton's per-Secret permissions.
 *
 * @public
 */
export const KRYPTON_SECRET_RESOURCE_TYPE = 'krypton-secret';

/**
 * The resource ref of one Secret. The permission backend answers such a ref as unknown (a
 * denial): the backend's resource loader never reads a Secret that a caller names there.
 *
 * @public
 */
export const secretResourceRef = (
  cluster: string,
  namespace: string,
  name: string,
) => `${cluster}/${namespace}/${name}`;

/**
 * The resource ref of a Secret not yet created in a namespace, for the create permission. `*` is
 * never a Secret's name, so it cannot be confused with one.
 *
 * @public
 */
export const newSecretResourceRef = (cluster: string, namespace: string) =>
  `${cluster}/${namespace}/*`;

/**
 * The parts of a resource ref, read from the right: namespaces and names never hold a `/`, so
 * whatever is left of them is the cluster's name. Undefined when the ref has too few parts.
 *
 * @public
 */
export function parseSecretResourceRef(
  ref: string,
): { cluster: string; namespace: string; name: string } | undefined {
  const last = ref.lastIndexOf('/');
  const middle = last > 0 ? ref.lastIndexOf('/', last - 1) : -1;
  if (middle <= 0) return undefined;
  return {
    cluster: ref.slice(0, middle),
    namespace: ref.slice(middle + 1, last),
    name: ref.slice(last + 1),
  };
}

/**
 * See a Secret's metadata: name, description, keys, access rules, history list.
 *
 * @public
 */
export const kryptonSecretReadPermission = createPermission({
  name: 'krypton.secret.read',
  attributes: { action: 'read' },
  resourceType: KRYPTON_SECRET_RESOURCE_TYPE,
});

/**
 * See a Secret's values, live or historical.
 *
 * @public
 */
export const kryptonSecretRevealPermission = createPermission({
  name: 'krypton.secret.reveal',
  attributes: { action: 'read' },
  resourceType: KRYPTON_SECRET_RESOURCE_TYPE,
});

/**
 * Create a Secret. A resource permission, so that a policy's conditions (a namespace, for one)
 * judge the Secret as it would be created.
 *
 * @public
 */
export const kryptonSecretCreatePermission = createPermission({
  name: 'krypton.secret.create',
  attributes: { action: 'create' },
  resourceType: KRYPTON_SECRET_RESOURCE_TYPE,
});

/** @public */
export const kryptonSecretUpdatePermission = createPermission({
  name: 'krypton.secret.update',
  attributes: { action: 'update' },
  resourceType: KRYPTON_SECRET_RESOURCE_TYPE,
});

/** @public */
export const kryptonSecretDeletePermission = createPermission({
  name: 'krypton.secret.delete',
  attributes: { action: 'delete' },
  resourceType: KRYPTON_SECRET_RESOURCE_TYPE,
});

/** @public */
export const kryptonSecretRestorePermission = createPermission({
  name: 'krypton.secret.restore',
  attributes: { action: 'update' },
  resourceType: KRYPTON_SECRET_RESOURCE_TYPE,
});

/** @public */
export const kryptonSecretRestartPermission = createPermission({
  name: 'krypton.secret.restart',
  attributes: { action: 'update' },
  resourceType: KRYPTON_SECRET_RESOURCE_TYPE,
});

/**
 * Recreate a deleted Secret from one of its kept versions. Asked together with
 * `krypton.secret.create`, on the Secret as it would be created, so that a policy can allow
 * creating Secrets without allowing old values back.
 *
 * @public
 */
export const kryptonSecretRecreatePermission = createPermission({
  name: 'krypton.secret.recreate',
  attributes: { action: 'create' },
  resourceType: KRYPTON_SECRET_RESOURCE_TYPE,
});

/**
 * Run the operator-facing storage rewrite (re-encrypt Krypton's objects with the current key).
 *
 * @public
 */
export const kryptonStorageRewritePermission = createPermission({
  name: 'krypton.storage.rewrite',
  attributes: { action: 'update' },
});

/**
 * See and call Krypton's read-only actions (for AI agents, through MCP). It only shows them: each
 * call is gated like its route.
 *
 * @public
 */
export const kryptonActionsReadPermission = createPermission({
  name: 'krypton.actions.read',
  attributes: { action: 'read' },
});

/**
 * See and call Krypton's actions that change things: restore and restart-consumers.
 *
 * @public
 */
export const kryptonActionsWritePermission = createPermission({
  name: 'krypton.actions.write',
  attributes: { action: 'update' },
});

/**
 * The permission each action on one Secret needs: the backend asks for it, and the portal names
 * it in its reasons. Managing access is an update.
 *
 * @public
 */
export const SECRET_ACTION_PERMISSIONS = {
  read: kryptonSecretReadPermission,
  reveal: kryptonSecretRevealPermission,
  update: kryptonSecretUpdatePermission,
  restore: kryptonSecretRestorePermission,
  restart: kryptonSecretRestartPermission,
  delete: kryptonSecretDeletePermission,
  manageAccess: kryptonSecretUpdatePermission,
} as const satisfies Record<
  SecretAction,
  ResourcePermission<typeof KRYPTON_SECRET_RESOURCE_TYPE>
>;

/**
 * The permissions on one Secret, which a policy may answer with conditions.
 *
 * @public
 */
export const kryptonSecretPermissions = [
  kryptonSecretReadPermission,
  kryptonSecretRevealPermission,
  kryptonSecretCreatePermission,
  kryptonSecretUpdatePermission,
  kryptonSecretDeletePermission,
  kryptonSecretRestorePermission,
  kryptonSecretRestartPermission,
  kryptonSecretRecreatePermission,
];

/** @public */
export const kryptonPermissions = [
  kryptonSecretReadPermission,
  kryptonSecretRevealPermission,
  kryptonSecretCreatePermission,
  kryptonSecretUpdatePermission,
  kryptonSecretDeletePermission,
  kryptonSecretRestorePermission,
  kryptonSecretRestartPermission,
  kryptonSecretRecreatePermission,
  kryptonStorageRewritePermission,
];
