import { Entity } from '@backstage/catalog-model';
import {
  EntityProvider,
  entityRouteRef,
} from '@backstage/plugin-catalog-react';
import { registerMswTestHooks, renderInTestApp } from '@backstage/test-utils';
import { MAX_LINKED_SECRET_ENTRIES } from '@krypton/core';
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import {
  KryptonApis,
  baseUrl,
  listItem,
  summary,
} from '../../__testUtils__/krypton';
import { rootRouteRef } from '../../routes';
import { versions } from '../consumers/__testUtils__/consumers';
import { REQUESTS_IN_FLIGHT } from '../list/loadLinkedSecrets';
import { EntityKryptonOverviewCard } from './EntityKryptonOverviewCard';
import { OVERVIEW_LIMIT } from './loadOverview';

/** A card may still read its rows' consumers as a test ends: this answer outlives each reset. */
const server = setupServer(
  http.get(/\/consumers\/pods$/, () => HttpResponse.json(versions())),
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

/**
 * Answers summaries and histories after a short pause, recording what was asked for and the most
 * requests open at once. The pause only makes requests overlap; nothing here asserts a time.
 */
function serveSecrets(selected: string[] = []) {
  const summaries: string[] = [];
  const histories: string[] = [];
  const podReads: string[] = [];
  let open = 0;
  let mostOpen = 0;
  let podsOpen = 0;
  let mostPodsOpen = 0;
  const overlapping = async <T,>(answer: () => T): Promise<T> => {
    open++;
    mostOpen = Math.max(mostOpen, open);
    await new Promise(resolve => setTimeout(resolve, 2));
    open--;
    return answer();
  };
  server.use(
    http.get(
      `${baseUrl}/namespaces/demo/secrets/:name/summary`,
      ({ params }) => {
        const name = String(params.name);
        summaries.push(name);
        return overlapping(() => HttpResponse.json(summary({ name })));
      },
    ),
    http.get(
      `${baseUrl}/namespaces/demo/secrets/:name/versions`,
      ({ params }) => {
        histories.push(String(params.name));
        return overlapping(() => HttpResponse.json({ items: [] }));
      },
    ),
    http.get(
      `${baseUrl}/namespaces/demo/secrets/:name/consumers/pods`,
      async ({ params }) => {
        podReads.push(String(params.name));
        podsOpen++;
        mostPodsOpen = Math.max(mostPodsOpen, podsOpen);
        await new Promise(resolve => setTimeout(resolve, 2));
        podsOpen--;
        return HttpResponse.json(versions());
      },
    ),
    http.get(`${baseUrl}/namespaces/demo/secrets`, () =>
      HttpResponse.json({ items: selected.map(name => listItem({ name })) }),
    ),
  );
  return {
    summaries,
    histories,
    podReads,
    mostOpen: () => mostOpen,
    mostPodsOpen: () => mostPodsOpen,
  };
}

const names = (count: number, from = 1) =>
  Array.from({ length: count }, (_, i) => `s${from + i}`);
const annotation = (secrets: string[]) =>
  secrets.map(name => `demo/${name}`).join(',');
const shownNames = () =>
  screen.getAllByRole('rowheader').map(h => h.querySelector('a')?.textContent);

describe('EntityKryptonOverviewCard with many links', () => {
  registerMswTestHooks(server);

  it(`requests only the ${OVERVIEW_LIMIT} Secrets it shows of an entity with 20,000 entries`, async () => {
    const served = serveSecrets();
    await renderFor({ 'krypton.io/secrets': annotation(names(20_000)) });

    expect(
      await screen.findByText(
        `and ${
          MAX_LINKED_SECRET_ENTRIES - OVERVIEW_LIMIT
        } more linked Secrets, listed on the entity's Secrets tab.`,
        { exact: false },
      ),
    ).toBeInTheDocument();
    expect(shownNames()).toEqual(names(OVERVIEW_LIMIT));
    expect([...served.summaries].sort()).toEqual(names(OVERVIEW_LIMIT).sort());
    expect([...served.histories].sort()).toEqual(names(OVERVIEW_LIMIT).sort());
    expect(served.mostOpen()).toBeGreaterThan(0);
    expect(served.mostOpen()).toBeLessThanOrEqual(REQUESTS_IN_FLIGHT);

    // The consumers of the shown Secrets only, each once, a few at a time.
    await waitFor(() =>
      expect(screen.getAllByText('All consumers current')).toHaveLength(
        OVERVIEW_LIMIT,
      ),
    );
    expect([...served.podReads].sort()).toEqual(names(OVERVIEW_LIMIT).sort());
    expect(served.mostPodsOpen()).toBeGreaterThan(1);
    expect(served.mostPodsOpen()).toBeLessThanOrEqual(REQUESTS_IN_FLIGHT);
  });

  it('fills the card from the selector after the named Secrets, counting the rest once', async () => {
    // s2 is named and selected; the selector adds eleven more.
    const served = serveSecrets(['s2', ...names(11, 101)]);
    await renderFor({
      'krypton.io/secrets': annotation(names(3)),
      'krypton.io/secrets-selector': 'app=demo',
      'krypton.io/secrets-namespace': 'demo',
    });

    expect(
      await screen.findByText('and 4 more linked Secrets', { exact: false }),
    ).toBeInTheDocument();
    expect(shownNames()).toEqual([...names(3), ...names(7, 101)]);
    expect([...served.summaries].sort()).toEqual(names(3).sort());
  });

  it('counts selected Secrets that an entry it did not request names once', async () => {
    // s12 is the twelfth entry, beyond the card's ten, and the selector picks it too.
    const served = serveSecrets(['s12', 's200']);
    await renderFor({
      'krypton.io/secrets': annotation(names(12)),
      'krypton.io/secrets-selector': 'app=demo',
      'krypton.io/secrets-namespace': 'demo',
    });

    // s11, s12 and s200.
    expect(
      await screen.findByText('and 3 more linked Secrets', { exact: false }),
    ).toBeInTheDocument();
    expect(shownNames()).toEqual(names(OVERVIEW_LIMIT));
    expect([...served.summaries].sort()).toEqual(names(OVERVIEW_LIMIT).sort());
  });
});
