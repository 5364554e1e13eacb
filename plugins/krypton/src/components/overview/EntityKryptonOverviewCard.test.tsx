import { Entity } from '@backstage/catalog-model';
import {
  EntityProvider,
  entityRouteRef,
} from '@backstage/plugin-catalog-react';
import { registerMswTestHooks, renderInTestApp } from '@backstage/test-utils';
import { VersionSummary, messages } from '@krypton/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { KryptonApis, baseUrl, summary } from '../../__testUtils__/krypton';
import { rootRouteRef } from '../../routes';
import {
  versions,
  versionsSummary,
} from '../consumers/__testUtils__/consumers';
import { EntityKryptonOverviewCard } from './EntityKryptonOverviewCard';
import { OVERVIEW_LIMIT } from './loadOverview';

/**
 * Whoever may not read a Secret's pods sees no mark: the default of these tests, kept through
 * each test's reset, since a card may still read its rows' consumers as a test ends.
 */
const server = setupServer(
  http.get(/\/consumers\/pods$/, () =>
    HttpResponse.json({ error: messages.forbiddenAcl }, { status: 403 }),
  ),
);

function renderFor(annotations: Record<string, string>) {
  const entity: Entity = {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: { name: 'c', annotations },
  };
  return renderInTestApp(
    <KryptonApis>
      <EntityProvider entity={entity}>
        <EntityKryptonOverviewCard />
      </EntityProvider>
    </KryptonApis>,
    {
      mountedRoutes: {
        '/krypton': rootRouteRef,
        '/catalog/:namespace/:kind/:name': entityRouteRef,
      },
    },
  );
}

function versionSummary(
  version: number,
  overrides: Partial<VersionSummary> = {},
): VersionSummary {
  return {
    version,
    snapshotAt: '2026-11-30T12:00:00.000Z',
    snapshotBy: 'user:default/bob',
    sourceType: 'Opaque',
    sourceResourceVersion: String(100 + version),
    keys: ['password'],
    ...overrides,
  };
}

/** The card's table row of one Secret. */
function row(name: string): HTMLElement {
  const header = screen.getByRole('rowheader', {
    name: new RegExp(`^${name}`),
  });
  return header.closest('tr') as HTMLElement;
}

const secretUrl = (name: string) =>
  `${baseUrl}/namespaces/demo/secrets/${name}`;
const entityQuery = 'entity=component%3Adefault%2Fc';

