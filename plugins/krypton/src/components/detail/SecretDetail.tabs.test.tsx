import { entityRouteRef } from '@backstage/plugin-catalog-react';
import { registerMswTestHooks, renderInTestApp } from '@backstage/test-utils';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import {
  KryptonApis,
  baseUrl,
  kryptonConfig,
  secretDto,
} from '../../__testUtils__/krypton';
import { rootRouteRef } from '../../routes';
import { KryptonHeaderModeProvider } from '../KryptonPageFrame';
import { KryptonPage } from '../KryptonPage';

const server = setupServer();
const secretUrl = `${baseUrl}/namespaces/demo/secrets/db`;
const DRAFT = 'draft-value-5e07';

function serve() {
  server.use(
    http.get(`${baseUrl}/config`, () => HttpResponse.json(kryptonConfig())),
    http.get(`${secretUrl}/summary`, () => {
      const { data: _d, binaryData: _b, ...meta } = secretDto();
      return HttpResponse.json(meta);
    }),
    http.get(secretUrl, () => HttpResponse.json(secretDto())),
    http.get(`${secretUrl}/versions`, () => HttpResponse.json({ items: [] })),
  );
}

/** Shows the router's address, and goes back as the browser's Back button does. */
function AddressBar() {
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <>
      <output aria-label="Address">{`${location.pathname}${location.search}`}</output>
      <button type="button" onClick={() => navigate(-1)}>
        Browser back
      </button>
    </>
  );
}

function renderAt(path: string, headerMode?: 'app') {
  const page = (
    <>
      <KryptonPage />
      <AddressBar />
    </>
  );
  return renderInTestApp(
    <KryptonApis>
      <Routes>
        <Route
          path="/krypton/*"
          element={
            headerMode ? (
              <KryptonHeaderModeProvider value={headerMode}>
                {page}
              </KryptonHeaderModeProvider>
            ) : (
              page
            )
          }
        />
      </Routes>
    </KryptonApis>,
    {
      routeEntries: [path],
      mountedRoutes: {
        '/krypton': rootRouteRef,
        '/catalog/:namespace/:kind/:name': entityRouteRef,
      },
    },
  );
}

const address = () => screen.getByRole('status', { name: 'Address' });
const tab = (name: string) => screen.getByRole('tab', { name });
const expectSelected = (name: string) =>
  waitFor(() => expect(tab(name)).toHaveAttribute('aria-selected', 'true'));

describe('the detail view keeps its tab in the address', () => {
  registerMswTestHooks(server);

  it('gives every tab its own link, and Back returns to the tab before', async () => {
    serve();
    const user = userEvent.setup();
    await renderAt('/krypton/secret/demo/db?entity=component%3Adefault%2Fc');
    await screen.findByRole('tab', { name: 'History' });
    await expectSelected('Values');
    // The entity the user came from stays in every tab's address.
    expect(tab('History')).toHaveAttribute(
      'href',
      '/krypton/secret/demo/db/history?entity=component%3Adefault%2Fc',
    );
    expect(tab('Consumers')).toHaveAttribute(
      'href',
      '/krypton/secret/demo/db/consumers?entity=component%3Adefault%2Fc',
    );

    await user.click(tab('History'));
    expect(address()).toHaveTextContent(
      '/krypton/secret/demo/db/history?entity=component%3Adefault%2Fc',
    );
    await expectSelected('History');
    await user.click(tab('Access'));
    expect(address()).toHaveTextContent(
      '/krypton/secret/demo/db/access?entity=component%3Adefault%2Fc',
    );
    await expectSelected('Access');

    await user.click(screen.getByRole('button', { name: 'Browser back' }));
    await expectSelected('History');
    await user.click(screen.getByRole('button', { name: 'Browser back' }));
    await expectSelected('Values');
    expect(address()).toHaveTextContent(
      '/krypton/secret/demo/db?entity=component%3Adefault%2Fc',
    );
  });

  it('keeps a draft across a tab link and the Back button', async () => {
    serve();
    const user = userEvent.setup();
    await renderAt('/krypton/secret/demo/db/values');
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const form = screen.getByRole('form', { name: 'Edit Secret db' });
    const password = within(form).getByLabelText('Value of password');
    await user.clear(password);
    await user.type(password, DRAFT);

    await user.click(tab('History'));
    expect(await screen.findByText(/No versions yet/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Browser back' }));
    await expectSelected('Values');

    expect(
      within(
        screen.getByRole('form', { name: 'Edit Secret db' }),
      ).getByLabelText('Value of password'),
    ).toHaveValue(DRAFT);
  });

  it('opens the tab that an older ?tab= link names, at its own address', async () => {
    serve();
    await renderAt(
      '/krypton/secret/demo/db?tab=history&entity=component%3Adefault%2Fc',
    );
    await expectSelected('History');
    expect(address()).toHaveTextContent(
      '/krypton/secret/demo/db/history?entity=component%3Adefault%2Fc',
    );
  });

  it('opens the default tab for a segment that names no tab', async () => {
    serve();
    await renderAt('/krypton/secret/demo/db/nonsense');
    await expectSelected('Values');
    expect(address()).toHaveTextContent(/^\/krypton\/secret\/demo\/db$/);
  });

  it("under the app's header, names the Secret in the content instead of drawing a header", async () => {
    serve();
    await renderAt('/krypton/secret/demo/db/history', 'app');
    await expectSelected('History');
    expect(screen.getByRole('heading', { name: 'db' })).toBeInTheDocument();
    // The legacy header's type link back to the plugin is the app's breadcrumb now.
    expect(screen.queryByRole('link', { name: 'Krypton' })).toBeNull();
    expect(screen.queryByRole('banner')).toBeNull();
  });

  it.each([
    ['the legacy header', undefined],
    ["the app's header", 'app' as const],
  ])(
    'says the name once under %s: the facts card is titled Details, with no Name fact',
    async (_system, mode) => {
      serve();
      await renderAt('/krypton/secret/demo/db', mode);
      await expectSelected('Values');
      const heading = screen.getByRole('heading', { name: 'db' });
      // Besides the heading, only the legacy header's breadcrumb says the name.
      const header = screen.queryByRole('banner');
      expect(
        screen
          .getAllByText('db')
          .filter(text => text !== heading && !header?.contains(text)),
      ).toEqual([]);
      expect(screen.getByText('Details')).toBeInTheDocument();
      expect(screen.queryByText('Name', { selector: 'dt' })).toBeNull();
    },
  );

  it('draws its own header in the legacy system', async () => {
    serve();
    await renderAt('/krypton/secret/demo/db');
    await expectSelected('Values');
    const header = screen.getByRole('banner');
    expect(
      within(header).getByRole('heading', { name: 'db' }),
    ).toBeInTheDocument();
    expect(
      within(header).getByRole('link', { name: 'Krypton' }),
    ).toHaveAttribute('href', '/krypton?namespace=demo');
  });
});
