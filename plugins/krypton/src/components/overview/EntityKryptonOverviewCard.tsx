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
import { VISUALLY_HIDDEN } from '@krypton/plugin-krypton-react';
import Box from '@material-ui/core/Box';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableHead from '@material-ui/core/TableHead';
import TableRow from '@material-ui/core/TableRow';
import Tooltip from '@material-ui/core/Tooltip';
import Typography from '@material-ui/core/Typography';
import { makeStyles } from '@material-ui/core/styles';
import { useId, useMemo } from 'react';
import useAsync from 'react-use/esm/useAsync';
import { kryptonApiRef } from '../../api/KryptonApi';
import { useKryptonT } from '../../translation';
import { useCellLineStyles } from '../list/cellLines';
import { SecretRow, formatVersion } from '../list/secretRows';
import { useKryptonAnnotationPrefix } from '../annotationPrefix';
import {
  ConsumerVersionsBadge,
  VersionsLoader,
  useVersionsLoader,
} from '../consumers/ConsumerVersionsBadge';
import { OwnerChip } from '../owner';
import { SecretHref, useSecretHref } from '../secretLink';
import { RelativeTime } from '../time/RelativeTime';
import { LastChange, OverviewRow, loadOverview } from './loadOverview';

/** Nothing to show in a cell: a symbol, not a word. */
const NONE = '—';

/** Who changed the values: their catalog entity's link, or the recorded text when it is no ref. */
function Actor({ actor }: { actor: string }) {
  // Recorded in a snapshot's annotations, which anyone who may edit them could have changed.
  const ref = tryNormalizeEntityRef(actor);
  return ref ? <EntityRefLink entityRef={ref} /> : <>{actor}</>;
}

/**
 * The card sits in the overview's narrow column (about 350 px at an 800 px window). The name
 * column asks for a share of the width, and the other columns take what their words need, so
 * that no word is broken inside; a name that does not fit is cut with an ellipsis.
 */
const useStyles = makeStyles(theme => ({
  cell: {
    padding: theme.spacing(0.75, 1),
    verticalAlign: 'top',
    // Only a word longer than its column is broken (a long actor or reason); others wrap whole.
    overflowWrap: 'break-word',
  },
  secretColumn: { width: '45%' },
  versionColumn: { whiteSpace: 'nowrap' },
  links: {
    display: 'flex',
    flexWrap: 'wrap',
    columnGap: theme.spacing(0.75),
    whiteSpace: 'nowrap',
  },
  visuallyHidden: VISUALLY_HIDDEN,
}));

/** No version yet: a dash for the narrow column, with the words for readers and on hover. */
function NoChangeYet() {
  const t = useKryptonT();
  const classes = useStyles();
  const text = t('overview.lastChange.none');
  return (
    <Tooltip title={text}>
      <span>
        <span aria-hidden="true">{NONE}</span>
        <span className={classes.visuallyHidden}>{text}</span>
      </span>
    </Tooltip>
  );
}

function LastChangeCell({ change }: { change: LastChange }) {
  const t = useKryptonT();
  switch (change.kind) {
    case 'change':
      return t('overview.lastChange.change', {
        by: <Actor actor={change.by} />,
        time: <RelativeTime value={change.at} />,
      });
    case 'none':
      return <NoChangeYet />;
    default:
      return <>{t('overview.lastChange.unknown')}</>;
  }
}

