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
  kryptonLinkAnnotations,
  tryNormalizeEntityRef,
} from '@krypton/plugin-krypton-common';
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
import { useKryptonAnnotationPrefix } from '../annotationPrefix';
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
  if (!change) return <>—</>;
  switch (change.kind) {
    case 'change':
      return (
        <>
          <Actor actor={change.by} />, <RelativeTime value={change.at} />
        </>
      );
    case 'none':
      return <>None through Krypton yet</>;
    default:
      return <>Unknown</>;
  }
}

/** The row's problem, or a readable state; a pending deletion is a warning, not a failure. */
function StatusCell({ item }: { item: OverviewRow }) {
  const { row, lastChange } = item;
  if (row.problem) return <StatusError>{row.problem}</StatusError>;
  if (row.pending) {
    return <StatusWarning>Pending deletion since {row.pending}</StatusWarning>;
  }
  if (lastChange?.kind === 'unknown') {
    return (
      <StatusWarning>
        History could not be read: {lastChange.reason}
      </StatusWarning>
    );
  }
  return <StatusOK>OK</StatusOK>;
}

/** Short words that must not break inside a narrow card column ("Versi-on", "Hist-ory"). */
const NO_WRAP = { whiteSpace: 'nowrap' } as const;

function OverviewTable(props: {
  rows: OverviewRow[];
  href?: SecretHref;
  showCluster: boolean;
}) {
  const { rows, href, showCluster } = props;
  return (
    <Table size="small" aria-label="Linked Secrets">
      <TableHead>
        <TableRow>
          <TableCell>Secret</TableCell>
          <TableCell style={NO_WRAP}>Version</TableCell>
          <TableCell>Last change</TableCell>
          <TableCell>Status</TableCell>
          {href && <TableCell>Links</TableCell>}
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map(item => {
          const { row } = item;
          const where = showCluster
            ? `${row.cluster || 'default cluster'} / ${row.namespace}`
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
              </TableCell>
              <TableCell style={NO_WRAP}>{row.version}</TableCell>
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
                        aria-label={`History of ${row.name}`}
                      >
                        History
                      </Link>
                      <Link
                        to={href(row.location, undefined, 'consumers')}
                        aria-label={`Consumers of ${row.name}`}
                      >
                        Consumers
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
 */
export const EntityKryptonOverviewCard = () => {
  const { entity } = useEntity();
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

  const nothingLinked =
    links.refs.length === 0 &&
    !links.selector &&
    links.selectorProblem === undefined;
  const selector = state.value?.selector;
  const showCluster =
    links.refs.some(ref => ref.cluster !== undefined) ||
    links.selector?.cluster !== undefined;

  let body;
  if (nothingLinked) {
    body = (
      <Typography variant="body2">
        No Secrets linked. Add a {kryptonLinkAnnotations(prefix).secrets}{' '}
        annotation to this entity.
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
            The label selector link cannot be used: {links.selectorProblem}
          </StatusError>
        )}
        {selector?.error && (
          <StatusError>
            Could not list the Secrets that match{' '}
            {selector.selector.labelSelector}: {selector.error.message}
          </StatusError>
        )}
        {rows.length > 0 ? (
          <OverviewTable rows={rows} href={href} showCluster={showCluster} />
        ) : (
          !links.selectorProblem &&
          !selector?.error && (
            <Typography variant="body2">
              No Secrets match the entity's links.
            </Typography>
          )
        )}
        {more > 0 && (
          <Typography variant="body2" color="textSecondary">
            and {more} more linked {more === 1 ? 'Secret' : 'Secrets'}, listed
            on the entity's Secrets tab.
          </Typography>
        )}
      </Box>
    );
  }
  return <InfoCard title="Secrets">{body}</InfoCard>;
};
