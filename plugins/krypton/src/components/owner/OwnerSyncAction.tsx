import { useApi } from '@backstage/core-plugin-api';
import {
  describeOwnerSyncRefusal,
  useOwnerSyncRequest,
} from '@krypton/plugin-krypton-react';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import { useCallback } from 'react';
import useAsync from 'react-use/esm/useAsync';
import { SecretLocation, kryptonApiRef } from '../../api/KryptonApi';
import { failureOf } from '../../api/failure';
import { useKryptonT } from '../../translation';

export interface OwnerSyncActionProps {
  /** The Secret whose owner is asked. */
  location: SecretLocation;
  /** The ExternalSecret as the Secret names it, for words the offer has no target for. */
  owner: string;
}

const messageOf = (error: unknown) => failureOf(error).message;

/**
 * A button that asks External Secrets to read the Secret's ExternalSecret from its store again,
 * where the user's RBAC lets them patch it (the backend's dry run decides), or why there is
 * none. Nothing while the offer loads or when it cannot be read: the command above stays the way.
 */
export function OwnerSyncAction({ location, owner }: OwnerSyncActionProps) {
  const api = useApi(kryptonApiRef);
  const t = useKryptonT();
  const { cluster, namespace, name } = location;
  const offer = useAsync(
    () => api.getOwnerSync({ cluster, namespace, name }),
    [api, cluster, namespace, name],
  );
  const send = useCallback(
    () => api.requestOwnerSync({ cluster, namespace, name }),
    [api, cluster, namespace, name],
  );
  const { state: request, sync } = useOwnerSyncRequest(send, t, messageOf);

  if (offer.loading || offer.error || !offer.value) return null;
  if (!offer.value.available) {
    const why = describeOwnerSyncRefusal(offer.value, owner, t);
    return why ? (
      <Typography
        variant="caption"
        component="p"
        color="textSecondary"
        style={{ marginTop: 4 }}
      >
        {why}
      </Typography>
    ) : null;
  }

  const busy = request.status === 'busy';
  return (
    <Box
      display="flex"
      alignItems="center"
      flexWrap="wrap"
      mt={1}
      style={{ gap: 8 }}
    >
      <Button size="small" variant="outlined" disabled={busy} onClick={sync}>
        {busy ? t('owner.sync.busy') : t('owner.sync.button')}
      </Button>
      {/* Always in the page, so that a screen reader announces what arrives in it. */}
      <Typography
        variant="body2"
        role="status"
        color={request.status === 'failed' ? 'error' : 'textPrimary'}
      >
        {(request.status === 'done' || request.status === 'failed') &&
          request.text}
      </Typography>
    </Box>
  );
}
