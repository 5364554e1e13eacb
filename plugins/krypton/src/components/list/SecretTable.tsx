import {
  Link,
  StatusError,
  StatusOK,
  StatusWarning,
  Table,
  TableColumn,
} from '@backstage/core-components';
import { ReactNode } from 'react';
import { SecretHref } from '../secretLink';
import { SecretRow } from './secretRows';

export interface SecretTableProps {
  title: string;
  rows: SecretRow[];
  /** Links names to the detail view; names are plain text without it. */
  href?: SecretHref;
  /** Shows the cluster column, for lists that span clusters. */
  showCluster?: boolean;
  /** The table's own search box, for long namespace lists. */
  search?: boolean;
  isLoading?: boolean;
  emptyContent?: ReactNode;
  /** Extra links of a row, in a last column. */
  actions?: (row: SecretRow) => ReactNode;
}

function columns(
  href: SecretHref | undefined,
  showCluster: boolean,
  actions: SecretTableProps['actions'],
): TableColumn<SecretRow>[] {
  const all: TableColumn<SecretRow>[] = [
    {
      title: 'Name',
      field: 'name',
      highlight: true,
      render: row =>
        href && !row.problem ? (
          <Link to={href(row.location)}>{row.name}</Link>
        ) : (
          row.name
        ),
    },
    { title: 'Namespace', field: 'namespace' },
    { title: 'Cluster', field: 'cluster', hidden: !showCluster },
    { title: 'Version', field: 'version' },
    { title: 'Managed', field: 'managed' },
    { title: 'Immutable', field: 'immutable' },
    {
      title: 'Pending deletion',
      field: 'pending',
      render: row => {
        if (row.problem) return '—';
        return row.pending ? (
          <StatusWarning>Deleting since {row.pending}</StatusWarning>
        ) : (
          'No'
        );
      },
    },
    { title: 'Binary keys', field: 'binaryKeys' },
    { title: 'Owners', field: 'owners' },
    {
      title: 'Status',
      field: 'status',
      render: row =>
        row.problem ? (
          <StatusError>{row.problem}</StatusError>
        ) : (
          <StatusOK>{row.status}</StatusOK>
        ),
    },
  ];
  if (actions) {
    all.push({ title: 'Actions', field: 'actions', render: actions });
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
}: SecretTableProps) => (
  <Table<SecretRow>
    title={title}
    options={{ paging: rows.length > 50, pageSize: 50, search }}
    columns={columns(href, showCluster, actions)}
    data={rows}
    isLoading={isLoading}
    emptyContent={emptyContent}
  />
);
