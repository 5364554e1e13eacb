import { usePermission } from '@backstage/plugin-permission-react';
import { useMemo } from 'react';
import {
  SecretAction,
  kryptonSecretDeletePermission,
  kryptonSecretReadPermission,
  kryptonSecretRestartPermission,
  kryptonSecretRestorePermission,
  kryptonSecretRevealPermission,
  kryptonSecretUpdatePermission,
} from '@krypton/plugin-krypton-common';

export interface SecretPermissions {
  loading: boolean;
  permitted: Record<SecretAction, boolean>;
}

/**
 * The permission policy's answers for one Secret, the same permissions the backend checks per
 * action (manageAccess is an update there too). Undefined resourceRef: everything is denied.
 */
export function useSecretPermissions(
  resourceRef: string | undefined,
): SecretPermissions {
  const read = usePermission({
    permission: kryptonSecretReadPermission,
    resourceRef,
  });
  const reveal = usePermission({
    permission: kryptonSecretRevealPermission,
    resourceRef,
  });
  const update = usePermission({
    permission: kryptonSecretUpdatePermission,
    resourceRef,
  });
  const restore = usePermission({
    permission: kryptonSecretRestorePermission,
    resourceRef,
  });
  const restart = usePermission({
    permission: kryptonSecretRestartPermission,
    resourceRef,
  });
  const remove = usePermission({
    permission: kryptonSecretDeletePermission,
    resourceRef,
  });
  const all = [read, reveal, update, restore, restart, remove];
  // One object per combination of answers, so that consumers can memoize on it.
  const permitted = useMemo(
    () => ({
      read: read.allowed,
      reveal: reveal.allowed,
      update: update.allowed,
      restore: restore.allowed,
      restart: restart.allowed,
      delete: remove.allowed,
      manageAccess: update.allowed,
    }),
    [
      read.allowed,
      reveal.allowed,
      update.allowed,
      restore.allowed,
      restart.allowed,
      remove.allowed,
    ],
  );
  return { loading: all.some(p => p.loading), permitted };
}
