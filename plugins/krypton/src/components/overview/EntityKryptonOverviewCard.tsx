import { stringifyEntityRef } from '@backstage/catalog-model';
import {
  InfoCard,
  Link,
  Progress,
  ResponseErrorPanel,
  StatusError,
  StatusOK,
  StatusWarning,
} from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import { EntityRefLink, useEntity } from '@backstage/plugin-catalog-react';
import {
  entitySecretLinks,
  hasAnyLink,
  kryptonLinkAnnotations,
} from '@krypton/plugin-krypton-common';
import { tryNormalizeEntityRef } from '@krypton/core';
import Box from '@material-ui/core/Box';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableHead from '@material-ui/core/TableHead';
import TableRow from '@material-ui/core/TableRow';
import Typography from '@material-ui/core/Typography';
import { useMemo } from 'react';
import useAsync from 'react-use/esm/useAsync';
import { kryptonApiRef } from '../../api/KryptonApi';
import { useKryptonT } from '../../translation';
import { formatVersion } from '../list/secretRows';
import { useKryptonAnnotationPrefix } from '../annotationPrefix';
import { OwnerChip } from '../owner';
import { SecretHref, useSecretHref } from '../secretLink';
import { RelativeTime } from '../time/RelativeTime';
import { LastChange, OverviewRow, loadOverview } from './loadOverview';

/** Who changed the values: their catalog entity's link, or the recorded text when it is no ref. */
function Actor({ actor }: { actor: string }) {
  // Recorded in a snapshot's annotations, which anyone who may edit them could have changed.
  const ref = tryNormalizeEntityRef(actor);
  return ref ? <EntityRefLink entityRef={ref} /> : <>{actor}</>;
}

function LastChangeCell({ change }: { change?: LastChange }) {
  const t = useKryptonT();
  if (!change) return <>—</>;
  switch (change.kind) {
    case 'change':
      return t('overview.lastChange.change', {
        by: <Actor actor={change.by} />,
        time: <RelativeTime value={change.at} />,
      });
    case 'none':
      return <>{t('overview.lastChange.none')}</>;
    default:
      return <>{t('overview.lastChange.unknown')}</>;
  }
}

/** The row's problem, or a readable state; a pending deletion is a warning, not a failure. */
function StatusCell({ item }: { item: OverviewRow }) {
  const { row, lastChange } = item;
  const t = useKryptonT();
  if (row.problem) return <StatusError>{row.problem}</StatusError>;
  if (row.pending) {
    return (
      <StatusWarning>
        {t('overview.status.pending', { since: row.pending })}
      </StatusWarning>
    );
  }
  if (lastChange?.kind === 'unknown') {
    return (
      <StatusWarning>
        {t('overview.status.historyUnreadable', {
          reason: lastChange.reason,
        })}
      </StatusWarning>
    );
  }
  return <StatusOK>{t('overview.status.ok')}</StatusOK>;
}

/** Short words that must not break inside a narrow card column ("Versi-on", "Hist-ory"). */
const NO_WRAP = { whiteSpace: 'nowrap' } as const;

