import {
  Progress,
  ResponseErrorPanel,
  WarningPanel,
} from '@backstage/core-components';
import { useRouteRef } from '@backstage/core-plugin-api';
import { usePermission } from '@backstage/plugin-permission-react';
import { kryptonStorageRewritePermission } from '@krypton/plugin-krypton-common';
import TextField from '@material-ui/core/TextField';
import Box from '@material-ui/core/Box';
import { useLocation, useSearchParams } from 'react-router-dom';
import { rootRouteRef } from '../../routes';
import { useKryptonT } from '../../translation';
import { useKryptonConfig } from '../access/useKryptonConfig';
import { clusterChoices, clusterParam, namedCluster } from '../clusterParam';
import { KryptonPageFrame } from '../KryptonPageFrame';
import { withCluster } from '../secretLink';
import { trimTrailingSlashes } from '../trimTrailingSlashes';
import { StorageOperatorSection } from './StorageOperatorSection';

/**
 * The operators' storage rewrite, a sub page of the platform page. The cluster lives in the
 * address (?cluster=) as on the platform page, so the link from there keeps the cluster, and an
 * operator who follows a run can reload or share the page. The platform page links here for
 * holders of krypton.storage.rewrite only; anyone else who opens the address is told why there
 * is nothing to do here.
 */
export const StorageRewritePage = () => {
  const { config, loading, error } = useKryptonConfig();
  const t = useKryptonT();
  const [params, setParams] = useSearchParams();
  const root = useRouteRef(rootRouteRef);
  // From the address the page was reached at, as the detail view does: it works wherever the
  // app mounts the page.
  const selfPath = trimTrailingSlashes(useLocation().pathname);
  const defaultCluster = config?.defaultCluster;
  const { cluster, apiCluster } = clusterParam(params, defaultCluster);
  const permission = usePermission({
    permission: kryptonStorageRewritePermission,
  });

  let main;
  if (loading || permission.loading) {
    main = <Progress />;
  } else if (!permission.allowed) {
    main = (
      <WarningPanel
        severity="info"
        defaultExpanded
        title={t('operator.denied.title')}
        message={t('operator.denied.message')}
      />
    );
  } else if (error || !config) {
    main = (
      <ResponseErrorPanel
        error={error ?? new Error(t('platform.home.noAnswer'))}
        title={t('platform.home.settingsFailed')}
      />
    );
  } else {
    const clusters = clusterChoices(config.clusters, cluster);
    main = (
      <>
        {clusters.length > 1 && (
          <Box>
            <TextField
              id="krypton-storage-rewrite-cluster"
              select
              label={t('platform.picker.cluster')}
              value={cluster}
              onChange={e => {
                const named = namedCluster(e.target.value, defaultCluster);
                setParams(named ? { cluster: named } : {});
              }}
              SelectProps={{ native: true }}
              variant="outlined"
              size="small"
              style={{ minWidth: 200 }}
            >
              {clusters.map(c => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </TextField>
          </Box>
        )}
        {/* Keyed: a run followed on one cluster means nothing on another. */}
        <StorageOperatorSection key={cluster} cluster={apiCluster} />
      </>
    );
  }

  return (
    <KryptonPageFrame
      title={t('operator.page.title')}
      subtitle={t('operator.page.subtitle')}
      crumbs={{
        parent: {
          label: t('operator.page.parent'),
          href: withCluster(root(), apiCluster),
        },
        self: {
          label: t('operator.page.title'),
          href: withCluster(selfPath, apiCluster),
        },
      }}
    >
      <Box display="flex" flexDirection="column" style={{ gap: 24 }}>
        {main}
      </Box>
    </KryptonPageFrame>
  );
};
