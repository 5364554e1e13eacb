import { Entity } from '@backstage/catalog-model';
import { EntityProvider } from '@backstage/plugin-catalog-react';
import { registerMswTestHooks, renderInTestApp } from '@backstage/test-utils';
import { messages } from '@krypton/core';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import {
  KryptonApis,
  TestConfig,
  baseUrl,
  kryptonConfig,
  listItem,
  policy,
  summary,
} from '../__testUtils__/krypton';
import { rootRouteRef } from '../routes';
import { versions, versionsSummary } from './consumers/__testUtils__/consumers';
import { EntityKryptonContent } from './EntityKryptonContent';

/** Whoever may not read a Secret's pods sees no mark; it outlives each test's reset, since a view may still read its rows' consumers as a test ends. */
const server = setupServer(
  http.get(/\/consumers\/pods$/, () =>
    HttpResponse.json({ error: 'Forbidden' }, { status: 403 }),
  ),
);

function renderFor(
  annotations: Record<string, string>,
  options: {
    config?: TestConfig;
    mounted?: boolean;
  } = {},
) {
  const entity: Entity = {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: { name: 'c', annotations },
  };
  return renderInTestApp(
    <KryptonApis config={options.config}>
      <EntityProvider entity={entity}>
        <EntityKryptonContent />
      </EntityProvider>
    </KryptonApis>,
    {
      mountedRoutes:
        options.mounted === false ? {} : { '/krypton': rootRouteRef },
    },
  );
}

/** The table row that names the Secret. */
function row(name: string): HTMLElement {
  const cell = screen.getByText(name, { selector: 'td, td *' });
  const tr = cell.closest('tr');
  if (!tr) throw new Error(`no row for ${name}`);
  return tr;
}

/** The row, once the table shows it. */
async function findRow(name: string): Promise<HTMLElement> {
  await screen.findByText(name, { selector: 'td, td *' });
  return row(name);
}

const notFound = () =>
  HttpResponse.json({ error: messages.notFound }, { status: 404 });
const forbidden = () =>
  HttpResponse.json({ error: messages.forbiddenAcl }, { status: 403 });

