import { createPermission } from '@backstage/plugin-permission-common';

/** The resource type of Krypton's per-Secret permissions. */
export const KRYPTON_SECRET_RESOURCE_TYPE = 'krypton-secret';

/** See a Secret's metadata: name, description, keys, access rules, history list. */
export const kryptonSecretReadPermission = createPermission({
  name: 'krypton.secret.read',
  attributes: { action: 'read' },
  resourceType: KRYPTON_SECRET_RESOURCE_TYPE,
});

/** See a Secret's values, live or historical. */
export const kryptonSecretRevealPermission = createPermission({
  name: 'krypton.secret.reveal',
  attributes: { action: 'read' },
  resourceType: KRYPTON_SECRET_RESOURCE_TYPE,
});

export const kryptonSecretCreatePermission = createPermission({
  name: 'krypton.secret.create',
  attributes: { action: 'create' },
});

export const kryptonSecretUpdatePermission = createPermission({
  name: 'krypton.secret.update',
  attributes: { action: 'update' },
  resourceType: KRYPTON_SECRET_RESOURCE_TYPE,
});

export const kryptonSecretDeletePermission = createPermission({
  name: 'krypton.secret.delete',
  attributes: { action: 'delete' },
  resourceType: KRYPTON_SECRET_RESOURCE_TYPE,
});

export const kryptonSecretRestorePermission = createPermission({
  name: 'krypton.secret.restore',
  attributes: { action: 'update' },
  resourceType: KRYPTON_SECRET_RESOURCE_TYPE,
});

export const kryptonSecretRestartPermission = createPermission({
  name: 'krypton.secret.restart',
  attributes: { action: 'update' },
  resourceType: KRYPTON_SECRET_RESOURCE_TYPE,
});

/** Run the operator-facing storage rewrite (re-encrypt Krypton's objects with the current key). */
export const kryptonStorageRewritePermission = createPermission({
  name: 'krypton.storage.rewrite',
  attributes: { action: 'update' },
});

export const kryptonPermissions = [
  kryptonSecretReadPermission,
  kryptonSecretRevealPermission,
  kryptonSecretCreatePermission,
  kryptonSecretUpdatePermission,
  kryptonSecretDeletePermission,
  kryptonSecretRestorePermission,
  kryptonSecretRestartPermission,
  kryptonStorageRewritePermission,
];
