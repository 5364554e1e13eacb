import { entityRouteRef } from '@backstage/plugin-catalog-react';
import { renderInTestApp } from '@backstage/test-utils';
import { SecretSummary } from '@krypton/core';
import { screen, within } from '@testing-library/react';
import { KryptonApis, TestConfig, summary } from '../../__testUtils__/krypton';
import { SecretFacts, groupMetadata } from './SecretFacts';

const HOUR = 3600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

function renderFacts(
  secret: SecretSummary,
  config?: TestConfig,
  namedByPage?: boolean,
) {
  return renderInTestApp(
    <KryptonApis config={config}>
      <SecretFacts secret={secret} namedByPage={namedByPage} />
    </KryptonApis>,
    { mountedRoutes: { '/catalog/:namespace/:kind/:name': entityRouteRef } },
  );
}

const section = (name: string) => screen.getByRole('region', { name });

/** The value shown for a key in a metadata list. */
function valueOf(region: HTMLElement, key: string): HTMLElement {
  const term = within(region).getByText(key, { selector: 'dt' });
  const value = term.nextElementSibling;
  if (!(value instanceof HTMLElement)) throw new Error(`no value for ${key}`);
  return value;
}

const described = (overrides: Partial<SecretSummary> = {}) =>
  summary({
    access: {
      owners: ['group:default/team-a', 'bob smith'],
      editors: ['user:default/alice'],
      viewers: [],
    },
    labels: { app: 'payments', 'krypton.io/managed-by': 'krypton' },
    annotations: {
      'krypton.io/version': '3',
      'krypton.io/owners': 'group:team-a, bob smith',
      'krypton.io/editors': 'user:alice',
      'krypton.io/description': 'Database credentials',
      'example.com/ticket': 'OPS-1',
    },
    ownerReferences: [
      { kind: 'Deployment', name: 'api', uid: 'd1', controller: true },
      { kind: 'ConfigMap', name: 'cfg', uid: 'c1', controller: false },
    ],
    creationTimestamp: ago(72 * HOUR),
    lastChange: { time: ago(2 * HOUR + 60_000), manager: 'kubectl-edit' },
    ...overrides,
  });

