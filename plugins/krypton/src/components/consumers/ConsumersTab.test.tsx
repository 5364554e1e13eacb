import { CATALOG_FILTER_EXISTS } from '@backstage/plugin-catalog-react';
import { catalogApiMock } from '@backstage/plugin-catalog-react/testUtils';
import { registerMswTestHooks } from '@backstage/test-utils';
import { messages } from '@krypton/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { summary } from '../../__testUtils__/krypton';
import {
  INCOMPLETE_LIST,
  RESTART_NOTE,
  catalogEntities,
  consumers,
  failed,
  partial,
  renderConsumers,
  requested,
  serveConsumers,
} from './__testUtils__/consumers';

const server = setupServer();

/** The row of a table whose row header names the workload. */
function row(table: HTMLElement, name: string): HTMLElement {
  return within(table)
    .getByRole('rowheader', { name })
    .closest('tr') as HTMLElement;
}

const restartButton = () =>
  screen.findByRole('button', { name: 'Restart consumers' });

async function waitForEnabled(button: HTMLElement) {
  await waitFor(() => expect(button).toBeEnabled());
}

describe('ConsumersTab', () => {
  registerMswTestHooks(server);

  it('shows how each workload uses the Secret and what a restart will not do', async () => {
    serveConsumers(server, {
      consumers: consumers({
        discoveryFailures: [
          {
            kind: 'DaemonSet',
            code: 'forbidden',
            message: messages.forbiddenKubernetes,
            httpStatus: 403,
          },
        ],
      }),
    });
    await renderConsumers();

    const table = await screen.findByRole('table', {
      name: 'Consumers: Not in the catalog',
    });
    const apiRow = row(table, 'api');
    expect(within(apiRow).getByText('Deployment')).toBeInTheDocument();
    expect(within(apiRow).getByText('env in app, migrate')).toBeInTheDocument();
    expect(within(apiRow).getByText('volume db-creds')).toBeInTheDocument();
    expect(apiRow).toHaveTextContent(
      'Paused: will not roll out until it is resumed',
    );

    const workerRow = row(table, 'worker');
    expect(within(workerRow).getByText('StatefulSet')).toBeInTheDocument();
    expect(
      within(workerRow).getByText('envFrom in worker'),
    ).toBeInTheDocument();
    expect(
      within(workerRow).getByText('projected volume bundle'),
    ).toBeInTheDocument();
    expect(workerRow).toHaveTextContent(
      'OnDelete: pods roll only when they are deleted',
    );
    expect(workerRow).not.toHaveTextContent('Paused');

    const agentRow = row(table, 'agent');
    expect(within(agentRow).getByText('imagePullSecrets')).toBeInTheDocument();
    expect(agentRow).toHaveTextContent(
      'Reloader: Stakater Reloader watches it, so it may already have rolled',
    );

    const failures = screen.getByRole('table', {
      name: 'Kinds that could not be listed',
    });
    const failure = row(failures, 'DaemonSet');
    expect(within(failure).getByText('forbidden')).toBeInTheDocument();
    expect(within(failure).getByText('403')).toBeInTheDocument();
    expect(
      within(failure).getByText(messages.forbiddenKubernetes),
    ).toBeInTheDocument();
    expect(
      screen.getByText(/Which of their workloads use this Secret is unknown/),
    ).toBeInTheDocument();
  });

  it('groups the workloads by catalog entity, the current entity first', async () => {
    serveConsumers(server, {});
    await renderConsumers({
      entities: catalogEntities,
      entityRef: 'component:default/payments-workers',
    });

    const workers = await screen.findByRole('table', {
      name: 'Consumers: Payment workers',
    });
    expect(within(workers).getAllByRole('rowheader')).toHaveLength(1);
    expect(row(workers, 'worker')).toBeInTheDocument();

    const payments = screen.getByRole('table', {
      name: 'Consumers: component:payments',
    });
    expect(
      within(payments)
        .getAllByRole('rowheader')
        .map(h => h.textContent),
    ).toEqual(['api']);

    // The unannotated entity is filtered out by the catalog query, so the agent is unclaimed.
    const outside = screen.getByRole('table', {
      name: 'Consumers: Not in the catalog',
    });
    expect(
      within(outside)
        .getAllByRole('rowheader')
        .map(h => h.textContent),
    ).toEqual(['agent']);

    // The pods' versions have headings of their own, one per workload.
    const pods = await screen.findByRole('region', {
      name: 'Pods and the version they hold',
    });
    const headings = screen
      .getAllByRole('heading', { level: 3 })
      .filter(h => !pods.contains(h))
      .map(h => h.textContent);
    expect(headings).toEqual([
      'Payment workers (this entity)',
      'component:payments',
      'Not in the catalog',
    ]);
    // The custom title keeps its ref in view.
    expect(
      screen.getByText('component:default/payments-workers'),
    ).toBeInTheDocument();
    // Each entity's heading links to its page; the unclaimed workloads' heading links nowhere.
    expect(
      screen.getByRole('link', { name: 'Payment workers' }),
    ).toHaveAttribute('href', '/catalog/default/component/payments-workers');
    expect(
      screen.getByRole('link', { name: 'component:payments' }),
    ).toHaveAttribute('href', '/catalog/default/component/payments');
    expect(
      screen.queryByRole('link', { name: 'Not in the catalog' }),
    ).toBeNull();
  });

  it('asks the catalog only for entities with a Kubernetes annotation', async () => {
    serveConsumers(server, {});
    const catalog = catalogApiMock.mock({
      getEntities: jest.fn(async () => ({ items: catalogEntities })),
    });
    await renderConsumers({ catalog });
    await screen.findByRole('table', { name: 'Consumers: Not in the catalog' });
    expect(catalog.getEntities).toHaveBeenCalledWith(
      expect.objectContaining({
        filter: [
          {
            'metadata.annotations.backstage.io/kubernetes-id':
              CATALOG_FILTER_EXISTS,
          },
          {
            'metadata.annotations.backstage.io/kubernetes-label-selector':
              CATALOG_FILTER_EXISTS,
          },
        ],
      }),
    );
  });

  it('lists the workloads ungrouped with a warning when the catalog fails', async () => {
    serveConsumers(server, {});
    await renderConsumers({
      catalog: catalogApiMock.mock({
        getEntities: jest.fn(async () => {
          throw new Error('The catalog is down');
        }),
      }),
    });
    const table = await screen.findByRole('table', { name: 'Consumers' });
    expect(within(table).getAllByRole('rowheader')).toHaveLength(3);
    expect(
      screen.getByText(
        'Warning: The catalog could not be read, so workloads are not grouped by entity',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('The catalog is down')).toBeInTheDocument();
    expect(screen.queryByText('Not in the catalog')).toBeNull();
  });

  it("shows the server's message when the dry run fails, and retries", async () => {
    let fail = true;
    const calls = serveConsumers(server, {
      consumers: () =>
        fail
          ? HttpResponse.json({ error: messages.notFound }, { status: 404 })
          : HttpResponse.json(consumers({ workloads: [] })),
    });
    const user = userEvent.setup();
    await renderConsumers();
    expect(
      await screen.findByText(
        `Error: Could not list the consumers: ${messages.notFound}`,
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        /The list of consumers could not be loaded, so there is nothing to confirm\./,
      ),
    ).toBeInTheDocument();
    expect(await restartButton()).toBeDisabled();

    fail = false;
    await user.click(
      screen.getByRole('button', { name: 'Retry listing the consumers' }),
    );
    expect(
      await screen.findByText(
        'No Deployment, StatefulSet or DaemonSet in demo references this Secret.',
      ),
    ).toBeInTheDocument();
    expect(calls.consumers).toBe(2);
    expect(screen.queryByText(/Could not list the consumers/)).toBeNull();
    expect(
      screen.getByText(/No known workload uses this Secret\./),
    ).toBeInTheDocument();
  });

  it('names every workload in the confirmation, warns about paused and OnDelete, and sends nothing on Cancel', async () => {
    const calls = serveConsumers(server, {});
    const user = userEvent.setup();
    await renderConsumers();
    const button = await restartButton();
    await waitForEnabled(button);
    await user.click(button);

    const dialog = screen.getByRole('dialog', {
      name: 'Restart the consumers of db?',
    });
    const list = within(dialog).getByRole('list', {
      name: 'Workloads to restart:',
    });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map(li => li.textContent),
    ).toEqual(['Deployment/api', 'StatefulSet/worker', 'DaemonSet/agent']);
    expect(dialog).toHaveTextContent(
      'Deployment/api is paused and will not roll out until it is resumed',
    );
    expect(dialog).toHaveTextContent(
      'StatefulSet/worker uses OnDelete, so its pods roll only when they are deleted',
    );

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.posts).toBe(0);

    // Escape cancels too.
    await user.click(button);
    await screen.findByRole('dialog');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.posts).toBe(0);
  });

  it('restarts once when the confirmation is clicked twice', async () => {
    const calls = serveConsumers(server, {
      restart: () => HttpResponse.json(requested),
    });
    const user = userEvent.setup();
    await renderConsumers({ entities: catalogEntities });
    const button = await restartButton();
    await waitForEnabled(button);
    await user.click(button);
    await user.dblClick(
      within(screen.getByRole('dialog')).getByRole('button', {
        name: 'Restart 3 workloads',
      }),
    );
    await screen.findByRole('region', { name: 'This restart' });
    expect(calls.posts).toBe(1);
  });

  it('shows a 200 restart as requested, not as finished, and refreshes the last restart', async () => {
    const calls = serveConsumers(server, {
      restart: () => HttpResponse.json(requested),
      last: [
        null,
        {
          result: requested,
          requestedBy: 'user:default/alice',
          requestedAt: '2026-05-01T10:00:00.000Z',
        },
      ],
    });
    const user = userEvent.setup();
    await renderConsumers({ entities: catalogEntities });
    expect(
      await screen.findByText('No restart requested through Krypton yet.'),
    ).toBeInTheDocument();
    const button = await restartButton();
    await waitForEnabled(button);
    await user.click(button);
    await user.click(
      within(screen.getByRole('dialog')).getByRole('button', {
        name: 'Restart 3 workloads',
      }),
    );

    const attempt = await screen.findByRole('region', { name: 'This restart' });
    expect(within(attempt).getByText('Rollout requested')).toBeInTheDocument();
    expect(
      within(attempt).getByText(
        'Rollout requested for 3 of 3 matched workloads.',
      ),
    ).toBeInTheDocument();
    expect(within(attempt).getByText(RESTART_NOTE)).toBeInTheDocument();
    const payments = within(attempt).getByRole('table', {
      name: 'This restart: component:payments',
    });
    expect(
      within(row(payments, 'api')).getByText('Requested'),
    ).toBeInTheDocument();
    expect(
      within(attempt).getByRole('table', {
        name: 'This restart: Payment workers',
      }),
    ).toHaveTextContent('worker');
    expect(
      within(attempt).getByRole('table', {
        name: 'This restart: Not in the catalog',
      }),
    ).toHaveTextContent('agent');
    expect(calls.posts).toBe(1);

    const last = screen.getByRole('region', {
      name: 'Last restart through Krypton',
    });
    expect(
      await within(last).findByRole('link', { name: 'alice' }),
    ).toHaveAttribute('href', '/catalog/default/user/alice');
    expect(within(last).getByText(/^Requested by/)).toHaveTextContent(
      /^Requested by alice .+ ago\.$/,
    );
    expect(calls.last).toBe(2);
  });

  it('shows a 207 as a partial result with the failure and its guidance', async () => {
    serveConsumers(server, {
      restart: () => HttpResponse.json(partial, { status: 207 }),
    });
    const user = userEvent.setup();
    await renderConsumers({ entities: catalogEntities });
    const button = await restartButton();
    await waitForEnabled(button);
    await user.click(button);
    await user.click(
      within(screen.getByRole('dialog')).getByRole('button', {
        name: 'Restart 3 workloads',
      }),
    );

    const attempt = await screen.findByRole('region', { name: 'This restart' });
    expect(
      within(attempt).getByText('Rollout partly requested'),
    ).toBeInTheDocument();
    expect(within(attempt).getByText(partial.message)).toBeInTheDocument();
    expect(within(attempt).getByText(RESTART_NOTE)).toBeInTheDocument();
    expect(
      within(attempt).getByText(/Review the workloads' actual state/),
    ).toBeInTheDocument();

    const workers = within(attempt).getByRole('table', {
      name: 'This restart: Payment workers',
    });
    const failure = row(workers, 'worker');
    expect(within(failure).getByText('Failed')).toBeInTheDocument();
    expect(within(failure).getByText('forbidden')).toBeInTheDocument();
    expect(within(failure).getByText('403')).toBeInTheDocument();
    expect(
      within(failure).getByText(messages.forbiddenKubernetes),
    ).toBeInTheDocument();
    const payments = within(attempt).getByRole('table', {
      name: 'This restart: component:payments',
    });
    expect(
      within(row(payments, 'api')).getByText('Requested'),
    ).toBeInTheDocument();
    expect(screen.queryByText(/The restart was refused/)).toBeNull();
  });

  it('shows a 503 as a failed result with the kinds whose matches are unknown', async () => {
    serveConsumers(server, {
      restart: () => HttpResponse.json(failed, { status: 503 }),
    });
    const user = userEvent.setup();
    await renderConsumers();
    const button = await restartButton();
    await waitForEnabled(button);
    await user.click(button);
    await user.click(
      within(screen.getByRole('dialog')).getByRole('button', {
        name: 'Restart 3 workloads',
      }),
    );

    const attempt = await screen.findByRole('region', { name: 'This restart' });
    expect(within(attempt).getByText('Restart failed')).toBeInTheDocument();
    expect(within(attempt).getByText(failed.message)).toBeInTheDocument();
    expect(
      within(attempt).getByText(
        /Which of their workloads use the Secret is unknown, and none of them was restarted/,
      ),
    ).toBeInTheDocument();
    const table = within(attempt).getByRole('table', {
      name: 'This restart: discovery failures',
    });
    const deployments = row(table, 'Deployment');
    expect(
      within(deployments).getByText('incomplete_list'),
    ).toBeInTheDocument();
    expect(within(deployments).getByText('503')).toBeInTheDocument();
    expect(within(deployments).getByText(INCOMPLETE_LIST)).toBeInTheDocument();
    const statefulSets = row(table, 'StatefulSet');
    expect(within(statefulSets).getByText('rate_limited')).toBeInTheDocument();
    expect(within(statefulSets).getByText('429')).toBeInTheDocument();
    expect(within(attempt).getByText(/Known matches: 0\./)).toBeInTheDocument();
    expect(screen.queryByText(/The restart was refused/)).toBeNull();
  });

  it("shows a preflight refusal as an error with the server's message, not as a result", async () => {
    const calls = serveConsumers(server, {
      restart: () =>
        HttpResponse.json({ error: messages.forbiddenAcl }, { status: 403 }),
    });
    const user = userEvent.setup();
    await renderConsumers();
    const button = await restartButton();
    await waitForEnabled(button);
    await user.click(button);
    await user.click(
      within(screen.getByRole('dialog')).getByRole('button', {
        name: 'Restart 3 workloads',
      }),
    );
    expect(
      await screen.findByText(
        `Error: The restart was refused: ${messages.forbiddenAcl}`,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText('Rollout requested')).toBeNull();
    expect(screen.queryByRole('region', { name: 'This restart' })).toBeNull();
    expect(calls.posts).toBe(1);
  });

  it('disables Restart with the reason when /config says restarting is disabled', async () => {
    const calls = serveConsumers(server, { restartEnabled: false });
    await renderConsumers();
    const reason = await screen.findByText(
      `You cannot restart the consumers: ${messages.restartDisabled}.`,
    );
    const button = await restartButton();
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-describedby', reason.id);
    // The dry run is still shown to readers.
    expect(
      await screen.findByRole('table', {
        name: 'Consumers: Not in the catalog',
      }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.posts).toBe(0);
  });

  it("disables Restart for a viewer under the Secret's rules", async () => {
    serveConsumers(server, {});
    await renderConsumers({
      summary: summary({
        access: {
          owners: ['user:default/bob'],
          editors: [],
          viewers: ['group:default/team-a'],
        },
      }),
    });
    expect(
      await screen.findByText(
        "You cannot restart the consumers: Only the Secret's editors and owners may do this.",
      ),
    ).toBeInTheDocument();
    expect(await restartButton()).toBeDisabled();
  });

  it('disables Restart when the Secret could not be read', async () => {
    serveConsumers(server, {});
    await renderConsumers({ summary: null });
    expect(
      await screen.findByText(
        'You cannot restart the consumers: The Secret could not be read, and the server restarts only the consumers of a Secret it can read.',
      ),
    ).toBeInTheDocument();
    expect(await restartButton()).toBeDisabled();
    // The dry run is the server's to refuse.
    expect(
      await screen.findByRole('table', {
        name: 'Consumers: Not in the catalog',
      }),
    ).toBeInTheDocument();
  });

  it('shows the last restart with who and when, grouped like the dry run', async () => {
    serveConsumers(server, {
      last: [
        {
          result: partial,
          requestedBy: 'user:default/bob',
          requestedAt: '2026-04-30T08:15:00.000Z',
        },
      ],
    });
    await renderConsumers({
      entities: catalogEntities,
      entityRef: 'component:default/payments',
    });
    const last = await screen.findByRole('region', {
      name: 'Last restart through Krypton',
    });
    // Who: a link to the user's entity page; when: relative, with the exact time on hover.
    expect(
      await within(last).findByRole('link', { name: 'bob' }),
    ).toHaveAttribute('href', '/catalog/default/user/bob');
    const when = within(last).getByText(/ ago$/);
    expect(when.tagName).toBe('TIME');
    expect(when).toHaveAttribute('datetime', '2026-04-30T08:15:00.000Z');
    expect(when.getAttribute('title')).toMatch(/2026/);
    expect(
      within(last).getByText('Rollout partly requested'),
    ).toBeInTheDocument();
    const tables = within(last)
      .getAllByRole('table')
      .map(t => t.getAttribute('aria-label'));
    expect(tables).toEqual([
      'Last restart: component:payments',
      'Last restart: Payment workers',
    ]);
    expect(
      within(
        row(
          within(last).getByRole('table', {
            name: 'Last restart: Payment workers',
          }),
          'worker',
        ),
      ).getByText(messages.forbiddenKubernetes),
    ).toBeInTheDocument();
  });
});