describe('EntityKryptonOverviewCard', () => {
  registerMswTestHooks(server);

  it('shows each linked Secret with its version, last change and problem, linking to its history and consumers', async () => {
    const historyReads: string[] = [];
    server.use(
      http.get(`${secretUrl(':name')}/summary`, ({ params }) => {
        const name = String(params.name);
        if (name === 'gone') {
          return HttpResponse.json(
            { error: messages.notFound },
            { status: 404 },
          );
        }
        return HttpResponse.json(summary({ name, version: 3 }));
      }),
      http.get(`${secretUrl(':name')}/versions`, ({ params }) => {
        const name = String(params.name);
        historyReads.push(name);
        if (name === 'signing') {
          return HttpResponse.json(
            { error: messages.forbiddenAcl },
            { status: 403 },
          );
        }
        if (name === 'fresh') return HttpResponse.json({ items: [] });
        return HttpResponse.json({
          items: [
            versionSummary(2, {
              snapshotBy: 'user:default/bob',
              snapshotAt: '2026-11-30T12:00:00.000Z',
            }),
            versionSummary(1, { snapshotBy: 'user:default/alice' }),
          ],
        });
      }),
    );
    await renderFor({
      'krypton.io/secrets': 'demo/db, demo/gone, demo/fresh, demo/signing',
    });

    const user = userEvent.setup();
    await screen.findByRole('table', { name: 'Linked Secrets' });
    expect(screen.getAllByRole('columnheader').map(h => h.textContent)).toEqual(
      ['Secret', 'Version', 'Last change', 'Status'],
    );
    const db = row('db');
    expect(within(db).getByRole('link', { name: 'db' })).toHaveAttribute(
      'href',
      `/krypton/secret/demo/db?${entityQuery}`,
    );
    expect(within(db).getByText('3')).toBeInTheDocument();
    // The newest version names who changed the values last, and when.
    expect(within(db).getByRole('link', { name: 'bob' })).toHaveAttribute(
      'href',
      '/catalog/default/user/bob',
    );
    expect(within(db).queryByText(/alice/)).toBeNull();
    expect(db.querySelector('time')).toHaveAttribute(
      'datetime',
      '2026-11-30T12:00:00.000Z',
    );
    expect(
      within(db).getByRole('link', { name: 'History of db' }),
    ).toHaveAttribute('href', `/krypton/secret/demo/db/history?${entityQuery}`);
    expect(
      within(db).getByRole('link', { name: 'Consumers of db' }),
    ).toHaveAttribute(
      'href',
      `/krypton/secret/demo/db/consumers?${entityQuery}`,
    );
    expect(within(db).getByText('OK')).toBeInTheDocument();

    // A link that does not resolve: its reason, and no links into a detail view that cannot load.
    // With no version or change to show, the reason takes their columns.
    const gone = row('gone');
    expect(within(gone).getByText(messages.notFound)).toBeInTheDocument();
    expect(within(gone).queryByRole('link')).toBeNull();
    expect(within(gone).getAllByRole('cell')).toHaveLength(1);
    expect(within(gone).getByRole('cell')).toHaveAttribute('colspan', '3');

    // No version yet: a dash in the narrow column, with the words for screen readers and on hover.
    const fresh = row('fresh');
    expect(
      within(fresh).getByText('No change through Krypton yet'),
    ).toBeInTheDocument();
    const dash = within(fresh).getByText('—');
    expect(dash).toHaveAttribute('aria-hidden', 'true');
    await user.hover(dash);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      'No change through Krypton yet',
    );
    await user.unhover(dash);
    expect(
      within(row('signing')).getByText(
        `History could not be read: ${messages.forbiddenAcl}`,
      ),
    ).toBeInTheDocument();

    // One history request per readable Secret; none for the link that did not resolve.
    expect(historyReads.sort()).toEqual(['db', 'fresh', 'signing']);
  });

  it('names each Secret on one line, with where it lives and its full name on hover', async () => {
    const long = 'payments-database-credentials-for-the-reporting-replica';
    server.use(
      http.get(`${secretUrl(':name')}/summary`, ({ params }) =>
        HttpResponse.json(summary({ name: String(params.name) })),
      ),
      http.get(`${secretUrl(':name')}/versions`, () =>
        HttpResponse.json({ items: [] }),
      ),
    );
    const user = userEvent.setup();
    await renderFor({ 'krypton.io/secrets': `demo/${long}` });

    const header = await screen.findByRole('rowheader', { name: long });
    // The row is named by the Secret alone, not by the links under it.
    expect(header).toHaveAccessibleName(long);
    const link = within(header).getByRole('link', { name: long });
    expect(link).toHaveAttribute(
      'href',
      `/krypton/secret/demo/${long}?${entityQuery}`,
    );
    // Cut with an ellipsis rather than broken inside a word.
    expect(link.parentElement).toHaveStyle({
      overflow: 'hidden',
      textOverflow: 'ellipsis',
      whiteSpace: 'nowrap',
    });
    // The namespace has no line of its own: the full name is on hover and focus.
    expect(within(header).queryByText('demo')).toBeNull();
    expect(link).toHaveAccessibleDescription(`demo/${long}`);
    await user.hover(link);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      `demo/${long}`,
    );
    expect(
      within(header).getByRole('link', { name: `History of ${long}` }),
    ).toBeInTheDocument();
  });

  it('says since when a Secret is pending deletion, as a relative time', async () => {
    const since = new Date(Date.now() - 5 * 60_000).toISOString();
    server.use(
      http.get(`${secretUrl(':name')}/summary`, ({ params }) =>
        HttpResponse.json(
          summary({ name: String(params.name), deletionTimestamp: since }),
        ),
      ),
      http.get(`${secretUrl(':name')}/versions`, () =>
        HttpResponse.json({ items: [] }),
      ),
    );
    await renderFor({ 'krypton.io/secrets': 'demo/db' });
    await screen.findByRole('rowheader', { name: 'db' });
    const status = await within(row('db')).findByText(
      /^Pending deletion since/,
    );
    expect(status).toHaveTextContent('Pending deletion since 5 minutes ago');
    expect(status.querySelector('time')).toHaveAttribute('datetime', since);
  });

  it('names the cluster in the full name when a link names one', async () => {
    const east = `${baseUrl}/clusters/east/namespaces/demo/secrets/:name`;
    server.use(
      http.get(`${east}/summary`, ({ params }) =>
        HttpResponse.json(
          summary({ name: String(params.name), cluster: 'east' }),
        ),
      ),
      http.get(`${east}/versions`, () => HttpResponse.json({ items: [] })),
    );
    await renderFor({ 'krypton.io/secrets': 'east/demo/db' });
    const link = within(
      await screen.findByRole('rowheader', { name: 'db' }),
    ).getByRole('link', { name: 'db' });
    expect(link).toHaveAccessibleDescription('demo/db in east');
  });

  it(`reads the history of the first ${OVERVIEW_LIMIT} Secrets only, and says how many more there are`, async () => {
    const historyReads: string[] = [];
    server.use(
      http.get(`${secretUrl(':name')}/summary`, ({ params }) =>
        HttpResponse.json(summary({ name: String(params.name) })),
      ),
      http.get(`${secretUrl(':name')}/versions`, ({ params }) => {
        historyReads.push(String(params.name));
        return HttpResponse.json({ items: [] });
      }),
    );
    const names = Array.from(
      { length: OVERVIEW_LIMIT + 2 },
      (_, i) => `s${i + 1}`,
    );
    await renderFor({
      'krypton.io/secrets': names.map(n => `demo/${n}`).join(','),
    });

    expect(
      await screen.findByText(
        "and 2 more linked Secrets, listed on the entity's Secrets tab.",
        {
          exact: false,
        },
      ),
    ).toBeInTheDocument();
    expect(historyReads).toHaveLength(OVERVIEW_LIMIT);
    expect(
      screen
        .getAllByRole('rowheader')
        .map(h => h.querySelector('a')?.textContent),
    ).toEqual(names.slice(0, OVERVIEW_LIMIT));
  });

  it('marks an owned Secret with its owner and what a change comes to', async () => {
    server.use(
      http.get(`${secretUrl(':name')}/summary`, ({ params }) =>
        HttpResponse.json(
          summary({
            name: String(params.name),
            owner:
              params.name === 'synced'
                ? {
                    tool: 'external-secrets',
                    kind: 'ExternalSecret',
                    outcome: 'reverted-at-once-or-refresh',
                    evidence: ['reconcile.external-secrets.io/managed'],
                    edits: 'refused',
                  }
                : undefined,
          }),
        ),
      ),
      http.get(`${secretUrl(':name')}/versions`, () =>
        HttpResponse.json({ items: [versionSummary(1)] }),
      ),
    );
    await renderFor({ 'krypton.io/secrets': 'demo/synced,demo/own' });
    const mark = await within(
      await screen.findByRole('rowheader', { name: /^synced/ }),
    ).findByText('Owned by External Secrets');
    expect(mark.closest('[tabindex="0"]')).toHaveAccessibleDescription(
      /^An edit here is undone by External Secrets: at once when the ExternalSecret's creationPolicy is Merge; with creationPolicy: Orphan it is kept until the ExternalSecret's next refresh\./,
    );
    expect(within(row('own')).queryByText(/^Owned by/)).toBeNull();
  });

  it("marks each Secret with whether its consumers' pods hold its live version, linking to its Consumers tab", async () => {
    const podReads: string[] = [];
    server.use(
      http.get(`${secretUrl(':name')}/summary`, ({ params }) =>
        HttpResponse.json(summary({ name: String(params.name) })),
      ),
      http.get(`${secretUrl(':name')}/versions`, () =>
        HttpResponse.json({ items: [versionSummary(1)] }),
      ),
      http.get(`${secretUrl(':name')}/consumers/pods`, ({ params }) => {
        const name = String(params.name);
        podReads.push(name);
        switch (name) {
          case 'db':
            return HttpResponse.json(versions());
          case 'api-key':
            return HttpResponse.json(
              versions({
                summary: versionsSummary({
                  current: 1,
                  stale: 2,
                  staleVersions: [2],
                  allCurrent: false,
                }),
              }),
            );
          case 'token':
            return HttpResponse.json(
              versions({
                summary: versionsSummary({
                  current: 1,
                  converging: 2,
                  allCurrent: false,
                }),
              }),
            );
          case 'unused':
            return HttpResponse.json(versions({ workloads: [] }));
          case 'signing':
            return HttpResponse.json(
              { error: messages.forbiddenAcl },
              { status: 403 },
            );
          default:
            return HttpResponse.json(
              { error: messages.unavailable },
              { status: 503 },
            );
        }
      }),
    );
    const user = userEvent.setup();
    await renderFor({
      'krypton.io/secrets':
        'demo/db, demo/api-key, demo/token, demo/unused, demo/signing, demo/broken',
    });
    await screen.findByRole('table', { name: 'Linked Secrets' });

    const current = await within(row('db')).findByRole('link', {
      name: 'All consumers current (db)',
    });
    expect(current).toHaveTextContent('All consumers current');
    expect(current).toHaveAttribute(
      'href',
      `/krypton/secret/demo/db/consumers?${entityQuery}`,
    );
    expect(
      await within(row('api-key')).findByRole('link', {
        name: '2 pods stale (api-key)',
      }),
    ).toHaveAttribute(
      'href',
      `/krypton/secret/demo/api-key/consumers?${entityQuery}`,
    );
    expect(
      await within(row('token')).findByRole('link', {
        name: 'Consumers not all confirmed (token)',
      }),
    ).toBeInTheDocument();

    // Another failure: a dash, with why on hover and for screen readers.
    const broken = row('broken');
    const dash = await within(broken).findByText('—');
    expect(dash).toHaveAttribute('aria-hidden', 'true');
    const why = `Could not read which version the consumers' pods hold: ${messages.unavailable}`;
    expect(within(broken).getByText(why)).toBeInTheDocument();
    await user.hover(dash);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(why);

    // Each Secret is read once; a 403 and a Secret without consumers show nothing.
    await waitFor(() =>
      expect([...podReads].sort()).toEqual(
        ['api-key', 'broken', 'db', 'signing', 'token', 'unused'].sort(),
      ),
    );
    for (const name of ['signing', 'unused']) {
      const quiet = row(name);
      expect(within(quiet).queryByText('—')).toBeNull();
      expect(
        within(quiet).queryByText(/current|stale|not all confirmed/),
      ).toBeNull();
      expect(within(quiet).getByText('OK')).toBeInTheDocument();
    }
  });

  it('says how to link Secrets when the entity links none', async () => {
    await renderFor({});
    expect(
      screen.getByText(
        'No Secrets linked. Add a krypton.io/secrets annotation to this entity.',
      ),
    ).toBeInTheDocument();
  });
});