describe('SecretFacts', () => {
  it("groups Krypton's own labels and annotations under readable names, apart from the rest", async () => {
    await renderFacts(described());

    const krypton = section('Krypton');
    expect(
      within(krypton)
        .getAllByRole('term')
        .map(t => t.textContent),
    ).toEqual(['description', 'editors', 'managed-by', 'owners', 'version']);
    expect(valueOf(krypton, 'version')).toHaveTextContent('3');
    expect(valueOf(krypton, 'managed-by')).toHaveTextContent('krypton');
    // The access rules are catalog links; an entry that is no ref stays text.
    const owners = valueOf(krypton, 'owners');
    expect(within(owners).getByRole('link')).toHaveAttribute(
      'href',
      '/catalog/default/group/team-a',
    );
    expect(owners).toHaveTextContent(/, bob smith$/);
    expect(
      within(valueOf(krypton, 'editors')).getByRole('link'),
    ).toHaveAttribute('href', '/catalog/default/user/alice');

    const labels = section('Labels');
    expect(
      within(labels)
        .getAllByRole('term')
        .map(t => t.textContent),
    ).toEqual(['app']);
    expect(valueOf(labels, 'app')).toHaveTextContent('payments');
    const annotations = section('Annotations');
    expect(
      within(annotations)
        .getAllByRole('term')
        .map(t => t.textContent),
    ).toEqual(['example.com/ticket']);
    expect(valueOf(annotations, 'example.com/ticket')).toHaveTextContent(
      'OPS-1',
    );
  });

  it('shows the owner references, the age and the last change', async () => {
    const secret = described();
    await renderFacts(secret);

    const owners = within(section('Owner references')).getAllByRole('listitem');
    expect(owners.map(o => o.textContent)).toEqual([
      'Deployment/api (controller)',
      'ConfigMap/cfg',
    ]);

    const created = screen.getByText('3 days ago');
    expect(created.tagName).toBe('TIME');
    expect(created).toHaveAttribute('datetime', secret.creationTimestamp);
    const changed = screen.getByText('2 hours ago');
    expect(changed).toHaveAttribute('datetime', secret.lastChange!.time);
    expect(changed.closest('dd')).toHaveTextContent(
      '2 hours ago by kubectl-edit',
    );
    expect(screen.getByText('Last change').tagName).toBe('DT');
  });

  it('puts the version, the last change, the owners and the owning tool first, and not again below', async () => {
    await renderFacts(
      described({
        version: 7,
        owner: {
          tool: 'external-secrets',
          kind: 'ExternalSecret',
          name: 'db-creds',
          outcome: 'reverted-at-once-or-refresh',
          evidence: ['ownerReferences'],
          edits: 'refused',
        },
      }),
    );

    const top = section('Key facts');
    expect(
      within(top)
        .getAllByRole('term')
        .map(t => t.textContent),
    ).toEqual(['Version', 'Last change', 'Owners', 'Owning tool']);
    expect(valueOf(top, 'Version')).toHaveTextContent(/^7$/);
    expect(valueOf(top, 'Last change')).toHaveTextContent(
      '2 hours ago by kubectl-edit',
    );
    const owners = valueOf(top, 'Owners');
    expect(within(owners).getByRole('link')).toHaveAttribute(
      'href',
      '/catalog/default/group/team-a',
    );
    expect(owners).toHaveTextContent(/, bob smith$/);
    expect(valueOf(top, 'Owning tool')).toHaveTextContent(/^External Secrets$/);

    const rest = screen.getByText('Cluster', { selector: 'dt' }).parentElement
      ?.parentElement as HTMLElement;
    expect(
      within(rest)
        .getAllByRole('term')
        .map(t => t.textContent),
    ).toEqual([
      'Cluster',
      'Namespace',
      'Type',
      'Managed',
      'Immutable',
      'Pending deletion',
      'Created',
    ]);
    // The owner's banner still says what a change comes to, below the facts.
    expect(
      screen.getByRole('region', { name: 'Owned by External Secrets' }),
    ).toBeInTheDocument();
  });

  it('says who owns a Secret whose access rules name no owner', async () => {
    await renderFacts(
      described({ access: { owners: [], editors: [], viewers: [] } }),
    );
    expect(valueOf(section('Key facts'), 'Owners')).toHaveTextContent(/^—$/);
    expect(screen.queryByText('Owning tool')).toBeNull();
  });

  it('is titled by the Secret where the page does not name it, and never repeats the name as a fact', async () => {
    await renderFacts(described());
    expect(screen.getAllByText('db')).toHaveLength(1);
    expect(screen.queryByText('Details')).toBeNull();
    expect(screen.queryByText('Name', { selector: 'dt' })).toBeNull();
  });

  it('takes a neutral title where the page names the Secret already', async () => {
    await renderFacts(described(), undefined, true);
    expect(screen.getByText('Details')).toBeInTheDocument();
    expect(screen.queryByText('db')).toBeNull();
    // The description stays under the title: the page's header does not show it.
    const krypton = section('Krypton');
    expect(
      screen
        .getAllByText('Database credentials')
        .filter(text => !krypton.contains(text)),
    ).toHaveLength(1);
    expect(screen.queryByText('Name', { selector: 'dt' })).toBeNull();
  });

  it('shows the pending deletion as a relative time', async () => {
    const since = ago(5 * 60_000);
    await renderFacts(described({ deletionTimestamp: since }));
    const time = screen.getByText('5 minutes ago');
    expect(time).toHaveAttribute('datetime', since);
    expect(time.closest('dd')).toHaveTextContent('Since 5 minutes ago');
  });

  it('groups by the configured prefix', async () => {
    await renderFacts(
      described({
        annotations: {
          'krypton.io/version': '3',
          'secrets.example.com/version': '4',
        },
        labels: {},
      }),
      { krypton: { annotationPrefix: 'secrets.example.com' } },
    );
    expect(valueOf(section('Krypton'), 'version')).toHaveTextContent('4');
    expect(
      valueOf(section('Annotations'), 'krypton.io/version'),
    ).toHaveTextContent('3');
    expect(screen.queryByRole('region', { name: 'Labels' })).toBeNull();
  });

  it('says how many annotations the server left out', async () => {
    await renderFacts(described({ withheldAnnotations: 2 }));
    const annotations = section('Annotations');
    expect(
      within(annotations)
        .getAllByRole('term')
        .map(t => t.textContent),
    ).toEqual(['example.com/ticket']);
    expect(annotations).toHaveTextContent(
      '2 annotations are not shown, because they may hold or reveal values.',
    );
  });

  it('keeps the annotations section for a count alone, in the singular', async () => {
    await renderFacts(
      described({
        annotations: { 'krypton.io/version': '3' },
        withheldAnnotations: 1,
      }),
    );
    const annotations = section('Annotations');
    expect(within(annotations).queryAllByRole('term')).toEqual([]);
    expect(annotations).toHaveTextContent(
      '1 annotation is not shown, because it may hold or reveal values.',
    );
  });

  it('says nothing of withheld annotations when none were', async () => {
    await renderFacts(described({ withheldAnnotations: 0 }));
    expect(screen.queryByText(/not shown/)).toBeNull();
  });

  it('leaves out what a summary does not carry', async () => {
    await renderFacts(summary());
    expect(screen.getByText('Cluster')).toBeInTheDocument();
    for (const name of [
      'Krypton',
      'Labels',
      'Annotations',
      'Owner references',
    ]) {
      expect(screen.queryByRole('region', { name })).toBeNull();
    }
    expect(screen.queryByText('Created')).toBeNull();
    expect(screen.queryByText('Last change')).toBeNull();
  });
});

describe('groupMetadata', () => {
  it('needs the prefix followed by a slash and a name', () => {
    expect(
      groupMetadata(
        {
          labels: { 'krypton.io/': 'x', 'krypton.iox/y': 'z' },
          annotations: { 'krypton.io/keys': 'a' },
        },
        'krypton.io',
      ),
    ).toEqual({
      krypton: [{ key: 'krypton.io/keys', name: 'keys', value: 'a' }],
      labels: [
        { key: 'krypton.io/', value: 'x' },
        { key: 'krypton.iox/y', value: 'z' },
      ],
      annotations: [],
    });
  });
});
