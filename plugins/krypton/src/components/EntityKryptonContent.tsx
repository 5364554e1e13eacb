import {
  EmptyState,
  ResponseErrorPanel,
  WarningPanel,
} from '@backstage/core-components';
import { stringifyEntityRef } from '@backstage/catalog-model';
import { useApi } from '@backstage/core-plugin-api';
import { useEntity } from '@backstage/plugin-catalog-react';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { useMemo } from 'react';
import useAsync from 'react-use/esm/useAsync';
import {
  KUBERNETES_NAMESPACE_ANNOTATION,
  entitySecretLinks,
  hasAnyLink,
  kryptonLinkAnnotations,
} from '@krypton/plugin-krypton-common';
import { MAX_LINKED_SECRET_ENTRIES } from '@krypton/core';
import { kryptonApiRef } from '../api/KryptonApi';
import { useKryptonT } from '../translation';
import { useKryptonConfig } from './access/useKryptonConfig';
import { usePrincipal } from './access/usePrincipal';
import { useKryptonAnnotationPrefix } from './annotationPrefix';
import {
  ConsumerVersionsBadge,
  useVersionsLoader,
} from './consumers/ConsumerVersionsBadge';
import { RollBackAction } from './RollBackAction';
import { SecretTable } from './list/SecretTable';
import {
  SelectorResult,
  loadLinkedSecrets,
  notLoadedRow,
} from './list/loadLinkedSecrets';
import { SecretRow } from './list/secretRows';
import { SecretHref, useSecretHref } from './secretLink';

function SelectorNote({ result }: { result: SelectorResult }) {
  const t = useKryptonT();
  const { selector } = result;
  const where = t('page.entity.selectorWhere', {
    selector: selector.labelSelector,
    namespace: selector.namespace,
  });
  if (result.error) {
    return (
      <WarningPanel
        severity="error"
        title={t('page.entity.selectorFailed', { where })}
        message={result.error.message}
      />
    );
  }
  return (
    <Typography variant="body2" color="textSecondary">
      {result.matched === 0
        ? t('page.entity.noneMatch', { where })
        : t('page.entity.matched', { count: result.matched ?? 0, where })}
    </Typography>
  );
}

/**
 * The entity tab: the Secrets that the entity's annotations link, named or by label selector, as
 * metadata only. Links that do not resolve stay visible as rows with the server's reason.
 *
 * @public
 */
export const EntityKryptonContent = () => {
  const { entity } = useEntity();
  const t = useKryptonT();
  const api = useApi(kryptonApiRef);
  const prefix = useKryptonAnnotationPrefix();
  const href = useSecretHref();
  const entityRef = stringifyEntityRef(entity);
  // The detail view lists this entity's workloads first on its Consumers tab.
  const entityHref: SecretHref | undefined = useMemo(
    () =>
      href &&
      ((location, query, tab) =>
        href(location, { ...query, entity: entityRef }, tab)),
    [href, entityRef],
  );
  const links = useMemo(
    () => entitySecretLinks(entity, prefix),
    [entity, prefix],
  );
  const state = useAsync(() => loadLinkedSecrets(api, links), [api, links]);
  const { principal } = usePrincipal();
  const { config } = useKryptonConfig();
  // Each shown Secret's consumers, read once its row is on screen and a few at a time.
  const loader = useVersionsLoader();

  const names = kryptonLinkAnnotations(prefix);
  const loaded = state.value?.rows;
  // First, so that the table's paging never hides it behind the rows that were loaded.
  const rows: SecretRow[] = useMemo(
    () =>
      links.notLoaded === undefined
        ? loaded ?? []
        : [
            notLoadedRow(
              names.secrets,
              t('page.entity.notLoaded', {
                count: links.notLoaded,
                max: MAX_LINKED_SECRET_ENTRIES,
              }),
            ),
            ...(loaded ?? []),
          ],
    [loaded, links.notLoaded, names.secrets, t],
  );
  if (!hasAnyLink(links)) {
    return (
      <EmptyState
        missing="field"
        title={t('page.entity.noLinksTitle')}
        description={t('page.entity.noLinks', {
          secrets: names.secrets,
          selector: names.selector,
          namespace: names.namespace,
          kubernetesNamespace: KUBERNETES_NAMESPACE_ANNOTATION,
          cluster: names.cluster,
        })}
      />
    );
  }

  const showCluster =
    links.refs.some(ref => ref.cluster !== undefined) ||
    links.selector?.cluster !== undefined;
  return (
    <Box display="flex" flexDirection="column" style={{ gap: 16 }}>
      {links.selectorProblem && (
        <WarningPanel
          title={t('page.entity.selectorUnusable')}
          message={links.selectorProblem}
        />
      )}
      {state.error && <ResponseErrorPanel error={state.error} />}
      {state.value?.selector && <SelectorNote result={state.value.selector} />}
      <SecretTable
        title={t('page.entity.tableTitle')}
        rows={rows}
        href={entityHref}
        showCluster={showCluster}
        isLoading={state.loading}
        statusExtra={row =>
          row.summary && !row.problem ? (
            <ConsumerVersionsBadge
              location={row.location}
              name={row.name}
              to={entityHref?.(row.location, undefined, 'consumers')}
              loader={loader}
            />
          ) : null
        }
        actions={
          entityHref &&
          (row =>
            row.summary ? (
              <RollBackAction
                summary={row.summary}
                to={entityHref(row.location, { rollback: '1' }, 'history')}
                principal={principal}
                config={config}
              />
            ) : null)
        }
      />
    </Box>
  );
};
