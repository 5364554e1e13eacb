import { renderInTestApp } from '@backstage/test-utils';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useContext, useState } from 'react';
import {
  Link,
  Navigator,
  Route,
  Routes,
  UNSAFE_NavigationContext,
  useLocation,
  useNavigate,
} from 'react-router-dom';
import { DiscardDraftDialog } from './DiscardDraftDialog';
import { secretPageOf, useLeaveGuard } from './useLeaveGuard';

/** The router's navigator, and its own push as the router had it before any guard. */
let seen: { navigator: Navigator; push: Navigator['push'] } | undefined;

function Probe() {
  const { navigator } = useContext(UNSAFE_NavigationContext);
  seen ??= { navigator, push: navigator.push };
  return null;
}

/** Stands for an edit form: a draft that typing makes dirty, kept across the Secret's tabs. */
function Form() {
  const [draft, setDraft] = useState('');
  const guard = useLeaveGuard(draft !== '');
  const navigate = useNavigate();
  return (
    <>
      <input
        aria-label="Draft"
        value={draft}
        onChange={e => setDraft(e.target.value)}
      />
      <Link to="/krypton/secret/demo/db/history">History tab</Link>
      <Link to="/krypton/secret/demo/db?cluster=other">Other cluster</Link>
      <Link to="/catalog">Catalog</Link>
      <button onClick={() => navigate('/krypton/secret/demo/other')}>
        Open another Secret
      </button>
      <button
        onClick={() => navigate('/krypton?namespace=demo', { replace: true })}
      >
        Back to the list
      </button>
      <DiscardDraftDialog
        open={guard.asking}
        onKeep={guard.stay}
        onDiscard={guard.leave}
      />
    </>
  );
}

function Where() {
  const location = useLocation();
  return (
    <output aria-label="Address">{`${location.pathname}${location.search}`}</output>
  );
}

function App() {
  return (
    <>
      <Probe />
      <Where />
      <Routes>
        <Route
          path="/krypton/secret/:namespace/:name/:tab?"
          element={<Form />}
        />
        <Route
          path="*"
          element={<Link to="/krypton/secret/demo/db">Back</Link>}
        />
      </Routes>
    </>
  );
}

const address = () => screen.getByLabelText('Address').textContent;
const dialog = () => screen.queryByRole('dialog');

async function renderForm() {
  seen = undefined;
  await renderInTestApp(<App />, {
    routeEntries: ['/krypton/secret/demo/db/values'],
  });
}

describe('useLeaveGuard', () => {
  it('lets a clean form go anywhere without asking', async () => {
    await renderForm();
    await userEvent.click(screen.getByRole('link', { name: 'Catalog' }));
    expect(address()).toBe('/catalog');
    expect(dialog()).not.toBeInTheDocument();
  });

  it("does not ask when a dirty form switches the Secret's tabs, and keeps the draft", async () => {
    await renderForm();
    await userEvent.type(screen.getByLabelText('Draft'), 'new');
    await userEvent.click(screen.getByRole('link', { name: 'History tab' }));
    expect(address()).toBe('/krypton/secret/demo/db/history');
    expect(dialog()).not.toBeInTheDocument();
    expect(screen.getByLabelText('Draft')).toHaveValue('new');
  });

  it('asks before a dirty form leaves by a link: stay keeps the draft, leave navigates', async () => {
    await renderForm();
    await userEvent.type(screen.getByLabelText('Draft'), 'new');
    await userEvent.click(screen.getByRole('link', { name: 'Catalog' }));
    expect(await screen.findByRole('dialog')).toHaveTextContent(
      'Discard your changes?',
    );
    expect(address()).toBe('/krypton/secret/demo/db/values');

    await userEvent.click(screen.getByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(dialog()).not.toBeInTheDocument());
    expect(address()).toBe('/krypton/secret/demo/db/values');
    expect(screen.getByLabelText('Draft')).toHaveValue('new');

    await userEvent.click(screen.getByRole('link', { name: 'Catalog' }));
    await userEvent.click(
      await screen.findByRole('button', { name: 'Discard changes' }),
    );
    expect(address()).toBe('/catalog');
    expect(screen.queryByLabelText('Draft')).not.toBeInTheDocument();
  });

  it('guards navigate() with push and replace, and another cluster is another Secret', async () => {
    await renderForm();
    await userEvent.type(screen.getByLabelText('Draft'), 'new');

    await userEvent.click(
      screen.getByRole('button', { name: 'Open another Secret' }),
    );
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(dialog()).not.toBeInTheDocument());

    await userEvent.click(screen.getByRole('link', { name: 'Other cluster' }));
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(dialog()).not.toBeInTheDocument());

    await userEvent.click(
      screen.getByRole('button', { name: 'Back to the list' }),
    );
    await userEvent.click(
      await screen.findByRole('button', { name: 'Discard changes' }),
    );
    expect(address()).toBe('/krypton?namespace=demo');
  });

  it("puts the router's own navigator back once the draft is clean or gone", async () => {
    await renderForm();
    const own = () => seen!.navigator.push === seen!.push;
    expect(own()).toBe(true);
    await userEvent.type(screen.getByLabelText('Draft'), 'x');
    expect(own()).toBe(false);
    await userEvent.clear(screen.getByLabelText('Draft'));
    expect(own()).toBe(true);

    await userEvent.type(screen.getByLabelText('Draft'), 'x');
    await userEvent.click(screen.getByRole('link', { name: 'Catalog' }));
    await userEvent.click(
      await screen.findByRole('button', { name: 'Discard changes' }),
    );
    expect(address()).toBe('/catalog');
    expect(own()).toBe(true);
    // Nothing is asked any more: the form, and its guard, are gone.
    await userEvent.click(screen.getByRole('link', { name: 'Back' }));
    expect(address()).toBe('/krypton/secret/demo/db');
    expect(dialog()).not.toBeInTheDocument();
  });
});

describe('secretPageOf', () => {
  it("treats a Secret's tabs as one page, and its cluster as part of it", () => {
    const page = (pathname: string, search = '') =>
      secretPageOf({ pathname, search });
    expect(page('/krypton/secret/demo/db')).toBe(
      page('/krypton/secret/demo/db/consumers/'),
    );
    expect(page('/krypton/secret/demo/db', '?cluster=a&entity=x')).toBe(
      page('/krypton/secret/demo/db/history', '?cluster=a'),
    );
    expect(page('/krypton/secret/demo/db', '?cluster=a')).not.toBe(
      page('/krypton/secret/demo/db'),
    );
    expect(page('/krypton/secret/demo/db')).not.toBe(
      page('/krypton/secret/demo/values'),
    );
    expect(page('/krypton/secret/demo/db')).not.toBe(page('/krypton'));
    // A Secret named like a tab, without a tab segment, is that Secret.
    expect(page('/krypton/secret/demo/history')).toBe(
      page('/krypton/secret/demo/history/values'),
    );
  });
});
