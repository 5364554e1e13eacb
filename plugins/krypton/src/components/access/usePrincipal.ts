import { identityApiRef, useApi } from '@backstage/core-plugin-api';
import { Principal } from '@krypton/core';
import useAsync from 'react-use/esm/useAsync';

/** The signed-in user as the access rules see them: their ref and their ownership refs. */
export function usePrincipal(): {
  principal?: Principal;
  loading: boolean;
  error?: Error;
} {
  const identityApi = useApi(identityApiRef);
  const state = useAsync(async (): Promise<Principal> => {
    const identity = await identityApi.getBackstageIdentity();
    return {
      userEntityRef: identity.userEntityRef,
      ownershipEntityRefs: identity.ownershipEntityRefs,
    };
  }, [identityApi]);
  return { principal: state.value, loading: state.loading, error: state.error };
}
