import { useMemo } from 'react';
import { SecretAction, SecretPolicyAnswers } from '@krypton/core';
import { permitAll } from './decide';

export interface SecretPermissions {
  loading: boolean;
  permitted: Record<SecretAction, boolean>;
}

const DENIED = permitAll(false);

/**
 * The permission policy's answers for one Secret, as the summary route gave them: the backend
 * judged the policy's conditions on the Secret it read as the user. The permission backend is not
 * asked with the Secret's ref, since it would have to read the Secret with Krypton's identity to
 * judge them, and answers every named Secret as denied. Without answers (still loading, or an
 * answer from before they existed) everything is denied.
 */
export function useSecretPermissions(
  policy: SecretPolicyAnswers | undefined,
  loading: boolean,
): SecretPermissions {
  const permitted = useMemo(() => policy ?? DENIED, [policy]);
  return { loading, permitted };
}
