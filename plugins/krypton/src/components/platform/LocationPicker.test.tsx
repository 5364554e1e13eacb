import {
  TestApiProvider,
  registerMswTestHooks,
  renderInTestApp,
} from '@backstage/test-utils';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { useState } from 'react';
import { baseUrl, client } from '../../__testUtils__/krypton';
import { kryptonApiRef } from '../../api/KryptonApi';
import { LocationPicker } from './LocationPicker';

const server = setupServer();

type Location = { cluster: string; namespace: string };

/** The picker with its location held the way the page holds it, recording every change. */
function renderPicker(start: Location = { cluster: 'local', namespace: '' }) {
  const changes: Location[] = [];
  const Harness = () => {
    const [location, setLocation] = useState(start);
    return (
      <LocationPicker
        clusters={['local', 'prod']}
        cluster={location.cluster}
        namespace={location.namespace}
        onChange={next => {
          changes.push(next);
          setLocation(next);
        }}
      />
    );
  };
  return renderInTestApp(
    <TestApiProvider apis={[[kryptonApiRef, client]]}>
      <Harness />
    </TestApiProvider>,
  ).then(() => changes);
}

/** Serves each cluster's namespace list, counting the reads per cluster. */
function serveNamespaces(
  answers: Record<string, () => Response>,
): Record<string, number> {
  const reads: Record<string, number> = {};
  server.use(
    http.get(`${baseUrl}/clusters/:cluster/namespaces`, ({ params }) => {
      const cluster = String(params.cluster);
      reads[cluster] = (reads[cluster] ?? 0) + 1;
      const answer = answers[cluster];
      return answer
        ? answer()
        : HttpResponse.json({ error: 'Unknown cluster.' }, { status: 404 });
    }),
  );
  return reads;
}

const namespaceField = () => screen.getByRole('textbox', { name: 'Namespace' });

/** The options of the namespace list, once it is open. */
const listed = async () =>
  within(await screen.findByRole('listbox')).getAllByRole('option');

describe('LocationPicker', () => {
  registerMswTestHooks(server);

  it('offers the namespaces the user may list, and applies a picked one at once', async () => {
    const reads = serveNamespaces({
      local: () =>
        HttpResponse.json({ items: ['default', 'krypton-demo', 'payments'] }),
      prod: () => HttpResponse.json({ items: ['prod-payments'] }),
    });
    const user = userEvent.setup();
    const changes = await renderPicker();

    expect(
      await screen.findByText('Pick a namespace, or type its name'),
    ).toBeInTheDocument();
    expect(namespaceField()).toHaveAttribute('aria-autocomplete', 'list');
    await user.click(namespaceField());
    await user.type(namespaceField(), 'pay');
    // The list narrows to what is typed.
    const options = await listed();
    expect(options.map(o => o.textContent)).toEqual(['payments']);
    await user.click(options[0]);
    expect(changes).toEqual([{ cluster: 'local', namespace: 'payments' }]);
    expect(namespaceField()).toHaveValue('payments');

    // Another cluster lists its own namespaces.
    await user.selectOptions(screen.getByLabelText('Cluster'), 'prod');
    await waitFor(() => expect(reads.prod).toBe(1));
    await user.clear(namespaceField());
    await user.type(namespaceField(), 'prod');
    expect((await listed()).map(o => o.textContent)).toEqual(['prod-payments']);
    expect(reads.local).toBe(1);
    expect(screen.queryByText(/type a name/)).toBeNull();
  });

  it('still takes a typed name, checked by the namespace rule, on submit', async () => {
    serveNamespaces({
      local: () => HttpResponse.json({ items: ['default'] }),
    });
    const user = userEvent.setup();
    const changes = await renderPicker();
    await screen.findByText('Pick a namespace, or type its name');

    await user.type(namespaceField(), 'Not_A_Namespace');
    await user.click(screen.getByRole('button', { name: 'Show Secrets' }));
    expect(namespaceField()).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('Pick a namespace, or type its name')).toBeNull();
    expect(changes).toEqual([]);

    await user.clear(namespaceField());
    await user.type(namespaceField(), 'not-listed{Enter}');
    expect(changes).toEqual([{ cluster: 'local', namespace: 'not-listed' }]);
  });

  it('falls back to typing a name when listing is refused', async () => {
    serveNamespaces({
      local: () =>
        HttpResponse.json(
          { error: 'Access denied.' },
          { status: 403, statusText: 'Forbidden' },
        ),
    });
    const user = userEvent.setup();
    const changes = await renderPicker();

    expect(
      await screen.findByText('You may not list namespaces here; type a name.'),
    ).toBeInTheDocument();
    // A plain field: no list to open.
    expect(namespaceField()).not.toHaveAttribute('aria-autocomplete');
    await user.type(namespaceField(), 'team--');
    await user.click(screen.getByRole('button', { name: 'Show Secrets' }));
    expect(namespaceField()).toHaveAttribute('aria-invalid', 'true');
    expect(
      screen.queryByText('You may not list namespaces here; type a name.'),
    ).toBeNull();
    expect(changes).toEqual([]);

    await user.clear(namespaceField());
    await user.type(namespaceField(), 'team-a');
    await user.click(screen.getByRole('button', { name: 'Show Secrets' }));
    expect(changes).toEqual([{ cluster: 'local', namespace: 'team-a' }]);
  });

  it('falls back to typing a name, saying so, when the list fails', async () => {
    serveNamespaces({
      local: () =>
        HttpResponse.json(
          { error: 'Kubernetes is unavailable. Try again later.' },
          { status: 503 },
        ),
    });
    await renderPicker({ cluster: 'local', namespace: 'demo' });
    expect(
      await screen.findByText(
        'Krypton could not list the namespaces here; type a name.',
      ),
    ).toBeInTheDocument();
    expect(namespaceField()).toHaveValue('demo');
  });
});