function OverviewTable(props: {
  rows: OverviewRow[];
  href?: SecretHref;
  showCluster: boolean;
}) {
  const { rows, href, showCluster } = props;
  const t = useKryptonT();
  return (
    <Table size="small" aria-label={t('overview.tableLabel')}>
      <TableHead>
        <TableRow>
          <TableCell>{t('overview.columns.secret')}</TableCell>
          <TableCell style={NO_WRAP}>{t('overview.columns.version')}</TableCell>
          <TableCell>{t('overview.columns.lastChange')}</TableCell>
          <TableCell>{t('overview.columns.status')}</TableCell>
          {href && <TableCell>{t('overview.columns.links')}</TableCell>}
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map(item => {
          const { row } = item;
          const where = showCluster
            ? t('list.where', {
                cluster: row.cluster || t('list.defaultCluster'),
                namespace: row.namespace,
              })
            : row.namespace;
          const linked = href && !row.problem;
          return (
            <TableRow key={row.id}>
              <TableCell component="th" scope="row" role="rowheader">
                {linked ? (
                  <Link to={href(row.location)}>{row.name}</Link>
                ) : (
                  row.name
                )}
                <Typography
                  variant="caption"
                  color="textSecondary"
                  display="block"
                >
                  {where}
                </Typography>
                {row.summary?.owner && (
                  <Box mt={0.5}>
                    <OwnerChip secret={row.summary} />
                  </Box>
                )}
              </TableCell>
              <TableCell style={NO_WRAP}>
                {row.summary ? formatVersion(t, row.summary.version) : '—'}
              </TableCell>
              <TableCell>
                <LastChangeCell change={item.lastChange} />
              </TableCell>
              <TableCell>
                <StatusCell item={item} />
              </TableCell>
              {href && (
                <TableCell style={NO_WRAP}>
                  {linked && (
                    <Box display="flex" style={{ gap: 12 }}>
                      <Link
                        to={href(row.location, undefined, 'history')}
                        aria-label={t('overview.historyOf', { name: row.name })}
                      >
                        {t('overview.history')}
                      </Link>
                      <Link
                        to={href(row.location, undefined, 'consumers')}
                        aria-label={t('overview.consumersOf', {
                          name: row.name,
                        })}
                      >
                        {t('overview.consumers')}
                      </Link>
                    </Box>
                  )}
                </TableCell>
              )}
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

/**
 * The entity overview's card: the entity's linked Secrets with their version, the last change of
 * values through Krypton (who and when, from the newest history version), and any problem, with
 * links to each Secret's history and consumers.
 *
 * @public
 */
export const EntityKryptonOverviewCard = () => {
  const { entity } = useEntity();
  const t = useKryptonT();
  const api = useApi(kryptonApiRef);
  const prefix = useKryptonAnnotationPrefix();
  const secretHref = useSecretHref();
  const entityRef = stringifyEntityRef(entity);
  // As from the entity tab: the detail view lists this entity's workloads first.
  const href: SecretHref | undefined = useMemo(
    () =>
      secretHref &&
      ((location, query, tab) =>
        secretHref(location, { ...query, entity: entityRef }, tab)),
    [secretHref, entityRef],
  );
  const links = useMemo(
    () => entitySecretLinks(entity, prefix),
    [entity, prefix],
  );
  const state = useAsync(() => loadOverview(api, links), [api, links]);

  const nothingLinked = !hasAnyLink(links);
  const selector = state.value?.selector;
  const showCluster =
    links.refs.some(ref => ref.cluster !== undefined) ||
    links.selector?.cluster !== undefined;

  let body;
  if (nothingLinked) {
    body = (
      <Typography variant="body2">
        {t('overview.nothingLinked', {
          annotation: kryptonLinkAnnotations(prefix).secrets,
        })}
      </Typography>
    );
  } else if (state.loading) {
    body = <Progress />;
  } else if (state.error) {
    body = <ResponseErrorPanel error={state.error} />;
  } else {
    const rows = state.value?.rows ?? [];
    const more = state.value?.more ?? 0;
    body = (
      <Box display="flex" flexDirection="column" style={{ gap: 8 }}>
        {links.selectorProblem && (
          <StatusError>
            {t('overview.selectorProblem', { problem: links.selectorProblem })}
          </StatusError>
        )}
        {selector?.error && (
          <StatusError>
            {t('overview.selectorFailed', {
              selector: selector.selector.labelSelector,
              reason: selector.error.message,
            })}
          </StatusError>
        )}
        {rows.length > 0 ? (
          <OverviewTable rows={rows} href={href} showCluster={showCluster} />
        ) : (
          !links.selectorProblem &&
          !selector?.error && (
            <Typography variant="body2">{t('overview.noMatch')}</Typography>
          )
        )}
        {more > 0 && (
          <Typography variant="body2" color="textSecondary">
            {t('overview.more', { count: more })}
          </Typography>
        )}
      </Box>
    );
  }
  return <InfoCard title={t('overview.title')}>{body}</InfoCard>;
};
