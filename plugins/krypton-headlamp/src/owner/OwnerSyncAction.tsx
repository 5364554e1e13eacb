import {
  describeOwnerSyncRefusal,
  englishOwnerT,
  useOwnerSyncRequest,
} from '@krypton/plugin-krypton-react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useCallback } from 'react';
import { HeadlampKrypton } from '../engines';
import { failureOf } from '../history/failure';
import { useLoad } from '../useLoad';

const t = englishOwnerT;
const messageOf = (error: unknown) => failureOf(error).message;

/** The Secret whose owner a sync asks, with the engines of its cluster. */
export interface OwnerSyncPlace {
  krypton: HeadlampKrypton;
  namespace: string;
  name: string;
}

/**
 * A button that asks External Secrets to read the Secret's ExternalSecret from its store again,
 * where the user's RBAC lets them patch it (a dry run as the user decides), or why there is none.
 * Nothing while the offer loads or when it fails: the engines serve only the Secrets that Krypton
 * may act on (by default, those it manages), and the command above stays the way for the rest.
 */
export function OwnerSyncAction(props: OwnerSyncPlace & { owner: string }) {
  const { krypton, namespace, name, owner } = props;
  const { state: offer } = useLoad(
    () => krypton.ownerSync.offer(namespace, name, krypton.gate),
    [krypton, namespace, name],
  );
  const send = useCallback(
    () => krypton.ownerSync.request(namespace, name, krypton.gate),
    [krypton, namespace, name],
  );
  const { state: request, sync } = useOwnerSyncRequest(send, t, messageOf);

  if (offer.status !== 'loaded') return null;
  if (!offer.value.available) {
    const why = describeOwnerSyncRefusal(offer.value, owner, t);
    return why ? (
      <Typography
        variant="caption"
        component="p"
        color="text.secondary"
        sx={{ mt: 0.5 }}
      >
        {why}
      </Typography>
    ) : null;
  }

  const busy = request.status === 'busy';
  return (
    <Box display="flex" alignItems="center" flexWrap="wrap" gap={1} mt={1}>
      <Button size="small" variant="outlined" disabled={busy} onClick={sync}>
        {busy ? t('owner.sync.busy') : t('owner.sync.button')}
      </Button>
      {/* Always in the page, so that a screen reader announces what arrives in it. */}
      <Typography
        variant="body2"
        role="status"
        color={request.status === 'failed' ? 'error' : undefined}
      >
        {(request.status === 'done' || request.status === 'failed') &&
          request.text}
      </Typography>
    </Box>
  );
}
