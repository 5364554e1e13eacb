import {
  InfoCard,
  Progress,
  ResponseErrorPanel,
} from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import { usePermission } from '@backstage/plugin-permission-react';
import { DeletedSecretSummary, SecretWriteAnswer } from '@krypton/core';
import {
  kryptonSecretCreatePermission,
  kryptonSecretRecreatePermission,
} from '@krypton/plugin-krypton-common';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableHead from '@material-ui/core/TableHead';
import TableRow from '@material-ui/core/TableRow';
import Typography from '@material-ui/core/Typography';
import { useId, useState } from 'react';
import useAsyncRetry from 'react-use/esm/useAsyncRetry';
import { NamespaceLocation, kryptonApiRef } from '../../api/KryptonApi';
import { failureOf } from '../../api/failure';
import { useKryptonT } from '../../translation';
import { RelativeTime } from '../time/RelativeTime';
import { ChangeActor } from '../history/ChangeActor';
import { RecreateDialog } from './RecreateDialog';
import { useNewSecretRef } from './useNewSecretRef';

export interface DeletedSecretsProps {
  /** The namespace as the API addresses it (no cluster for the default cluster). */
  location: NamespaceLocation;
  /** Counts the changes made elsewhere on the page (a create): each new one reloads the list. */
  reloads?: number;
  /** A successful recreate, after the dialog closed and while this list reloads. */
  onRecreated?: (secret: SecretWriteAnswer) => void;
}

/**
 * Whether the policy lets the user recreate here, and why not. Both permissions are asked, on the
 * Secret as it would be created, as the backend asks them.
 */
function useRecreateDenial(location: NamespaceLocation): {
  loading: boolean;
  reason?: string;
} {
  const t = useKryptonT();
  const resourceRef = useNewSecretRef(location);
  const create = usePermission({
    permission: kryptonSecretCreatePermission,
    resourceRef,
  });
  const recreate = usePermission({
    permission: kryptonSecretRecreatePermission,
    resourceRef,
  });
  if (create.loading || recreate.loading) return { loading: true };
  if (!create.allowed)
    return { loading: false, reason: t('platform.deleted.createDenied') };
  if (!recreate.allowed)
    return { loading: false, reason: t('platform.deleted.recreateDenied') };
  return { loading: false };
}

// Names, versions, who deleted and the button read as one piece each: a narrow page scrolls the
// table sideways rather than breaking them mid-word.
const NO_WRAP = { whiteSpace: 'nowrap' } as const;
// Text that wraps, between words only, and never narrower than a few of them.
const WORDS = { minWidth: '12em', wordBreak: 'normal' } as const;

/** When and by whom the Secret was deleted, as the final state the recorder kept says. */
function DeletedCell({ item }: { item: DeletedSecretSummary }) {
  const t = useKryptonT();
  return (
    <>
      <Typography variant="body2" style={item.deletedBy ? NO_WRAP : undefined}>
        {item.deletedBy ? (
          <ChangeActor
            change={{
              snapshotBy: item.deletedBy,
              snapshotVia: item.deletedVia,
              finalState: true,
            }}
          />
        ) : (
          t('platform.deleted.unknownDeleter')
        )}
      </Typography>
      {item.deletedAt && (
        <Typography variant="caption" color="textSecondary" display="block">
          <RelativeTime value={item.deletedAt} />
        </Typography>
      )}
    </>
  );
}

interface RowProps {
  item: DeletedSecretSummary;
  /** Why the policy refuses every recreate here, with the id of its text. */
  denial?: { reason: string; id: string };
  /** The permissions are still being asked. */
  checking: boolean;
  onRecreate: (item: DeletedSecretSummary) => void;
}

