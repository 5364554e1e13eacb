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
import Typography from '@material-ui/core/Typography';
import ChevronRightIcon from '@material-ui/icons/ChevronRight';
import ExpandMoreIcon from '@material-ui/icons/ExpandMore';
import { ReactNode, useId, useMemo, useState } from 'react';
import { KryptonT, useKryptonT } from '../../translation';
import { OwnerChip } from '../owner';
import { SecretHref } from '../secretLink';
import { RelativeTime } from '../time/RelativeTime';
import { EntityRefList } from './EntityRefList';
import { SecretRow, ShownSecretRow, keyCountOf, shownRow } from './secretRows';

export interface SecretTableProps {
  title: string;
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
}

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
      <Box minWidth={0} pt={0.5}>
        <Typography
          variant="body2"
          component="div"
          style={{ overflowWrap: 'break-word', fontWeight: 500 }}
        >
          {href && !row.problem ? (
            <Link to={href(row.location)}>{row.name}</Link>
          ) : (
            row.name
          )}
        </Typography>
        <Typography variant="caption" color="textSecondary">
          {where}
        </Typography>
        {row.summary?.owner && (
          <Box mt={0.5}>
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
  if (!row.lastChange) return <>—</>;
  const manager = row.summary?.lastChange?.manager;
  return (
    <>
      <RelativeTime value={row.lastChange} />
      {manager && (
        <Typography
          variant="caption"
          component="div"
          color="textSecondary"
          style={{ overflowWrap: 'break-word' }}
        >
          {t('list.lastChangeBy', { manager })}
        </Typography>
      )}
    </>
  );
}

const nowrap = { whiteSpace: 'nowrap' } as const;

function columns(
  t: KryptonT,
  href: SecretHref | undefined,
  showCluster: boolean,
  actions: SecretTableProps['actions'],
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
      cellStyle: { minWidth: 240, width: '45%' },
      headerStyle: { minWidth: 240 },
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
      cellStyle: nowrap,
      headerStyle: nowrap,
    },
    {
      title: t('list.columns.status'),
      field: 'status',
      cellStyle: { minWidth: 120 },
      render: row => <StatusCell row={row} />,
    },
    {
      title: t('list.columns.lastChange'),
      field: 'lastChange',
      cellStyle: { minWidth: 110 },
      headerStyle: nowrap,
      render: row => <LastChangeCell row={row} />,
    },
  ];
  if (actions) {
    all.push({
      title: t('list.columns.actions'),
      field: 'actions',
      sorting: false,
      cellStyle: nowrap,
      render: actions,
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
}: SecretTableProps) => {
  const t = useKryptonT();
  const shown = useMemo(() => rows.map(row => shownRow(t, row)), [rows, t]);
  return (
    <Table<ShownSecretRow>
      title={title}
      options={{ paging: rows.length > 50, pageSize: 50, search }}
      columns={columns(t, href, showCluster, actions)}
      data={shown}
      isLoading={isLoading}
      emptyContent={emptyContent}
    />
  );
};
