import { Link } from '@backstage/core-components';
import { RouteFunc, useRouteRef } from '@backstage/core-plugin-api';
import { usePermission } from '@backstage/plugin-permission-react';
import { kryptonStorageRewritePermission } from '@krypton/plugin-krypton-common';
import Typography from '@material-ui/core/Typography';
import { storageRewriteRouteRef } from '../../routes';
import { useKryptonT } from '../../translation';
import { withCluster } from '../secretLink';

/** The storage rewrite's address, or undefined where the app cannot resolve it (see secretLink). */
function useStorageRewriteRoute(): RouteFunc<undefined> | undefined {
  try {
    // As in useSecretHref: useRouteRef's own hooks run before it throws, so the order is stable.
    // eslint-disable-next-line react-hooks/rules-of-hooks
    return useRouteRef(storageRewriteRouteRef);
  } catch {
    return undefined;
  }
}

/**
 * The way from the platform page to the storage rewrite, on the same cluster. Drawn for holders
 * of krypton.storage.rewrite only, so that it takes no room on everyone else's page.
 */
export const StorageRewriteLink = (props: { cluster?: string }) => {
  const t = useKryptonT();
  const route = useStorageRewriteRoute();
  const { allowed } = usePermission({
    permission: kryptonStorageRewritePermission,
  });
  if (!allowed || !route) return null;
  return (
    <Typography variant="body2">
      <Link to={withCluster(route(), props.cluster)}>
        {t('platform.home.storageRewrite')}
      </Link>
    </Typography>
  );
};
