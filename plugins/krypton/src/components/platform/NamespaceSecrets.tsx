import { Link, ResponseErrorPanel } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import { usePermission } from '@backstage/plugin-permission-react';
import { kryptonSecretCreatePermission } from '@krypton/plugin-krypton-common';
import { IdentityMode } from '@krypton/core';
import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import { useId, useMemo, useState } from 'react';
import useAsyncRetry from 'react-use/esm/useAsyncRetry';
import { NamespaceLocation, kryptonApiRef } from '../../api/KryptonApi';
import { useKryptonT } from '../../translation';
import { SecretTable } from '../list/SecretTable';
import { summaryRow } from '../list/secretRows';
import { SecretHref } from '../secretLink';
import { AdoptDialog } from './AdoptDialog';
import { CreateSecretDialog } from './CreateSecretDialog';
import { DeletedSecrets } from './DeletedSecrets';
import { useNewSecretRef } from './useNewSecretRef';

export interface NamespaceSecretsProps {
  /** The namespace as the API addresses it (no cluster for the default cluster). */
  location: NamespaceLocation;
  identityMode?: IdentityMode;
  href?: SecretHref;
}

type Done = 'created' | 'adopted' | 'recreated';

/**
 * A name in a title moves to a line of its own rather than breaking at its hyphens; only a name
 * longer than the whole line breaks.
 */
const WHOLE = {
  display: 'inline-block',
  maxWidth: '100%',
  overflowWrap: 'anywhere',
} as const;

const NOTICES = {
  created: 'platform.namespace.created',
  adopted: 'platform.namespace.adopted',
  recreated: 'platform.deleted.recreated',
} as const;

/** The Secrets of one namespace, with create and adopt, and its deleted Secrets to recreate. */
export const NamespaceSecrets = (props: NamespaceSecretsProps) => {
  const api = useApi(kryptonApiRef);
  const t = useKryptonT();
  const reasonId = useId();
  const { cluster, namespace } = props.location;
  const list = useAsyncRetry(
    () => api.listSecrets({ cluster, namespace }),
    [api, cluster, namespace],
  );
  const create = usePermission({
    permission: kryptonSecretCreatePermission,
    resourceRef: useNewSecretRef(props.location),
  });
  const [dialog, setDialog] = useState<'create' | 'adopt'>();
  const [notice, setNotice] = useState<{ done: Done; name: string }>();
  // A create may take the name of a deleted Secret, which the deleted list then marks.
  const [creates, setCreates] = useState(0);
  const rows = useMemo(
    () =>
      (list.value?.items ?? []).map(s =>
        summaryRow(s, { cluster, namespace: s.namespace, name: s.name }),
      ),
    [list.value, cluster],
  );

  const done = (what: Done, name: string) => {
    setDialog(undefined);
    setNotice({ done: what, name });
    list.retry();
    if (what === 'created') setCreates(n => n + 1);
  };

  return (
    <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
      <Box
        display="flex"
        alignItems="center"
        flexWrap="wrap"
        style={{ gap: 16 }}
      >
        <Button
          variant="contained"
          color="primary"
          onClick={() => setDialog('create')}
          disabled={!create.allowed}
          aria-describedby={
            !create.loading && !create.allowed ? reasonId : undefined
          }
        >
          {t('platform.namespace.create')}
        </Button>
        <Button variant="outlined" onClick={() => setDialog('adopt')}>
          {t('platform.namespace.adopt')}
        </Button>
        {!create.loading && !create.allowed && (
          <Typography variant="body2" color="textSecondary" id={reasonId}>
            {t('platform.namespace.createDenied')}
          </Typography>
        )}
      </Box>
      {notice && (
        <Alert severity="success" onClose={() => setNotice(undefined)}>
          {t(NOTICES[notice.done], { name: notice.name })}{' '}
          {props.href && (
            <Link to={props.href({ cluster, namespace, name: notice.name })}>
              {t('platform.namespace.open', { name: notice.name })}
            </Link>
          )}
        </Alert>
      )}
      {list.error ? (
        <ResponseErrorPanel
          error={list.error}
          title={t('platform.namespace.listFailed')}
        />
      ) : (
        <SecretTable
          title={t('platform.namespace.tableTitle', {
            namespace: <span style={WHOLE}>{namespace}</span>,
          })}
          rows={rows}
          href={props.href}
          search
          isLoading={list.loading}
          emptyContent={
            <Box p={2}>
              <Typography variant="body2">
                {t('platform.namespace.empty', { namespace })}
              </Typography>
            </Box>
          }
        />
      )}
      <DeletedSecrets
        location={props.location}
        reloads={creates}
        onRecreated={s => done('recreated', s.name)}
      />
      {dialog === 'create' && (
        <CreateSecretDialog
          location={props.location}
          onClose={() => setDialog(undefined)}
          onCreated={s => done('created', s.name)}
        />
      )}
      {dialog === 'adopt' && (
        <AdoptDialog
          location={props.location}
          identityMode={props.identityMode}
          onClose={() => setDialog(undefined)}
          onAdopted={s => done('adopted', s.name)}
        />
      )}
    </Box>
  );
};