/** A readable row's state; a pending deletion is a warning, not a failure. */
function StatusCell({ item }: { item: OverviewRow }) {
  const { row, lastChange } = item;
  const t = useKryptonT();
  if (row.pending) {
    return (
      <StatusWarning>
        {t('overview.status.pending', {
          since: <RelativeTime value={row.pending} />,
        })}
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

/**
 * The name on one line, cut with an ellipsis when the column is too narrow, with where it lives
 * on hover (and focus, for the link); the links to its history and consumers go underneath,
 * which saves the column they had.
 */
function NameCell(props: {
  row: SecretRow;
  href?: SecretHref;
  showCluster: boolean;
  nameId: string;
}) {
  const { row, href, showCluster, nameId } = props;
  const t = useKryptonT();
  const classes = useStyles();
  const lines = useCellLineStyles();
  const full = showCluster
    ? t('overview.fullNameInCluster', {
        cluster: row.cluster || t('list.defaultCluster'),
        namespace: row.namespace,
        name: row.name,
      })
    : t('overview.fullName', { namespace: row.namespace, name: row.name });
  const linked = href && !row.problem;
  return (
    <>
      <span className={`${lines.fill} ${lines.oneLine}`}>
        <Tooltip title={full}>
          {linked ? (
            <Link id={nameId} to={href(row.location)}>
              {row.name}
            </Link>
          ) : (
            <span id={nameId}>{row.name}</span>
          )}
        </Tooltip>
      </span>
      {linked && (
        <Typography variant="caption" component="div" className={classes.links}>
          <Link
            to={href(row.location, undefined, 'history')}
            aria-label={t('overview.historyOf', { name: row.name })}
          >
            {t('overview.history')}
          </Link>
          <Link
            to={href(row.location, undefined, 'consumers')}
            aria-label={t('overview.consumersOf', { name: row.name })}
          >
            {t('overview.consumers')}
          </Link>
        </Typography>
      )}
      {row.summary?.owner && (
        <Box mt={0.5} className={lines.fill}>
          <OwnerChip secret={row.summary} />
        </Box>
      )}
    </>
  );
}

function OverviewRowView(props: {
  item: OverviewRow;
  href?: SecretHref;
  showCluster: boolean;
  loader: VersionsLoader;
}) {
  const { item, href, showCluster, loader } = props;
  const { row } = item;
  const t = useKryptonT();
  const classes = useStyles();
  const nameId = useId();
  const summary = row.problem ? undefined : row.summary;
  return (
    <TableRow>
      {/* Named by the Secret alone: the links and the owner's mark under it are no part of it. */}
      <TableCell
        component="th"
        scope="row"
        role="rowheader"
        aria-labelledby={nameId}
        className={classes.cell}
      >
        <NameCell
          row={row}
          href={href}
          showCluster={showCluster}
          nameId={nameId}
        />
      </TableCell>
      {summary ? (
        <>
          <TableCell className={classes.cell}>
            {formatVersion(t, summary.version)}
          </TableCell>
          <TableCell className={classes.cell}>
            {item.lastChange ? (
              <LastChangeCell change={item.lastChange} />
            ) : (
              NONE
            )}
          </TableCell>
          <TableCell className={classes.cell}>
            <StatusCell item={item} />
            <ConsumerVersionsBadge
              location={row.location}
              name={row.name}
              to={href?.(row.location, undefined, 'consumers')}
              loader={loader}
            />
          </TableCell>
        </>
      ) : (
        // A link that did not resolve has no version or change to show: its reason takes their
        // room, so that it wraps into a few lines instead of a word a line.
        <TableCell className={classes.cell} colSpan={3}>
          <StatusError>{row.problem ?? NONE}</StatusError>
        </TableCell>
      )}
    </TableRow>
  );
}

function OverviewTable(props: {
  rows: OverviewRow[];
  href?: SecretHref;
  showCluster: boolean;
}) {
  const { rows, href, showCluster } = props;
  const t = useKryptonT();
  const classes = useStyles();
  // The consumers of each shown row, read once it is on screen and a few at a time.
  const loader = useVersionsLoader();
  return (
    <Table size="small" aria-label={t('overview.tableLabel')}>
      <TableHead>
        <TableRow>
          <TableCell className={`${classes.cell} ${classes.secretColumn}`}>
            {t('overview.columns.secret')}
          </TableCell>
          <TableCell className={`${classes.cell} ${classes.versionColumn}`}>
            {t('overview.columns.version')}
          </TableCell>
          <TableCell className={classes.cell}>
            {t('overview.columns.lastChange')}
          </TableCell>
          <TableCell className={classes.cell}>
            {t('overview.columns.status')}
          </TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map(item => (
          <OverviewRowView
            key={item.row.id}
            item={item}
            href={href}
            showCluster={showCluster}
            loader={loader}
          />
        ))}
      </TableBody>
    </Table>
  );
}

/**
 * The entity overview's card: the entity's linked Secrets with their version, the last change of
 * values through Krypton (who and when, from the newest history version), any problem, and
 * whether the pods of its consumers hold its live version, with links to each Secret's history
 * and consumers under its name.
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
