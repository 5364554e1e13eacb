import { entityRouteRef } from '@backstage/plugin-catalog-react';
import { renderInTestApp } from '@backstage/test-utils';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { listItem, summary } from '../../__testUtils__/krypton';
import { SecretTable } from './SecretTable';
import { problemRow, summaryRow } from './secretRows';

const HOUR = 3600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

const rows = [
  summaryRow(
    summary({
      name: 'database-credentials',
      binaryKeys: ['keystore.bin'],
      keys: ['keystore.bin', 'password', 'username'],
      immutable: true,
      access: {
        owners: ['group:default/team-b', 'user:default/bob'],
        editors: [],
        viewers: [],
      },
      creationTimestamp: ago(72 * HOUR),
      lastChange: { time: ago(2 * HOUR + 60_000), manager: 'kubectl-edit' },
    }),
    { namespace: 'demo', name: 'database-credentials' },
  ),
  // A row from a list: it knows the key count only.
  summaryRow(
    listItem({
      name: 'leaving',
      keyCount: 4,
      deletionTimestamp: ago(5 * 60_000),
      creationTimestamp: ago(30 * 24 * HOUR),
    }),
    { namespace: 'demo', name: 'leaving' },
  ),
  problemRow({ namespace: 'demo', name: 'gone' }, 'The Secret was not found.'),
];

function renderTable(props: { search?: boolean; showCluster?: boolean } = {}) {
  return renderInTestApp(
    <SecretTable
      title="Linked Secrets"
      rows={rows}
      href={location =>
        `/krypton/secret/${location.namespace}/${location.name}`
      }
      actions={secretRow => <span>Act on {secretRow.name}</span>}
      {...props}
    />,
    { mountedRoutes: { '/catalog/:namespace/:kind/:name': entityRouteRef } },
  );
}

function row(name: string): HTMLElement {
  const tr = screen.getByText(name, { selector: 'td, td *' }).closest('tr');
  if (!tr) throw new Error(`no row for ${name}`);
  return tr;
}

/** The value shown for a fact in a row's details. */
function detail(region: HTMLElement, label: string): HTMLElement {
  const value = within(region).getByText(label, {
    selector: 'dt',
  }).nextElementSibling;
  if (!(value instanceof HTMLElement)) throw new Error(`no ${label}`);
  return value;
}

describe('SecretTable', () => {
  it('gives the name room: few columns, the namespace under the name', async () => {
    await renderTable();
    expect(screen.getAllByRole('columnheader').map(h => h.textContent)).toEqual(
      ['Name', 'Version', 'Status', 'Last change', 'Actions'],
    );

    const db = row('database-credentials');
    expect(
      within(db).getByRole('link', { name: 'database-credentials' }),
    ).toHaveAttribute('href', '/krypton/secret/demo/database-credentials');
    expect(within(db).getByText('demo')).toBeInTheDocument();
    expect(within(db).getByText('3')).toBeInTheDocument();
    expect(within(db).getByText('Readable')).toBeInTheDocument();
    const changed = within(db).getByText('2 hours ago');
    expect(changed.tagName).toBe('TIME');
    expect(within(db).getByText('by kubectl-edit')).toBeInTheDocument();
    expect(
      within(db).getByText('Act on database-credentials'),
    ).toBeInTheDocument();
    // Secondary facts wait behind the toggle.
    expect(within(db).queryByText('Binary keys')).toBeNull();

    // Without a last change, the age stands in.
    const leaving = row('leaving');
    expect(within(leaving).getByText('Deleting')).toBeInTheDocument();
    expect(within(leaving).getByText('last month')).toBeInTheDocument();

    const gone = row('gone');
    expect(
      within(gone).getByText('The Secret was not found.'),
    ).toBeInTheDocument();
    expect(within(gone).queryByRole('link')).toBeNull();
    expect(within(gone).queryByRole('button')).toBeNull();
  });

  it('shows the secondary facts of a row on request', async () => {
    const user = userEvent.setup();
    await renderTable();
    const toggle = within(row('database-credentials')).getByRole('button', {
      name: 'Details of database-credentials',
    });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const details = document.getElementById(
      toggle.getAttribute('aria-controls')!,
    )!;
    expect(details).toBeInTheDocument();
    expect(detail(details, 'Cluster')).toHaveTextContent('local');
    expect(detail(details, 'Namespace')).toHaveTextContent('demo');
    expect(detail(details, 'Type')).toHaveTextContent('Opaque');
    expect(detail(details, 'Managed')).toHaveTextContent('Yes');
    expect(detail(details, 'Immutable')).toHaveTextContent('Yes');
    expect(detail(details, 'Pending deletion')).toHaveTextContent('No');
    expect(detail(details, 'Keys')).toHaveTextContent('3');
    expect(detail(details, 'Binary keys')).toHaveTextContent('1');
    expect(
      within(detail(details, 'Owners'))
        .getAllByRole('link')
        .map(a => a.getAttribute('href')),
    ).toEqual(['/catalog/default/group/team-b', '/catalog/default/user/bob']);
    expect(detail(details, 'Created')).toHaveTextContent('3 days ago');

    await user.click(
      within(row('leaving')).getByRole('button', {
        name: 'Details of leaving',
      }),
    );
    expect(
      within(row('leaving')).getByText('Since', { exact: false }),
    ).toHaveTextContent('Since 5 minutes ago');
    const listed = document.getElementById(
      within(row('leaving'))
        .getByRole('button', { name: 'Details of leaving' })
        .getAttribute('aria-controls')!,
    )!;
    expect(detail(listed, 'Keys')).toHaveTextContent('4');
    // A list never reads the full object: what only it tells is not claimed.
    expect(within(listed).queryByText('Immutable')).toBeNull();
    expect(within(listed).queryByText('Binary keys')).toBeNull();

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(
      within(row('database-credentials')).queryByText('Binary keys'),
    ).toBeNull();
  });

  it('names the cluster under the name for lists that span clusters', async () => {
    await renderTable({ showCluster: true });
    expect(
      within(row('database-credentials')).getByText('local / demo'),
    ).toBeInTheDocument();
  });

  it('still finds Secrets by the facts it no longer shows as columns', async () => {
    const user = userEvent.setup();
    await renderTable({ search: true });
    await user.type(screen.getByPlaceholderText('Filter'), 'team-b');
    await waitFor(() => expect(screen.queryByText('leaving')).toBeNull());
    expect(screen.getByText('database-credentials')).toBeInTheDocument();
  });
});
