import { Entity } from '@backstage/catalog-model';
import { coreExtensionData } from '@backstage/frontend-plugin-api';
import { convertLegacyRouteRef } from '@backstage/core-compat-api';
import {
  createExtensionTester,
  mockApis,
  registerMswTestHooks,
  renderInTestApp,
} from '@backstage/frontend-test-utils';
import {
  EntityProvider,
  entityRouteRef,
} from '@backstage/plugin-catalog-react';
import {
  EntityCardBlueprint,
  EntityContentBlueprint,
} from '@backstage/plugin-catalog-react/alpha';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import {
  baseUrl,
  client,
  kryptonConfig,
  summary,
} from './__testUtils__/krypton';
import { kryptonApiRef } from './api/KryptonApi';
import kryptonPlugin from './alpha';
import { rootRouteRef } from './routes';

const entity = (annotations: Record<string, string>): Entity => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: { name: 'c', annotations },
});

/** The entity tab's filter, as built in an app with the given config. */
function tabFilter(config?: { krypton: { annotationPrefix: string } }) {
  const content = kryptonPlugin.getExtension('entity-content:krypton');
  const tester = createExtensionTester(
    content,
    config ? { apis: [mockApis.config({ data: config })] } : undefined,
  );
  return tester.get(EntityContentBlueprint.dataRefs.filterFunction);
}

describe('the entity tab', () => {
  it('shows for entities linked under the configured prefix only', () => {
    const filter = tabFilter({
      krypton: { annotationPrefix: 'secrets.example.com' },
    });
    expect(filter?.(entity({ 'secrets.example.com/secrets': 'demo/db' }))).toBe(
      true,
    );
    expect(filter?.(entity({ 'krypton.io/secrets': 'demo/db' }))).toBe(false);
  });

  it('uses the default prefix without a config API', () => {
    const filter = tabFilter();
    expect(filter?.(entity({ 'krypton.io/secrets': 'demo/db' }))).toBe(true);
    expect(filter?.(entity({ 'krypton.io/secrets': 'demo/a..b' }))).toBe(false);
  });

  it('shows for entities linked by a label selector only', () => {
    const filter = tabFilter();
    expect(
      filter?.(
        entity({
          'krypton.io/secrets-selector': 'app=payments',
          'backstage.io/kubernetes-namespace': 'payments',
        }),
      ),
    ).toBe(true);
  });
});

describe('the entity tab in the catalog', () => {
  it('sits in the deployment group with an icon, beside the Kubernetes plugin', () => {
    const tester = createExtensionTester(
      kryptonPlugin.getExtension('entity-content:krypton'),
    );
    expect(tester.get(EntityContentBlueprint.dataRefs.title)).toBe('Secrets');
    expect(tester.get(EntityContentBlueprint.dataRefs.group)).toBe(
      'deployment',
    );
    expect(tester.get(EntityContentBlueprint.dataRefs.icon)).toBeTruthy();
  });
});

describe('the page', () => {
  it('has a title and an icon, which give it its sidebar item', () => {
    const tester = createExtensionTester(
      kryptonPlugin.getExtension('page:krypton'),
    );
    expect(tester.get(coreExtensionData.routePath)).toBe('/krypton');
    expect(tester.get(coreExtensionData.title)).toBe('Krypton');
    expect(tester.get(coreExtensionData.icon)).toBeTruthy();
  });

  it('declares the detail view and the storage rewrite as routes of the plugin', () => {
    expect(Object.keys(kryptonPlugin.routes)).toEqual([
      'root',
      'secret',
      'storageRewrite',
    ]);
  });
});

/** Whoever may not read a Secret's pods sees no mark; it outlives each test's reset, since a view may still read its rows' consumers as a test ends. */
const server = setupServer(
  http.get(/\/consumers\/pods$/, () =>
    HttpResponse.json({ error: 'Forbidden' }, { status: 403 }),
  ),
);

