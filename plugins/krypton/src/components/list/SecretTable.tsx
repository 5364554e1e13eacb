import {
  Link,
  StatusError,
  StatusOK,
  StatusWarning,
  Table,
  TableColumn,
} from '@backstage/core-components';
import { isSecretSummary } from '@krypton/core';
import Box from '@material-ui/core/Box';
import IconButton from '@material-ui/core/IconButton';
import Tooltip from '@material-ui/core/Tooltip';
import Typography from '@material-ui/core/Typography';
import { makeStyles } from '@material-ui/core/styles';
import ChevronRightIcon from '@material-ui/icons/ChevronRight';
import ExpandMoreIcon from '@material-ui/icons/ExpandMore';
import { ReactElement, ReactNode, useId, useMemo, useState } from 'react';
import { KryptonT, useKryptonT } from '../../translation';
import { OwnerChip } from '../owner';
import { SecretHref } from '../secretLink';
import { RelativeTime } from '../time/RelativeTime';
import { useCellLineStyles } from './cellLines';
import { EntityRefList } from './EntityRefList';
import { SecretRow, ShownSecretRow, keyCountOf, shownRow } from './secretRows';

export interface SecretTableProps {
  title: string | ReactElement;
  rows: SecretRow[];
  /** Links names to the detail view; names are plain text without it. */
  href?: SecretHref;
  /** Shows the cluster under each name, for lists that span clusters. */
  showCluster?: boolean;
  /** The table's own search box, for long namespace lists. */
  search?: boolean;
  isLoading?: boolean;
  emptyContent?: ReactNode;
  /** Extra links of a row, in a last column. */
  actions?: (row: SecretRow) => ReactNode;
  /** More about a row's state, under its status (the entity tab's consumers). */
  statusExtra?: (row: SecretRow) => ReactNode;
}

/**
 * An automatic table gives each column at least its widest line that cannot wrap, and Backstage's
 * cells break words anywhere to stay narrower than that: at an 800 px window the table spilled
 * out of its card and "Readable" broke mid-word. Here words stay whole; a name, its namespace and
 * the tool that last changed it are one line each, cut with an ellipsis (the whole text on hover)
 * instead of breaking at their hyphens, and a narrow table has narrower cell paddings.
 */
const useStyles = makeStyles({
  table: {
    containerType: 'inline-size',
    '& td': { wordBreak: 'normal' },
    '@container (max-width: 720px)': {
      '& $lastChange': { minWidth: 0 },
      '& $actions': { whiteSpace: 'normal' },
      '& th, & td': { paddingLeft: 6, paddingRight: 6 },
      '& th:first-child, & td:first-child': { paddingLeft: 16 },
      // A sort arrow keeps its room in every header while hidden; only the sorted column's shows.
      '& th [class*="MuiTableSortLabel-root"]:not([class*="MuiTableSortLabel-active"]) [class*="MuiTableSortLabel-icon"]':
        { display: 'none' },
    },
  },
  // Room for a tool's name such as kubectl-client-side-apply, unless the table is narrow.
  lastChange: { minWidth: '11rem' },
  // A row's actions on one line, unless the table is narrow.
  actions: { whiteSpace: 'nowrap' },
});

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box minWidth={96}>
      <Typography variant="caption" component="dt" color="textSecondary">
        {label}
      </Typography>
      <Typography variant="body2" component="dd" style={{ margin: 0 }}>
        {children}
      </Typography>
    </Box>
  );
}

/** The secondary facts of a readable row, shown under its name on request. */
function RowDetails({ id, row }: { id: string; row: SecretRow }) {
  const t = useKryptonT();
  const summary = row.summary!;
  const yesNo = (value: boolean) => (value ? t('list.yes') : t('list.no'));
  return (
    <Box
      id={id}
      component="dl"
      display="flex"
      flexWrap="wrap"
      mt={1}
      mb={0}
      style={{ gap: '8px 24px' }}
    >
      <Detail label={t('list.details.cluster')}>{row.cluster}</Detail>
      <Detail label={t('list.details.namespace')}>{row.namespace}</Detail>
      <Detail label={t('list.details.type')}>{summary.type}</Detail>
      <Detail label={t('list.details.managed')}>
        {yesNo(summary.managed)}
      </Detail>
      {/* A list's row does not know immutability: its History tab tells. */}
      {isSecretSummary(summary) && (
        <Detail label={t('list.details.immutable')}>
          {yesNo(summary.immutable)}
        </Detail>
      )}
      <Detail label={t('list.details.pendingDeletion')}>
        {row.pending
          ? t('list.details.since', {
              time: <RelativeTime value={row.pending} />,
            })
          : t('list.no')}
      </Detail>
      <Detail label={t('list.details.keys')}>{keyCountOf(summary)}</Detail>
      {isSecretSummary(summary) && (
        <Detail label={t('list.details.binaryKeys')}>
          {summary.binaryKeys.length}
        </Detail>
      )}
      <Detail label={t('list.details.owners')}>
        <EntityRefList refs={summary.access.owners} />
      </Detail>
      {summary.creationTimestamp && (
        <Detail label={t('list.details.created')}>
          <RelativeTime value={summary.creationTimestamp} />
        </Detail>
      )}
    </Box>
  );
}

/**
 * The name with room to breathe: where the Secret lives underneath, the tool that owns it, and a
 * toggle that shows the secondary facts below it, so the table keeps few columns at laptop widths.
 */
