import {
  EmptyState,
  Link,
  Progress,
  ResponseErrorPanel,
  Table,
  TableColumn,
} from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import {
  INVENTORY_MAX_OBJECTS,
  MANAGED_NAMESPACES_MAX,
  ManagedNamespace,
} from '@krypton/core';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { MouseEvent, useMemo } from 'react';
import useAsync from 'react-use/esm/useAsync';
import { kryptonApiRef } from '../../api/KryptonApi';
import { failureOf } from '../../api/failure';
import { KryptonT, useKryptonT } from '../../translation';

export interface ManagedNamespacesProps {
  /** The cluster as the API addresses it (none for the default cluster). */
  cluster?: string;
  /** The page's address of a namespace's list, so that a namespace also opens in a new tab. */
  hrefOf: (namespace: string) => string;
  /** Chooses a namespace on this page. */
  onChoose: (namespace: string) => void;
}

// material-table adds its own state to each row object, so rows are copies of the answer's items.
type Row = ManagedNamespace & { id: string };

/** A click that the browser would not turn into a new tab or window. */
function isPlainClick(e: MouseEvent): boolean {
  return e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey;
}

function countWords(t: KryptonT, secrets: number | null): string {
  return secrets === null
    ? t('platform.managed.uncounted', { max: INVENTORY_MAX_OBJECTS })
    : t('platform.managed.secrets', { count: secrets });
}

/** Why some namespaces are missing from the view: Krypton looks in a limited number of them. */
function NotLookedIn({ count }: { count: number }) {
  const t = useKryptonT();
  if (count <= 0) return null;
  return (
    <Typography variant="body2" color="textSecondary">
      {t('platform.managed.notLookedIn', {
        count,
        max: MANAGED_NAMESPACES_MAX,
      })}
    </Typography>
  );
}

/**
 * The platform page's first view, before a namespace is chosen: where the user's Krypton Secrets
 * are, with how many, so that most users need not know a namespace's name to start.
 */
export const ManagedNamespaces = (props: ManagedNamespacesProps) => {
  const { cluster, hrefOf, onChoose } = props;
  const api = useApi(kryptonApiRef);
  const t = useKryptonT();
  const state = useAsync(
    () => api.listManagedNamespaces(cluster),
    [api, cluster],
  );
  const rows = useMemo<Row[]>(
    () =>
      (state.value?.items ?? []).map(item => ({ ...item, id: item.namespace })),
    [state.value],
  );
  const columns = useMemo<TableColumn<Row>[]>(
    () => [
      {
        title: t('platform.managed.columns.namespace'),
        field: 'namespace',
        highlight: true,
        render: row => (
          <Link
            to={hrefOf(row.namespace)}
            onClick={e => {
              // The page's own choice, so that the address is written one way; a new tab
              // follows the link's address, which is the same.
              if (!isPlainClick(e)) return;
              e.preventDefault();
              onChoose(row.namespace);
            }}
          >
            {row.namespace}
          </Link>
        ),
      },
      {
        title: t('platform.managed.columns.secrets'),
        field: 'secrets',
        searchable: false,
        render: row => countWords(t, row.secrets),
      },
    ],
    [t, hrefOf, onChoose],
  );

  if (state.loading) return <Progress />;
  if (state.error) {
    // Not being allowed to list namespaces is a normal state: the picker takes a typed name.
    if (failureOf(state.error).kind === 'forbidden') {
      return (
        <Typography variant="body2" color="textSecondary">
          {t('platform.managed.refused')}
        </Typography>
      );
    }
    return (
      <ResponseErrorPanel
        error={state.error}
        title={t('platform.managed.failed')}
      />
    );
  }

  const notLookedIn = state.value?.notLookedIn ?? 0;
  if (rows.length === 0) {
    return (
      <Box>
        <EmptyState
          missing="content"
          title={
            notLookedIn > 0
              ? t('platform.managed.emptyTitlePartial', {
                  max: MANAGED_NAMESPACES_MAX,
                })
              : t('platform.managed.emptyTitle')
          }
          description={t('platform.managed.emptyDescription', {
            show: t('platform.picker.show'),
            create: t('platform.namespace.create'),
            adopt: t('platform.namespace.adopt'),
          })}
        />
        <NotLookedIn count={notLookedIn} />
      </Box>
    );
  }

  return (
    <Box display="flex" flexDirection="column" style={{ gap: 8 }}>
      <Table<Row>
        title={t('platform.managed.title')}
        columns={columns}
        data={rows}
        options={{
          paging: rows.length > 50,
          pageSize: 50,
          search: rows.length > 10,
          padding: 'dense',
        }}
      />
      <NotLookedIn count={notLookedIn} />
    </Box>
  );
};
