import { Entity } from '@backstage/catalog-model';
import {
  EntityProvider,
  entityRouteRef,
} from '@backstage/plugin-catalog-react';
import { registerMswTestHooks, renderInTestApp } from '@backstage/test-utils';
import { VersionSummary, messages } from '@krypton/core';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { KryptonApis, baseUrl, summary } from '../../__testUtils__/krypton';
import { rootRouteRef } from '../../routes';
import { EntityKryptonOverviewCard } from './EntityKryptonOverviewCard';
import { OVERVIEW_LIMIT } from './loadOverview';

const server = setupServer();

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

    await screen.findByRole('table', { name: 'Linked Secrets' });
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
    const gone = row('gone');
    expect(within(gone).getByText(messages.notFound)).toBeInTheDocument();
    expect(within(gone).queryByRole('link')).toBeNull();

    expect(
      within(row('fresh')).getByText('None through Krypton yet'),
    ).toBeInTheDocument();
    expect(
      within(row('signing')).getByText(
        `History could not be read: ${messages.forbiddenAcl}`,
      ),
    ).toBeInTheDocument();

    // One history request per readable Secret; none for the link that did not resolve.
    expect(historyReads.sort()).toEqual(['db', 'fresh', 'signing']);
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

  it('says how to link Secrets when the entity links none', async () => {
    await renderFor({});
    expect(
      screen.getByText(
        'No Secrets linked. Add a krypton.io/secrets annotation to this entity.',
      ),
    ).toBeInTheDocument();
  });
});