describe('EntityKryptonContent', () => {
  registerMswTestHooks(server);
  // Every mount reads the plugin's config (the Roll back action needs the identity mode).
  beforeEach(() =>
    server.use(
      http.get(`${baseUrl}/config`, () => HttpResponse.json(kryptonConfig())),
    ),
  );

  it('lists named and selected Secrets, with the reason for links that do not resolve', async () => {
    const selectors: Array<string | null> = [];
    server.use(
      http.get(`${baseUrl}/namespaces/demo/secrets/db/summary`, () =>
        HttpResponse.json(
          summary({
            binaryKeys: ['keystore.bin'],
            keys: ['keystore.bin', 'password'],
            access: {
              owners: ['group:default/team-a', 'user:default/bob'],
              editors: [],
              viewers: [],
            },
          }),
        ),
      ),
      http.get(`${baseUrl}/namespaces/demo/secrets/gone/summary`, notFound),
      http.get(`${baseUrl}/namespaces/demo/secrets/signing/summary`, forbidden),
      http.get(
        `${baseUrl}/clusters/prod/namespaces/demo/secrets/remote/summary`,
        () =>
          HttpResponse.json(
            summary({
              cluster: 'prod',
              name: 'remote',
              version: null,
              immutable: true,
              deletionTimestamp: '2026-11-30T12:00:00Z',
            }),
          ),
      ),
      http.get(`${baseUrl}/namespaces/payments/secrets`, ({ request }) => {
        selectors.push(new URL(request.url).searchParams.get('labelSelector'));
        return HttpResponse.json({
          items: [
            listItem({ namespace: 'payments', name: 'api-key', version: 7 }),
          ],
        });
      }),
    );
    await renderFor({
      'krypton.io/secrets': 'demo/db, demo/gone,demo/signing,prod/demo/remote',
      'krypton.io/secrets-selector': 'app=payments',
      'backstage.io/kubernetes-namespace': 'payments',
    });

    expect(await screen.findByText('api-key')).toBeInTheDocument();
    expect(selectors).toEqual(['app=payments']);
    expect(
      screen.getByText('1 Secret matches app=payments in payments.'),
    ).toBeInTheDocument();

    // Links carry the entity, whose workloads the Consumers tab lists first.
    const entity = 'entity=component%3Adefault%2Fc';
    const db = row('db');
    expect(within(db).getByRole('link', { name: 'db' })).toHaveAttribute(
      'href',
      `/krypton/secret/demo/db?${entity}`,
    );
    expect(
      await within(db).findByRole('link', { name: 'Roll back db…' }),
    ).toHaveAttribute(
      'href',
      `/krypton/secret/demo/db/history?rollback=1&${entity}`,
    );
    expect(within(db).getByText('3')).toBeInTheDocument();
    // Owners and binary keys sit behind the row's details toggle (list/SecretTable.test.tsx).
    expect(
      within(db).getByRole('button', { name: 'Details of db' }),
    ).toHaveAttribute('aria-expanded', 'false');

    const remote = row('remote');
    expect(
      within(remote).getByRole('link', { name: 'remote' }),
    ).toHaveAttribute(
      'href',
      `/krypton/secret/demo/remote?cluster=prod&${entity}`,
    );
    expect(within(remote).getByText('invalid counter')).toBeInTheDocument();
    expect(within(remote).getByText('Deleting')).toBeInTheDocument();

    const gone = row('gone');
    expect(within(gone).getByText(messages.notFound)).toBeInTheDocument();
    // Neither a link nor Roll back… for a Secret that cannot be read.
    expect(within(gone).queryByRole('link')).toBeNull();
    const signing = row('signing');
    expect(
      within(signing).getByText(messages.forbiddenAcl),
    ).toBeInTheDocument();

    expect(
      within(row('api-key')).getByRole('link', { name: 'api-key' }),
    ).toHaveAttribute('href', `/krypton/secret/payments/api-key?${entity}`);
  });

  it("disables Roll back… with the History tab's reason where no restore can succeed", async () => {
    const serveSummary = (name: string, overrides: object) =>
      http.get(`${baseUrl}/namespaces/demo/secrets/${name}/summary`, () =>
        HttpResponse.json(summary({ name, ...overrides })),
      );
    server.use(
      serveSummary('frozen', { immutable: true }),
      serveSummary('token', { type: 'kubernetes.io/service-account-token' }),
      serveSummary('guarded', { policy: policy('restore') }),
      serveSummary('open', {}),
    );
    const entity: Entity = {
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'Component',
      metadata: {
        name: 'c',
        annotations: {
          'krypton.io/secrets': 'demo/frozen,demo/token,demo/guarded,demo/open',
        },
      },
    };
    await renderInTestApp(
      <KryptonApis>
        <EntityProvider entity={entity}>
          <EntityKryptonContent />
        </EntityProvider>
      </KryptonApis>,
      { mountedRoutes: { '/krypton': rootRouteRef } },
    );

    expect(
      await within(await screen.findByRole('row', { name: /open/ })).findByRole(
        'link',
        { name: 'Roll back open…' },
      ),
    ).toHaveAttribute('href');
    const disabled = async (name: string) => {
      const action = await within(row(name)).findByRole('link', {
        name: `Roll back ${name}…`,
      });
      expect(action).toHaveAttribute('aria-disabled', 'true');
      expect(action).not.toHaveAttribute('href');
      return action;
    };
    expect(await disabled('frozen')).toHaveAccessibleDescription(
      'The Secret is immutable: its data cannot be changed, so no version can be restored.',
    );
    expect(await disabled('token')).toHaveAccessibleDescription(
      messages.serviceAccountToken,
    );
    expect(await disabled('guarded')).toHaveAccessibleDescription(
      /^You may not restore versions of this Secret\. The Backstage permission policy does not grant/,
    );
  });

  it('offers Roll back… on a selected row, whose immutability only the History tab knows', async () => {
    server.use(
      http.get(`${baseUrl}/namespaces/demo/secrets`, () =>
        HttpResponse.json({
          items: [
            listItem({ name: 'listed' }),
            listItem({
              name: 'token',
              type: 'kubernetes.io/service-account-token',
            }),
          ],
        }),
      ),
    );
    const entity: Entity = {
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'Component',
      metadata: {
        name: 'c',
        annotations: {
          'krypton.io/secrets-selector': 'app=payments',
          'backstage.io/kubernetes-namespace': 'demo',
        },
      },
    };
    await renderInTestApp(
      <KryptonApis>
        <EntityProvider entity={entity}>
          <EntityKryptonContent />
        </EntityProvider>
      </KryptonApis>,
      { mountedRoutes: { '/krypton': rootRouteRef } },
    );

    // A list item has no immutable flag: the link goes to the History tab, which tells.
    expect(
      await within(
        await screen.findByRole('row', { name: /listed/ }),
      ).findByRole('link', { name: 'Roll back listed…' }),
    ).toHaveAttribute('href', expect.stringContaining('rollback=1'));
    // What the list does know still blocks at once.
    const token = await within(row('token')).findByRole('link', {
      name: 'Roll back token…',
    });
    expect(token).toHaveAttribute('aria-disabled', 'true');
    expect(token).toHaveAccessibleDescription(messages.serviceAccountToken);
  });

  it('marks each owned Secret with its owner, what a change comes to as its tooltip, and no Roll back where Krypton refuses', async () => {
    server.use(
      http.get(`${baseUrl}/namespaces/demo/secrets/tls/summary`, () =>
        HttpResponse.json(
          summary({
            name: 'tls',
            owner: {
              tool: 'cert-manager',
              kind: 'Certificate',
              name: 'site',
              outcome: 'replaced-at-once',
              evidence: ['cert-manager.io/certificate-name'],
              edits: 'refused',
            },
          }),
        ),
      ),
      http.get(`${baseUrl}/namespaces/demo/secrets`, () =>
        HttpResponse.json({
          items: [
            listItem({
              name: 'web',
              owner: {
                tool: 'helm',
                kind: 'Release',
                name: 'web',
                outcome: 'reverted-at-upgrade',
                evidence: ['app.kubernetes.io/managed-by'],
                edits: 'reason-required',
              },
              dataAppliedBy: ['helm'],
            }),
            listItem({ name: 'plain' }),
          ],
        }),
      ),
    );
    await renderFor({
      'krypton.io/secrets': 'demo/tls',
      'krypton.io/secrets-selector': 'app=shop',
      'backstage.io/kubernetes-namespace': 'demo',
    });

    await screen.findByText('plain');
    const tls = within(row('tls')).getByText('Owned by cert-manager');
    expect(tls.closest('[tabindex="0"]')).toHaveAccessibleDescription(
      "An edit here is replaced at once: when the Secret's key pair no longer matches, cert-manager issues a new certificate (and, by default, a new key). Krypton does not change it: it does not update, restore, adopt or delete a Secret that another tool owns.",
    );
    const rollBack = await within(row('tls')).findByRole('link', {
      name: 'Roll back tls…',
    });
    expect(rollBack).toHaveAttribute('aria-disabled', 'true');
    expect(rollBack).toHaveAccessibleDescription(
      'cert-manager owns this Secret, and Krypton does not change a Secret that another tool owns.',
    );

    const web = within(row('web')).getByText('Owned by Helm');
    const chip = web.closest('[tabindex="0"]') as HTMLElement;
    expect(chip).toHaveAccessibleDescription(
      /field conflict with krypton, unless it forces\. This installation lets you change it through Krypton, with your reason/,
    );
    await userEvent.setup().hover(chip);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      /^An edit here lasts until the release's next upgrade/,
    );
    // A change with a reason is still a change that History offers.
    expect(
      within(row('web')).getByRole('link', { name: 'Roll back web…' }),
    ).toHaveAttribute('href');
    expect(within(row('plain')).queryByText(/^Owned by/)).toBeNull();
  });

  it("marks each Secret with whether its consumers' pods hold its live version, linking to its Consumers tab", async () => {
    const podReads: string[] = [];
    server.use(
      http.get(
        `${baseUrl}/namespaces/demo/secrets/:name/summary`,
        ({ params }) =>
          HttpResponse.json(summary({ name: String(params.name) })),
      ),
      http.get(
        `${baseUrl}/namespaces/demo/secrets/:name/consumers/pods`,
        ({ params }) => {
          const name = String(params.name);
          podReads.push(name);
          if (name === 'db') return HttpResponse.json(versions());
          if (name === 'api-key') {
            return HttpResponse.json(
              versions({
                summary: versionsSummary({
                  current: 2,
                  stale: 1,
                  staleVersions: [2],
                  allCurrent: false,
                }),
              }),
            );
          }
          if (name === 'signing') return forbidden();
          return HttpResponse.json(
            { error: messages.unavailable },
            { status: 503 },
          );
        },
      ),
    );
    await renderFor({
      'krypton.io/secrets': 'demo/db,demo/api-key,demo/signing,demo/broken',
    });
    const entity = 'entity=component%3Adefault%2Fc';
    expect(
      await within(await findRow('db')).findByRole('link', {
        name: 'All consumers current (db)',
      }),
    ).toHaveAttribute('href', `/krypton/secret/demo/db/consumers?${entity}`);
    expect(
      await within(row('api-key')).findByRole('link', {
        name: '1 pod stale (api-key)',
      }),
    ).toHaveAttribute(
      'href',
      `/krypton/secret/demo/api-key/consumers?${entity}`,
    );
    expect(
      await within(row('broken')).findByText(
        `Could not read which version the consumers' pods hold: ${messages.unavailable}`,
      ),
    ).toBeInTheDocument();
    expect([...podReads].sort()).toEqual(
      ['api-key', 'broken', 'db', 'signing'].sort(),
    );
    // A refusal to read the pods is no news: the row shows its status alone.
    const signing = row('signing');
    expect(
      within(signing).queryByText(
        /Could not read|current|stale|not all confirmed/,
      ),
    ).toBeNull();
  });

  it('reads the consumers of a row only once it is on screen', async () => {
    const observed: Array<{
      element: Element;
      callback: IntersectionObserverCallback;
    }> = [];
    const original = (window as { IntersectionObserver?: unknown })
      .IntersectionObserver;
    class FakeObserver {
      constructor(private readonly callback: IntersectionObserverCallback) {}
      observe(element: Element) {
        observed.push({ element, callback: this.callback });
      }
      disconnect() {}
    }
    (window as { IntersectionObserver?: unknown }).IntersectionObserver =
      FakeObserver;
    try {
      const podReads: string[] = [];
      server.use(
        http.get(
          `${baseUrl}/namespaces/demo/secrets/:name/summary`,
          ({ params }) =>
            HttpResponse.json(summary({ name: String(params.name) })),
        ),
        http.get(
          `${baseUrl}/namespaces/demo/secrets/:name/consumers/pods`,
          ({ params }) => {
            podReads.push(String(params.name));
            return HttpResponse.json(versions());
          },
        ),
      );
      await renderFor({ 'krypton.io/secrets': 'demo/db,demo/api-key' });
      await findRow('api-key');
      await waitFor(() => expect(observed).toHaveLength(2));
      expect(podReads).toEqual([]);

      // api-key scrolls into view.
      const apiKey = observed.find(o => row('api-key').contains(o.element))!;
      act(() =>
        apiKey.callback(
          [{ isIntersecting: true } as IntersectionObserverEntry],
          {} as IntersectionObserver,
        ),
      );
      expect(
        await within(row('api-key')).findByText('All consumers current'),
      ).toBeInTheDocument();
      expect(podReads).toEqual(['api-key']);
      expect(within(row('db')).queryByText('All consumers current')).toBeNull();
    } finally {
      (window as { IntersectionObserver?: unknown }).IntersectionObserver =
        original;
    }
  });

  it('lists a Secret that is both named and selected once', async () => {
    server.use(
      http.get(`${baseUrl}/namespaces/demo/secrets/db/summary`, () =>
        HttpResponse.json(summary()),
      ),
      http.get(`${baseUrl}/clusters/prod/namespaces/demo/secrets`, () =>
        HttpResponse.json({ items: [listItem({ cluster: 'prod' })] }),
      ),
      http.get(
        `${baseUrl}/clusters/prod/namespaces/demo/secrets/db/summary`,
        () => HttpResponse.json(summary({ cluster: 'prod' })),
      ),
    );
    await renderFor({
      'krypton.io/secrets': 'prod/demo/db',
      'krypton.io/secrets-selector': 'app=db',
      'krypton.io/secrets-namespace': 'demo',
      'krypton.io/cluster': 'prod',
    });
    expect(
      await screen.findByText('1 Secret matches app=db in demo.'),
    ).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'db' })).toHaveLength(1);
  });

  it("shows the selector's list failure and its problems", async () => {
    server.use(
      http.get(`${baseUrl}/namespaces/payments/secrets`, () =>
        HttpResponse.json(
          { error: messages.forbiddenPermission },
          { status: 403 },
        ),
      ),
    );
    await renderFor({
      'krypton.io/secrets-selector': 'app=payments',
      'krypton.io/secrets-namespace': 'payments',
    });
    expect(
      await screen.findByText(
        'Error: Could not list the Secrets that match app=payments in payments',
      ),
    ).toBeInTheDocument();
    expect(screen.getAllByText(messages.forbiddenPermission)).not.toHaveLength(
      0,
    );
  });

  it('explains a selector without a namespace', async () => {
    await renderFor({ 'krypton.io/secrets-selector': 'app=payments' });
    expect(
      await screen.findByText(
        /needs a namespace: add krypton\.io\/secrets-namespace/,
      ),
    ).toBeInTheDocument();
  });

  it('shows names without links where the app does not mount the page', async () => {
    server.use(
      http.get(`${baseUrl}/namespaces/demo/secrets/db/summary`, () =>
        HttpResponse.json(summary()),
      ),
    );
    await renderFor({ 'krypton.io/secrets': 'demo/db' }, { mounted: false });
    expect(await screen.findByText('db')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'db' })).toBeNull();
  });

  it('lists the Secrets under the configured prefix', async () => {
    server.use(
      http.get(`${baseUrl}/namespaces/demo/secrets/db/summary`, () =>
        HttpResponse.json(summary()),
      ),
    );
    await renderFor(
      { 'secrets.example.com/secrets': 'demo/db' },
      { config: { krypton: { annotationPrefix: 'secrets.example.com' } } },
    );
    expect(await screen.findByRole('link', { name: 'db' })).toBeInTheDocument();
    expect(screen.queryByText('No Secrets linked')).not.toBeInTheDocument();
  });

  it('names the configured annotations when nothing is linked', async () => {
    await renderFor(
      { 'krypton.io/secrets': 'demo/db' },
      { config: { krypton: { annotationPrefix: 'secrets.example.com' } } },
    );
    expect(screen.getByText('No Secrets linked')).toBeInTheDocument();
    expect(
      screen.getByText(/Add a secrets\.example\.com\/secrets annotation/),
    ).toHaveTextContent(
      /secrets\.example\.com\/secrets-selector label selector with secrets\.example\.com\/secrets-namespace/,
    );
  });

  it('falls back to the default prefix without configuration', async () => {
    await renderFor({});
    expect(
      screen.getByText(/Add a krypton\.io\/secrets annotation/),
    ).toBeInTheDocument();
  });
});
