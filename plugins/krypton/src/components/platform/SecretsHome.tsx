import {
  Progress,
  ResponseErrorPanel,
  WarningPanel,
} from '@backstage/core-components';
import Box from '@material-ui/core/Box';
import { useState } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { useKryptonT } from '../../translation';
import { WaitingRequests } from '../changes';
import { DeletedNotice } from '../delete';
import { deletedStateOf } from '../detail/deletedState';
import { useKryptonConfig } from '../access/useKryptonConfig';
import { clusterChoices, clusterParam, namedCluster } from '../clusterParam';
import { StorageRewriteLink } from '../operator/StorageRewriteLink';
import { KryptonPageFrame } from '../KryptonPageFrame';
import { useSecretHref } from '../secretLink';
import { LocationPicker } from './LocationPicker';
import { ManagedNamespaces } from './ManagedNamespaces';
import { NamespaceSecrets } from './NamespaceSecrets';

/**
 * The platform page's list view. The cluster and namespace live in the address (?cluster=,
 * ?namespace=), so that coming back from a Secret shows the same list. Before a namespace is
 * chosen, it shows the namespaces that hold the user's Krypton Secrets.
 */
export const SecretsHome = () => {
  const { config, loading, error } = useKryptonConfig();
  const t = useKryptonT();
  const [params, setParams] = useSearchParams();
  const href = useSecretHref();
  const routerLocation = useLocation();
  const [deleted, setDeleted] = useState(
    () => deletedStateOf(routerLocation.state)?.deleted,
  );

  const defaultCluster = config?.defaultCluster;
  const { cluster, apiCluster } = clusterParam(params, defaultCluster);
  const namespace = params.get('namespace') ?? '';

  const queryOf = (next: { cluster: string; namespace: string }) => {
    const query: Record<string, string> = {};
    const named = namedCluster(next.cluster, defaultCluster);
    if (named) query.cluster = named;
    if (next.namespace) query.namespace = next.namespace;
    return query;
  };
  const choose = (next: { cluster: string; namespace: string }) =>
    setParams(queryOf(next));

  let main;
  if (loading) {
    main = <Progress />;
  } else if (error || !config) {
    main = (
      <ResponseErrorPanel
        error={error ?? new Error(t('platform.home.noAnswer'))}
        title={t('platform.home.settingsFailed')}
      />
    );
  } else {
    main = (
      <>
        {config.error && (
          <WarningPanel
            title={t('platform.home.configInvalid')}
            message={config.error}
          />
        )}
        <WaitingRequests
          key={apiCluster ?? ''}
          cluster={apiCluster}
          href={href}
        />
        <LocationPicker
          clusters={clusterChoices(config.clusters, cluster)}
          cluster={cluster}
          namespace={namespace}
          onChange={choose}
        />
        {namespace ? (
          <NamespaceSecrets
            key={`${apiCluster ?? ''}/${namespace}`}
            location={{ cluster: apiCluster, namespace }}
            identityMode={config.identityMode}
            href={href}
          />
        ) : (
          <ManagedNamespaces
            cluster={apiCluster}
            hrefOf={next =>
              `?${new URLSearchParams(queryOf({ cluster, namespace: next }))}`
            }
            onChoose={next => choose({ cluster, namespace: next })}
          />
        )}
        <StorageRewriteLink cluster={apiCluster} />
      </>
    );
  }

  return (
    <KryptonPageFrame
      title={t('platform.home.title')}
      subtitle={t('platform.home.subtitle')}
    >
      <Box display="flex" flexDirection="column" style={{ gap: 24 }}>
        {deleted && (
          <DeletedNotice
            secret={deleted.secret}
            result={deleted.result}
            onDismiss={() => setDeleted(undefined)}
          />
        )}
        {main}
      </Box>
    </KryptonPageFrame>
  );
};