describe('the page in an app of the new frontend system', () => {
  registerMswTestHooks(server);

  it("leaves the header to the app's plugin header instead of drawing the legacy one", async () => {
    server.use(
      http.get(`${baseUrl}/config`, () => HttpResponse.json(kryptonConfig())),
      http.get(/\/storage-rewrite\/last$/, () =>
        HttpResponse.json({ runs: [] }),
      ),
      http.get(/\/storage-rewrite\/migrations$/, () =>
        HttpResponse.json({ served: false, migrations: [] }),
      ),
      http.get(/\/namespaces$/, () => HttpResponse.json({ items: ['demo'] })),
      http.get(/\/managed-namespaces$/, () =>
        HttpResponse.json({
          items: [{ namespace: 'demo', secrets: 2 }],
          notLookedIn: 0,
        }),
      ),
      http.get(/\/deleted-secrets$/, () => HttpResponse.json({ items: [] })),
    );
    const tester = createExtensionTester(
      kryptonPlugin.getExtension('page:krypton'),
    );
    renderInTestApp(tester.reactElement(), {
      apis: [[kryptonApiRef, client]],
    });
    expect(
      await screen.findByText('Namespaces with Krypton Secrets'),
    ).toBeInTheDocument();
    // The app's plugin header names the plugin; the legacy Header (a banner with the page's
    // subtitle) is not drawn.
    expect(
      screen.getByRole('heading', { level: 1, name: 'Krypton' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('banner')).toBeNull();
    expect(screen.queryByText('Versioned Kubernetes Secrets')).toBeNull();
  });
});

describe('the overview card', () => {
  registerMswTestHooks(server);

  it('shows on entities linked under the configured prefix only', () => {
    const tester = createExtensionTester(
      kryptonPlugin.getExtension('entity-card:krypton'),
      {
        apis: [
          mockApis.config({
            data: { krypton: { annotationPrefix: 'secrets.example.com' } },
          }),
        ],
      },
    );
    const filter = tester.get(EntityCardBlueprint.dataRefs.filterFunction);
    expect(filter?.(entity({ 'secrets.example.com/secrets': 'demo/db' }))).toBe(
      true,
    );
    expect(filter?.(entity({ 'krypton.io/secrets': 'demo/db' }))).toBe(false);
    expect(filter?.(entity({}))).toBe(false);
  });

  it("lists the entity's Secrets with the last change, linking to history and consumers", async () => {
    server.use(
      http.get(`${baseUrl}/namespaces/demo/secrets/db/summary`, () =>
        HttpResponse.json(summary()),
      ),
      http.get(`${baseUrl}/namespaces/demo/secrets/db/versions`, () =>
        HttpResponse.json({
          items: [
            {
              version: 2,
              snapshotAt: '2026-11-30T12:00:00.000Z',
              snapshotBy: 'user:default/bob',
              sourceType: 'Opaque',
              sourceResourceVersion: '99',
              keys: ['password'],
            },
          ],
        }),
      ),
    );
    const tester = createExtensionTester(
      kryptonPlugin.getExtension('entity-card:krypton'),
    );
    renderInTestApp(
      <EntityProvider entity={entity({ 'krypton.io/secrets': 'demo/db' })}>
        {tester.reactElement()}
      </EntityProvider>,
      {
        apis: [[kryptonApiRef, client]],
        mountedRoutes: {
          '/krypton': convertLegacyRouteRef(rootRouteRef),
          '/catalog/:namespace/:kind/:name':
            convertLegacyRouteRef(entityRouteRef),
        },
      },
    );
    const table = await screen.findByRole('table', { name: 'Linked Secrets' });
    expect(within(table).getByRole('link', { name: 'bob' })).toHaveAttribute(
      'href',
      '/catalog/default/user/bob',
    );
    expect(
      within(table).getByRole('link', { name: 'History of db' }),
    ).toHaveAttribute(
      'href',
      '/krypton/secret/demo/db/history?entity=component%3Adefault%2Fc',
    );
    expect(
      within(table).getByRole('link', { name: 'Consumers of db' }),
    ).toHaveAttribute(
      'href',
      '/krypton/secret/demo/db/consumers?entity=component%3Adefault%2Fc',
    );
  });
});