function NameCell(props: {
  row: SecretRow;
  href?: SecretHref;
  showCluster: boolean;
}) {
  const { row, href, showCluster } = props;
  const t = useKryptonT();
  const lines = useCellLineStyles();
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const where = showCluster
    ? t('list.where', {
        cluster: row.cluster || t('list.defaultCluster'),
        namespace: row.namespace,
      })
    : row.namespace;
  return (
    <Box display="flex" alignItems="flex-start" style={{ gap: 4 }}>
      {row.summary ? (
        <IconButton
          size="small"
          aria-label={t('list.details.toggle', { name: row.name })}
          aria-expanded={open}
          aria-controls={open ? detailsId : undefined}
          onClick={() => setOpen(o => !o)}
        >
          {open ? (
            <ExpandMoreIcon fontSize="small" />
          ) : (
            <ChevronRightIcon fontSize="small" />
          )}
        </IconButton>
      ) : (
        // Keeps names aligned: a row that did not resolve has no facts to show.
        <Box width={26} flexShrink={0} />
      )}
      <Box flexGrow={1} minWidth={0} pt={0.5}>
        <Typography
          variant="body2"
          component="div"
          className={`${lines.fill} ${lines.oneLine}`}
          style={{ fontWeight: 500 }}
        >
          <Tooltip title={row.name}>
            {href && !row.problem ? (
              <Link to={href(row.location)}>{row.name}</Link>
            ) : (
              <span>{row.name}</span>
            )}
          </Tooltip>
        </Typography>
        <Typography
          variant="caption"
          component="div"
          color="textSecondary"
          className={`${lines.fill} ${lines.oneLine}`}
          title={where}
        >
          {where}
        </Typography>
        {row.summary?.owner && (
          <Box mt={0.5} className={lines.fill}>
            <OwnerChip secret={row.summary} />
          </Box>
        )}
        {open && row.summary && <RowDetails id={detailsId} row={row} />}
      </Box>
    </Box>
  );
}

function StatusCell({ row }: { row: ShownSecretRow }) {
  if (row.problem) return <StatusError>{row.problem}</StatusError>;
  if (row.pending) return <StatusWarning>{row.status}</StatusWarning>;
  return <StatusOK>{row.status}</StatusOK>;
}

function LastChangeCell({ row }: { row: SecretRow }) {
  const t = useKryptonT();
  const classes = useStyles();
  const lines = useCellLineStyles();
  if (!row.lastChange) return <>—</>;
  const manager = row.summary?.lastChange?.manager;
  return (
    <div className={classes.lastChange}>
      <RelativeTime value={row.lastChange} />
      {manager && (
        // A tool's name such as kubectl-client-side-apply is one word to its reader.
        <Typography
          variant="caption"
          component="div"
          color="textSecondary"
          className={`${lines.fill} ${lines.oneLine}`}
          title={manager}
        >
          {t('list.lastChangeBy', { manager })}
        </Typography>
      )}
    </div>
  );
}

function ActionsCell({ children }: { children: ReactNode }) {
  const classes = useStyles();
  return <div className={classes.actions}>{children}</div>;
}

const nowrap = { whiteSpace: 'nowrap' } as const;

function columns(
  t: KryptonT,
  href: SecretHref | undefined,
  showCluster: boolean,
  actions: SecretTableProps['actions'],
  statusExtra: SecretTableProps['statusExtra'],
): TableColumn<ShownSecretRow>[] {
  // Hidden columns stay searchable, so the search box still finds a Secret by these facts.
  const searchableOnly = (
    title: string,
    field: keyof ShownSecretRow,
  ): TableColumn<ShownSecretRow> => ({
    title,
    field,
    hidden: true,
    searchable: true,
  });
  const all: TableColumn<ShownSecretRow>[] = [
    {
      title: t('list.columns.name'),
      field: 'name',
      highlight: true,
      // The name takes its share first; the other columns, their words' width and what is left.
      width: '40%',
      render: row => (
        <NameCell row={row} href={href} showCluster={showCluster} />
      ),
    },
    searchableOnly(t('list.columns.namespace'), 'namespace'),
    searchableOnly(t('list.columns.cluster'), 'cluster'),
    searchableOnly(t('list.columns.owners'), 'ownersText'),
    {
      title: t('list.columns.version'),
      field: 'version',
      width: 'auto',
      cellStyle: nowrap,
      headerStyle: nowrap,
    },
    {
      title: t('list.columns.status'),
      field: 'status',
      width: 'auto',
      render: row => (
        <>
          <StatusCell row={row} />
          {statusExtra?.(row)}
        </>
      ),
    },
    {
      title: t('list.columns.lastChange'),
      field: 'lastChange',
      width: 'auto',
      render: row => <LastChangeCell row={row} />,
    },
  ];
  if (actions) {
    all.push({
      title: t('list.columns.actions'),
      field: 'actions',
      sorting: false,
      width: 'auto',
      render: row => <ActionsCell>{actions(row)}</ActionsCell>,
    });
  }
  return all;
}

/** Secrets as the entity tab and the platform page list them. */
export const SecretTable = ({
  title,
  rows,
  href,
  showCluster = false,
  search = false,
  isLoading,
  emptyContent,
  actions,
  statusExtra,
}: SecretTableProps) => {
  const t = useKryptonT();
  const classes = useStyles();
  const shown = useMemo(() => rows.map(row => shownRow(t, row)), [rows, t]);
  return (
    <div className={classes.table}>
      <Table<ShownSecretRow>
        title={title}
        options={{ paging: rows.length > 50, pageSize: 50, search }}
        columns={columns(t, href, showCluster, actions, statusExtra)}
        data={shown}
        isLoading={isLoading}
        emptyContent={emptyContent}
      />
    </div>
  );
};