function DeletedRow({ item, denial, checking, onRecreate }: RowProps) {
  const t = useKryptonT();
  const takenId = useId();
  const last = item.versions[0];
  const describedBy = [item.nameTaken && takenId, denial?.id]
    .filter(Boolean)
    .join(' ');
  return (
    <TableRow>
      <TableCell component="th" scope="row" role="rowheader" style={NO_WRAP}>
        <Typography variant="body2" style={{ fontWeight: 500 }}>
          {item.name}
        </Typography>
        <Typography variant="caption" color="textSecondary">
          {item.type}
        </Typography>
      </TableCell>
      <TableCell style={WORDS}>{item.description}</TableCell>
      <TableCell style={NO_WRAP}>
        {last
          ? t('platform.deleted.versionName', { version: String(last.version) })
          : t('platform.deleted.noVersions')}
      </TableCell>
      <TableCell style={WORDS}>
        <DeletedCell item={item} />
      </TableCell>
      <TableCell>
        <Button
          size="small"
          variant="outlined"
          style={NO_WRAP}
          aria-label={t('platform.deleted.recreateName', { name: item.name })}
          aria-describedby={describedBy || undefined}
          disabled={item.nameTaken || denial !== undefined || checking || !last}
          onClick={() => onRecreate(item)}
        >
          {t('platform.deleted.recreate')}
        </Button>
        {item.nameTaken && (
          <Typography
            variant="caption"
            color="textSecondary"
            display="block"
            id={takenId}
          >
            {t('platform.deleted.nameTaken', {
              name: <span style={NO_WRAP}>{item.name}</span>,
            })}
          </Typography>
        )}
      </TableCell>
    </TableRow>
  );
}

/**
 * The namespace's Secrets that are gone while Krypton keeps their history, each recreatable from
 * a kept version. A refused or failed list is shown as such: it must not read as "none deleted".
 */
export const DeletedSecrets = (props: DeletedSecretsProps) => {
  const api = useApi(kryptonApiRef);
  const t = useKryptonT();
  const denialId = useId();
  const { cluster, namespace } = props.location;
  const reloads = props.reloads ?? 0;
  const list = useAsyncRetry(
    () => api.listDeletedSecrets({ cluster, namespace }),
    // reloads is no input of the call: a new count only asks for a fresh read.
    [api, cluster, namespace, reloads],
  );
  const permission = useRecreateDenial(props.location);
  const [open, setOpen] = useState<DeletedSecretSummary>();

  const recreated = (secret: SecretWriteAnswer) => {
    setOpen(undefined);
    list.retry();
    props.onRecreated?.(secret);
  };

  const items = list.value?.items ?? [];
  let body;
  if (list.error) {
    body = (
      <ResponseErrorPanel
        error={list.error}
        title={
          failureOf(list.error).kind === 'forbidden'
            ? t('platform.deleted.deniedTitle', { namespace })
            : t('platform.deleted.failedTitle')
        }
      />
    );
  } else if (list.loading && !list.value) {
    body = (
      <Box>
        <Typography variant="body2" role="status">
          {t('platform.deleted.loading')}
        </Typography>
        <Progress />
      </Box>
    );
  } else if (items.length === 0) {
    body = (
      <Typography variant="body2">
        {t('platform.deleted.empty', { namespace })}
      </Typography>
    );
  } else {
    const denial = permission.reason
      ? { reason: permission.reason, id: denialId }
      : undefined;
    body = (
      <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
        <Typography variant="body2" color="textSecondary">
          {t('platform.deleted.intro')}
        </Typography>
        {denial && (
          <Typography variant="body2" color="textSecondary" id={denial.id}>
            {denial.reason}
          </Typography>
        )}
        <Box overflow="auto">
          <Table size="small" aria-label={t('platform.deleted.tableLabel')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('platform.deleted.name')}</TableCell>
                <TableCell style={WORDS}>
                  {t('platform.deleted.description')}
                </TableCell>
                <TableCell style={NO_WRAP}>
                  {t('platform.deleted.lastVersion')}
                </TableCell>
                <TableCell>{t('platform.deleted.deleted')}</TableCell>
                <TableCell>{t('platform.deleted.actions')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {items.map(item => (
                // A name can be deleted more than once: each lifetime has its own UID.
                <DeletedRow
                  key={item.uid}
                  item={item}
                  denial={denial}
                  checking={permission.loading}
                  onRecreate={setOpen}
                />
              ))}
            </TableBody>
          </Table>
        </Box>
      </Box>
    );
  }

  return (
    <InfoCard
      title={t('platform.deleted.title', { namespace })}
      action={
        list.loading ? undefined : (
          <Button onClick={list.retry}>{t('platform.deleted.reload')}</Button>
        )
      }
    >
      {body}
      {open && (
        <RecreateDialog
          location={props.location}
          secret={open}
          onClose={() => setOpen(undefined)}
          onRecreated={recreated}
        />
      )}
    </InfoCard>
  );
};
