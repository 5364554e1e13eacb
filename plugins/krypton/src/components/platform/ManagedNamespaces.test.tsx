import {
  TestApiProvider,
  registerMswTestHooks,
  renderInTestApp,
} from '@backstage/test-utils';
import { ManagedNamespacesDto } from '@krypton/core';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { client } from '../../__testUtils__/krypton';
import { kryptonApiRef } from '../../api/KryptonApi';
import { ManagedNamespaces } from './ManagedNamespaces';

const server = setupServer();

const EMPTY_DESCRIPTION =
  "To start, choose or type a namespace above and select “Show Secrets”. There, “Create Secret” makes a new Secret, and “Adopt a Secret” takes a Secret that already exists into Krypton's management.";

/** Serves the first view's answer on any cluster, recording the paths asked. */
function serve(answer: () => Response): string[] {
  const paths: string[] = [];
  server.use(
    http.get(/\/managed-namespaces$/, ({ request }) => {
      paths.push(new URL(request.url).pathname);
      return answer();
    }),
  );
  return paths;
}

const answer = (dto: ManagedNamespacesDto) => () => HttpResponse.json(dto);

/** The view with the page's address of a namespace, recording each choice. */
async function render(cluster?: string) {
  const chosen: string[] = [];
  await renderInTestApp(
    <TestApiProvider apis={[[kryptonApiRef, client]]}>
      <ManagedNamespaces
        cluster={cluster}
        hrefOf={namespace => `?namespace=${namespace}`}
        onChoose={namespace => chosen.push(namespace)}
      />
    </TestApiProvider>,
  );
  return chosen;
}

describe('ManagedNamespaces', () => {
  registerMswTestHooks(server);

  it('lists the namespaces with their counts, each a link that chooses it', async () => {
    const paths = serve(
      answer({
        items: [
          { namespace: 'big', secrets: null },
          { namespace: 'demo', secrets: 3 },
          { namespace: 'solo', secrets: 1 },
        ],
        notLookedIn: 0,
      }),
    );
    const user = userEvent.setup();
    const chosen = await render();

    expect(
      await screen.findByText('Namespaces with Krypton Secrets'),
    ).toBeInTheDocument();
    const table = screen.getByRole('table');
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map(row => row.textContent);
    expect(rows).toEqual([
      'bigNot counted: the namespace holds more than 2,000 Secrets',
      'demo3 Secrets',
      'solo1 Secret',
    ]);
    const demo = within(table).getByRole('link', { name: 'demo' });
    expect(demo).toHaveAttribute('href', '/?namespace=demo');
    await user.click(demo);
    expect(chosen).toEqual(['demo']);
    expect(paths).toEqual(['/api/krypton/managed-namespaces']);
    expect(screen.queryByText(/Krypton looked in the first/)).toBeNull();
  });

  it('says how many namespaces were not looked in, and how to open one', async () => {
    serve(
      answer({ items: [{ namespace: 'demo', secrets: 2 }], notLookedIn: 7 }),
    );
    await render();
    expect(
      await screen.findByText(
        'Krypton looked in the first 100 namespaces you may list, by name. 7 more namespaces are not shown here: type a name above to open one.',
      ),
    ).toBeInTheDocument();
  });

  it('tells how to start where the user may list no Krypton Secrets', async () => {
    serve(answer({ items: [], notLookedIn: 0 }));
    await render();
    expect(
      await screen.findByText(
        'No Krypton-managed Secrets in the namespaces you may list',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText(EMPTY_DESCRIPTION)).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('names the namespaces it looked in when none of them holds Krypton Secrets', async () => {
    serve(answer({ items: [], notLookedIn: 1 }));
    await render();
    expect(
      await screen.findByText(
        'No Krypton-managed Secrets in the first 100 namespaces you may list',
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        'Krypton looked in the first 100 namespaces you may list, by name. 1 more namespace is not shown here: type its name above to open it.',
      ),
    ).toBeInTheDocument();
  });

  it('asks for a typed name, without an error, where the user may not list namespaces', async () => {
    serve(() =>
      HttpResponse.json({ error: 'Access denied.' }, { status: 403 }),
    );
    await render();
    expect(
      await screen.findByText(
        'You may not list the namespaces here, so Krypton cannot show which of them hold its Secrets. Type a namespace name above to list its Secrets.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText('Access denied.')).toBeNull();
  });

  it("shows any other failure with the server's message", async () => {
    serve(() =>
      HttpResponse.json(
        { error: 'Kubernetes is unavailable.' },
        { status: 503 },
      ),
    );
    await render();
    expect(
      await screen.findByText(
        /Could not list the namespaces with Krypton Secrets/,
      ),
    ).toBeInTheDocument();
    expect(
      screen.getAllByText(/Kubernetes is unavailable\./).length,
    ).toBeGreaterThan(0);
  });

  it('asks the named cluster', async () => {
    const paths = serve(
      answer({ items: [{ namespace: 'demo', secrets: 1 }], notLookedIn: 0 }),
    );
    await render('prod');
    await screen.findByRole('link', { name: 'demo' });
    expect(paths).toEqual(['/api/krypton/clusters/prod/managed-namespaces']);
  });
});
