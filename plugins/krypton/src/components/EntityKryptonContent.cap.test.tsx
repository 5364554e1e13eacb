import { Entity } from '@backstage/catalog-model';
import { EntityProvider } from '@backstage/plugin-catalog-react';
import { registerMswTestHooks, renderInTestApp } from '@backstage/test-utils';
import { MAX_LINKED_SECRET_ENTRIES } from '@krypton/core';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import {
  KryptonApis,
  baseUrl,
  kryptonConfig,
  summary,
} from '../__testUtils__/krypton';
import { rootRouteRef } from '../routes';
import { EntityKryptonContent } from './EntityKryptonContent';
import { REQUESTS_IN_FLIGHT } from './list/loadLinkedSecrets';

/** Whoever may not read a Secret's pods sees no mark; it outlives each test's reset, since a view may still read its rows' consumers as a test ends. */
const server = setupServer(
  http.get(/\/consumers\/pods$/, () =>
    HttpResponse.json({ error: 'Forbidden' }, { status: 403 }),
  ),
);

/**
 * Answers every summary after a short pause, recording which Secrets were asked for and the most
 * requests that were open at once. The pause only makes requests overlap; nothing here asserts a
 * time.
 */
function serveSummaries() {
  const requested: string[] = [];
  let open = 0;
  let mostOpen = 0;
  server.use(
    http.get(
      `${baseUrl}/namespaces/demo/secrets/:name/summary`,
      async ({ params }) => {
        const name = String(params.name);
        requested.push(name);
        open++;
        mostOpen = Math.max(mostOpen, open);
        await new Promise(resolve => setTimeout(resolve, 2));
        open--;
        return HttpResponse.json(summary({ name }));
      },
    ),
  );
  return { requested, mostOpen: () => mostOpen };
}

function renderFor(secrets: string) {
  const entity: Entity = {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: { name: 'c', annotations: { 'krypton.io/secrets': secrets } },
  };
  return renderInTestApp(
    <KryptonApis>
      <EntityProvider entity={entity}>
        <EntityKryptonContent />
      </EntityProvider>
    </KryptonApis>,
    { mountedRoutes: { '/krypton': rootRouteRef } },
  );
}

const entries = (count: number) =>
  Array.from({ length: count }, (_, i) => `demo/s${i + 1}`);

describe('EntityKryptonContent with many links', () => {
  registerMswTestHooks(server);
  beforeEach(() =>
    server.use(
      http.get(`${baseUrl}/config`, () => HttpResponse.json(kryptonConfig())),
    ),
  );

  it(`requests the first ${MAX_LINKED_SECRET_ENTRIES} of 20,000 entries, a few at a time, and says how many it did not load`, async () => {
    const summaries = serveSummaries();
    const all = entries(20_000);
    await renderFor(all.join(','));

    const notLoaded = await screen.findByText(
      `19900 more entries were not loaded: Krypton reads at most ${MAX_LINKED_SECRET_ENTRIES} entries of this annotation.`,
    );
    // One row, named after the annotation, without a link into a detail view.
    const row = notLoaded.closest('tr') as HTMLElement;
    expect(within(row).getByText('krypton.io/secrets')).toBeInTheDocument();
    expect(within(row).queryByRole('link')).toBeNull();

    expect(await screen.findByRole('link', { name: 's1' })).toBeInTheDocument();
    await waitFor(() =>
      expect(summaries.requested).toHaveLength(MAX_LINKED_SECRET_ENTRIES),
    );
    expect([...summaries.requested].sort()).toEqual(
      all
        .slice(0, MAX_LINKED_SECRET_ENTRIES)
        .map(e => e.slice(5))
        .sort(),
    );
    expect(summaries.mostOpen()).toBeGreaterThan(0);
    expect(summaries.mostOpen()).toBeLessThanOrEqual(REQUESTS_IN_FLIGHT);
    expect(REQUESTS_IN_FLIGHT).toBe(4);
  });

  it(`loads exactly ${MAX_LINKED_SECRET_ENTRIES} entries without a row for entries not loaded`, async () => {
    const summaries = serveSummaries();
    await renderFor(entries(MAX_LINKED_SECRET_ENTRIES).join(', '));

    expect(await screen.findByRole('link', { name: 's1' })).toBeInTheDocument();
    await waitFor(() =>
      expect(summaries.requested).toHaveLength(MAX_LINKED_SECRET_ENTRIES),
    );
    expect(screen.queryByText(/not loaded/)).toBeNull();
  });

  it('reports entries beyond the cap even when none of the first ones is valid', async () => {
    const summaries = serveSummaries();
    const invalid = Array.from(
      { length: MAX_LINKED_SECRET_ENTRIES },
      (_, i) => `Not/Valid${i}`,
    );
    await renderFor([...invalid, 'demo/db'].join(','));

    expect(
      await screen.findByText(
        `1 more entry was not loaded: Krypton reads at most ${MAX_LINKED_SECRET_ENTRIES} entries of this annotation.`,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText('No Secrets linked')).toBeNull();
    expect(summaries.requested).toEqual([]);
  });
});
