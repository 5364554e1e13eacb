import { WarningPanel } from '@backstage/core-components';
import { useRouteRef } from '@backstage/core-plugin-api';
import {
  isSnapshotName,
  validateNamespace,
  validateSecretName,
} from '@krypton/core';
import {
  Navigate,
  useLocation,
  useNavigate,
  useParams,
  useSearchParams,
} from 'react-router-dom';
import { rootRouteRef } from '../../routes';
import { KryptonT, useKryptonT } from '../../translation';
import { KryptonPageFrame } from '../KryptonPageFrame';
import { DEFAULT_SECRET_TAB, SecretTabId, isSecretTabId } from '../secretLink';
import { trimTrailingSlashes } from '../trimTrailingSlashes';
import { DeletedState } from './deletedState';
import { SecretDetail } from './SecretDetail';

/**
 * Why the address cannot name a served Secret, checked before anything is asked of the backend.
 * The validators' messages are the API's own, shown as the server would send them.
 */
function addressProblem(
  namespace: string,
  name: string,
  t: KryptonT,
): string | undefined {
  try {
    validateNamespace(namespace);
    validateSecretName(name);
  } catch (e) {
    return (e as Error).message;
  }
  return isSnapshotName(name) ? t('detail.page.snapshotAddress') : undefined;
}

/** The query without the given parameters, as a `?…` suffix (or nothing). */
function searchWithout(search: URLSearchParams, ...names: string[]): string {
  const next = new URLSearchParams(search);
  names.forEach(name => next.delete(name));
  const text = next.toString();
  return text ? `?${text}` : '';
}

/**
 * The detail view's route: /secret/:namespace/:name/:tab? where the tab is one of SECRET_TABS
 * (none opens Values), with optional ?cluster=, ?rollback=1 (open the restore flow, on the
 * history tab), ?entity= (the catalog entity the user came from, whose workloads the
 * Consumers tab lists first) and ?request= (the change request the Changes tab opens for review,
 * as notifications and the platform page link it). Links from before the tabs were routed (?tab=history, as older
 * notifications carry) are redirected to the tab's path.
 *
 * Tab links are built from the address the page was reached at, so the view works wherever the
 * app mounts the page.
 */
export const SecretDetailPage = () => {
  const params = useParams();
  const t = useKryptonT();
  const { pathname } = useLocation();
  const [search, setSearch] = useSearchParams();
  const root = useRouteRef(rootRouteRef);
  const namespace = params.namespace ?? '';
  const name = params.name ?? '';
  const segment = params.tab;
  const navigate = useNavigate();
  const cluster = search.get('cluster') || undefined;
  const entityRef = search.get('entity') || undefined;
  const problem = addressProblem(namespace, name, t);
  const trimmed = trimTrailingSlashes(pathname);
  const detailPath =
    segment === undefined
      ? trimmed
      : trimmed.slice(0, trimmed.lastIndexOf('/'));
  // Back to the list of the same namespace (and cluster), where the user most likely came from.
  const back = `${root()}?${new URLSearchParams(
    cluster ? { cluster, namespace } : { namespace },
  )}`;

  const legacyTab = search.get('tab');
  if (segment === undefined && isSecretTabId(legacyTab)) {
    return (
      <Navigate
        replace
        to={`${detailPath}/${legacyTab}${searchWithout(search, 'tab')}`}
      />
    );
  }
  if (segment !== undefined && !isSecretTabId(segment)) {
    // Not a tab: the Secret's default tab rather than an empty page.
    return (
      <Navigate
        replace
        to={`${detailPath}${searchWithout(search, 'rollback')}`}
      />
    );
  }
  const tab: SecretTabId = segment ?? DEFAULT_SECRET_TAB;
  // The cluster and the entity the user came from stay; the one-off rollback does not.
  const tabQuery = searchWithout(search, 'tab', 'rollback', 'request');
  const tabHref = (next: SecretTabId) => `${detailPath}/${next}${tabQuery}`;

  return (
    <KryptonPageFrame
      title={name}
      subtitle={t('detail.page.subtitle', {
        cluster: cluster ?? t('detail.page.defaultCluster'),
        namespace,
      })}
      crumbs={{
        parent: { label: namespace, href: back },
        self: { label: name, href: `${detailPath}${tabQuery}` },
      }}
    >
      {problem ? (
        <WarningPanel title={t('detail.page.notAnAddress')} message={problem} />
      ) : (
        <SecretDetail
          key={`${cluster ?? ''}/${namespace}/${name}`}
          location={{ cluster, namespace, name }}
          // The frame's header (or the app's content header) is the Secret's name.
          namedByPage
          tabs={{ current: tab, href: tabHref }}
          startRestore={tab === 'history' && search.get('rollback') === '1'}
          // Used once: a reload or a shared link must not open the confirmation again.
          onStartRestoreUsed={() =>
            setSearch(
              current => {
                const next = new URLSearchParams(current);
                next.delete('rollback');
                return next;
              },
              { replace: true },
            )
          }
          entityRef={entityRef}
          openRequest={
            tab === 'changes' ? search.get('request') || undefined : undefined
          }
          onDeleted={(secret, result) => {
            const state: DeletedState = {
              deleted: {
                secret: { cluster, namespace, name: secret.name },
                result,
              },
            };
            // A deleted Secret's address must not stay in the history stack as a live page.
            navigate(back, { replace: true, state });
          }}
        />
      )}
    </KryptonPageFrame>
  );
};
