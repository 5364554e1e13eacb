import { registerMswTestHooks } from '@backstage/test-utils';
import { ConsumerVersionsResult, messages } from '@krypton/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import {
  api,
  pod,
  renderConsumers,
  requested,
  serveConsumers,
  versions,
  versionsSummary,
  worker,
  workloadVersions,
} from './__testUtils__/consumers';

const server = setupServer();

const summaryStatus = () =>
  screen.findByRole('status', { name: 'Versions the pods hold' });

/** Four pods of api at the live version 9, three still at 7 since 07:30, 2.5 hours before the check. */
function staleApi(): ConsumerVersionsResult {
  const current = [1, 2, 3, 4].map(i =>
    pod(`api-${i}`, { state: 'version', version: 9 }),
  );
  const stale = [5, 6, 7].map(i =>
    pod(
      `api-${i}`,
      { state: 'version', version: 7 },
      {
        containers: [
          {
            name: 'app',
            role: 'container',
            reads: ['env', 'subPath'],
            startedAt: '2026-12-01T06:00:00.000Z',
            running: true,
            restarts: 2,
            holds: { state: 'version', version: 7 },
          },
          {
            name: 'migrate',
            role: 'init',
            reads: ['envFrom'],
            startedAt: '2026-12-01T05:59:00.000Z',
            running: false,
            restarts: 0,
            holds: { state: 'version', version: 7 },
          },
        ],
      },
    ),
  );
  return versions({
    live: { version: 9, since: '2026-12-01T07:30:00.000Z' },
    workloads: [
      workloadVersions(api, {
        pods: [...current, ...stale],
        rollout: {
          desired: 7,
          updated: 4,
          ready: 7,
          available: 7,
          observed: true,
          conditions: [],
        },
        groups: [
          {
            holds: { state: 'version', version: 7 },
            status: 'stale',
            pods: ['api-5', 'api-6', 'api-7'],
            staleSince: '2026-12-01T07:30:00.000Z',
          },
          {
            holds: { state: 'version', version: 9 },
            status: 'current',
            pods: ['api-1', 'api-2', 'api-3', 'api-4'],
          },
        ],
      }),
    ],
    summary: versionsSummary({
      pods: 7,
      current: 4,
      stale: 3,
      staleVersions: [7],
      allCurrent: false,
    }),
  });
}

/** The list item of one group of pods, found by its words. */
function group(section: HTMLElement, text: string): HTMLElement {
  return within(section).getByText(text).closest('li') as HTMLElement;
}

describe('ConsumersTab: the versions the pods hold', () => {
  registerMswTestHooks(server);

  it('says that every pod holds the live version', async () => {
    serveConsumers(server, {});
    await renderConsumers();
    const status = await summaryStatus();
    expect(status).toHaveTextContent(
      'All 2 pods hold version 3, the live version',
    );
    expect(status).toHaveTextContent(
      '1 pod does not read the Secret while it runs.',
    );
    const agentSection = screen.getByRole('region', {
      name: 'DaemonSet agent',
    });
    expect(
      within(agentSection).getByText(
        'Unaffected: used only to pull images, 1 pod',
      ),
    ).toBeInTheDocument();
  });

  it.each([
    [
      'one stale version',
      { stale: 3, staleVersions: [7] },
      '3 of 7 pods still hold version 7; the live Secret is version 9',
    ],
    [
      'several stale versions',
      { stale: 3, staleVersions: [7, 8] },
      '3 of 7 pods still hold older versions (7, 8); the live Secret is version 9',
    ],
    [
      'pods older than the history',
      { stale: 3, staleVersions: [8], olderThanHistory: 2 },
      '3 of 7 pods still hold older versions (8 and older); the live Secret is version 9',
    ],
  ])('names the stale versions: %s', async (_name, counts, line) => {
    serveConsumers(server, {
      versions: [
        {
          ...staleApi(),
          summary: versionsSummary({
            pods: 7,
            current: 4,
            allCurrent: false,
            ...counts,
          }),
        },
      ],
    });
    await renderConsumers();
    const status = await summaryStatus();
    expect(within(status).getByText(line)).toBeInTheDocument();
    expect(status).toHaveTextContent('Checked');
  });

  it('shows the rollout, a stale group with how long it has been stale, and its pods on request', async () => {
    serveConsumers(server, { versions: [staleApi()] });
    const user = userEvent.setup();
    await renderConsumers();
    const section = await screen.findByRole('region', {
      name: 'Deployment api',
    });
    expect(
      within(section).getByText(
        'Rollout: 4 of 7 updated, 7 ready, 7 available',
      ),
    ).toBeInTheDocument();

    const stale = group(section, 'Stale: version 7, 3 pods');
    // Measured against the server's clock: 07:30 to 10:00.
    const since = within(stale).getByText('stale for 2 hours');
    expect(since.tagName).toBe('TIME');
    expect(since).toHaveAttribute('datetime', '2026-12-01T07:30:00.000Z');
    expect(since.getAttribute('title')).toMatch(/2026/);
    expect(group(section, 'Current: version 9, 4 pods')).not.toHaveTextContent(
      'stale for',
    );

    // The pods stay folded until asked for.
    expect(
      within(section).queryByRole('table', {
        name: 'Pods of Deployment api: version 7',
      }),
    ).toBeNull();
    const show = within(stale).getByRole('button', { name: 'Show pods' });
    expect(show).toHaveAttribute('aria-expanded', 'false');
    expect(show).toHaveAccessibleDescription('Stale: version 7, 3 pods');
    await user.click(show);
    expect(
      within(stale).getByRole('button', { name: 'Hide pods' }),
    ).toHaveAttribute('aria-expanded', 'true');

    const table = within(section).getByRole('table', {
      name: 'Pods of Deployment api: version 7',
    });
    expect(
      within(table)
        .getAllByRole('rowheader')
        .map(h => h.textContent),
    ).toEqual([
      'api-5Running, ready',
      'api-6Running, ready',
      'api-7Running, ready',
    ]);
    const api5 = within(table)
      .getByRole('rowheader', { name: /^api-5/ })
      .closest('tbody') as HTMLElement;
    const [app, migrate] = within(api5).getAllByRole('row');
    expect(app).toHaveTextContent('app');
    expect(within(app).getByText('env, subPath mount')).toBeInTheDocument();
    expect(within(app).getByText('version 7')).toBeInTheDocument();
    // Started four hours before the check; restarted twice.
    expect(within(app).getByText('4 hours ago').tagName).toBe('TIME');
    expect(within(app).getByText('2')).toBeInTheDocument();
    expect(migrate).toHaveTextContent('init container');
    expect(migrate).toHaveTextContent('envFrom');
    expect(migrate).toHaveTextContent('not running');
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 3 * 2);
  });

  it('says when the pods of a workload could not be read, never that it has none', async () => {
    serveConsumers(server, {
      versions: [
        versions({
          workloads: [
            workloadVersions(api),
            workloadVersions(worker, {
              groups: [],
              pods: [],
              podsFailure: {
                code: 'forbidden',
                message: messages.forbiddenKubernetes,
                httpStatus: 403,
              },
            }),
          ],
          summary: versionsSummary({
            pods: 1,
            current: 1,
            unreadWorkloads: 1,
            allCurrent: false,
          }),
        }),
      ],
    });
    await renderConsumers();
    const status = await summaryStatus();
    expect(status).toHaveTextContent(
      '1 of 1 pods holds version 3, the live version',
    );
    expect(status).toHaveTextContent(
      'The pods of 1 workload could not be read, so they are not counted.',
    );
    const section = screen.getByRole('region', { name: 'StatefulSet worker' });
    expect(section).toHaveTextContent(
      `The pods of this workload could not be read, so which version they hold is unknown: ${messages.forbiddenKubernetes}`,
    );
    expect(section).toHaveTextContent('Code forbidden, HTTP status 403');
    expect(section).not.toHaveTextContent('0 pods');
    expect(section).not.toHaveTextContent('This workload has no pods.');
    expect(
      within(section).queryByRole('button', { name: 'Show pods' }),
    ).toBeNull();
  });

  it("shows a rollout's problems with the pods concerned and the workload's own conditions", async () => {
    serveConsumers(server, {
      versions: [
        versions({
          workloads: [
            workloadVersions(api, {
              problems: [{ reason: 'paused' }],
            }),
            workloadVersions(worker, {
              pods: [
                pod(
                  'worker-0',
                  { state: 'version', version: 2 },
                  {
                    ready: false,
                    containers: [
                      {
                        name: 'worker',
                        role: 'container',
                        reads: ['envFrom'],
                        startedAt: '2026-12-01T09:59:00.000Z',
                        running: false,
                        restarts: 14,
                        waitingReason: 'CrashLoopBackOff',
                        holds: { state: 'version', version: 2 },
                      },
                    ],
                  },
                ),
              ],
              groups: [
                {
                  holds: { state: 'version', version: 2 },
                  status: 'stale',
                  pods: ['worker-0'],
                  staleSince: '2026-12-01T09:00:00.000Z',
                },
              ],
              problems: [{ reason: 'crash-loop', pods: ['worker-0'] }],
              rollout: {
                desired: 1,
                updated: 0,
                ready: 0,
                available: null,
                observed: true,
                conditions: [
                  {
                    type: 'Progressing',
                    status: 'False',
                    reason: 'ProgressDeadlineExceeded',
                    message:
                      'ReplicaSet "worker-5d" has timed out progressing.',
                  },
                ],
              },
            }),
          ],
          summary: versionsSummary({
            pods: 2,
            current: 1,
            stale: 1,
            staleVersions: [2],
            allCurrent: false,
          }),
        }),
      ],
    });
    const user = userEvent.setup();
    await renderConsumers();
    expect(await summaryStatus()).toHaveTextContent(
      '1 of 2 pods still holds version 2; the live Secret is version 3',
    );

    const apiSection = screen.getByRole('region', { name: 'Deployment api' });
    expect(apiSection).toHaveTextContent(
      'Why the rollout may not reach every pod',
    );
    expect(apiSection).toHaveTextContent(
      'Paused: the Deployment will not roll out until it is resumed',
    );

    const workerSection = screen.getByRole('region', {
      name: 'StatefulSet worker',
    });
    expect(workerSection).toHaveTextContent(
      'Rollout: 0 of 1 updated, 0 ready, ? available',
    );
    expect(
      within(workerSection).getByText('Containers crash and restart in a loop'),
    ).toBeInTheDocument();
    expect(
      within(workerSection).getByText('Pods: worker-0'),
    ).toBeInTheDocument();
    const conditions = within(workerSection).getByRole('table', {
      name: 'Conditions of StatefulSet worker',
    });
    const progressing = within(conditions)
      .getByRole('rowheader', { name: 'Progressing' })
      .closest('tr') as HTMLElement;
    expect(within(progressing).getByText('False')).toBeInTheDocument();
    expect(
      within(progressing).getByText('ProgressDeadlineExceeded'),
    ).toBeInTheDocument();
    expect(
      within(progressing).getByText(
        'ReplicaSet "worker-5d" has timed out progressing.',
      ),
    ).toBeInTheDocument();

    // The crashing container says why it waits.
    await user.click(
      within(group(workerSection, 'Stale: version 2, 1 pod')).getByRole(
        'button',
        { name: 'Show pods' },
      ),
    );
    const pods = within(workerSection).getByRole('table', {
      name: 'Pods of StatefulSet worker: version 2',
    });
    expect(within(pods).getByText('Running, not ready')).toBeInTheDocument();
    expect(within(pods).getByText('CrashLoopBackOff')).toBeInTheDocument();
    expect(within(pods).getByText('14')).toBeInTheDocument();
  });

  it('shows a refused read of the pods without taking Restart away', async () => {
    const calls = serveConsumers(server, {
      versions: [
        () =>
          HttpResponse.json({ error: messages.forbiddenAcl }, { status: 403 }),
      ],
      restart: () => HttpResponse.json(requested),
    });
    const user = userEvent.setup();
    await renderConsumers();
    expect(
      await screen.findByText(
        `Error: Could not read which version the pods hold: ${messages.forbiddenAcl}`,
      ),
    ).toBeInTheDocument();
    expect(
      screen.queryByRole('status', { name: 'Versions the pods hold' }),
    ).toBeNull();
    expect(
      screen.queryByRole('region', { name: 'Pods and the version they hold' }),
    ).toBeNull();
    // The dry run and the restart do not depend on the pods.
    expect(
      await screen.findByRole('table', {
        name: 'Consumers: Not in the catalog',
      }),
    ).toBeInTheDocument();
    const restart = screen.getByRole('button', { name: 'Restart consumers' });
    await waitFor(() => expect(restart).toBeEnabled());
    await user.click(restart);
    await user.click(
      within(screen.getByRole('dialog')).getByRole('button', {
        name: 'Restart 3 workloads',
      }),
    );
    expect(
      await screen.findByRole('region', { name: 'This restart' }),
    ).toHaveTextContent('Rollout requested');
    expect(calls.posts).toBe(1);
  });

  it('retries a failed read of the pods', async () => {
    let fail = true;
    const calls = serveConsumers(server, {
      versions: [
        () =>
          fail
            ? HttpResponse.json(
                { error: messages.unavailable },
                { status: 503 },
              )
            : HttpResponse.json(versions()),
      ],
    });
    const user = userEvent.setup();
    await renderConsumers();
    await screen.findByText(
      `Error: Could not read which version the pods hold: ${messages.unavailable}`,
    );
    fail = false;
    await user.click(
      screen.getByRole('button', { name: 'Retry reading the pods' }),
    );
    expect(await summaryStatus()).toHaveTextContent(
      'All 2 pods hold version 3, the live version',
    );
    expect(screen.queryByText(/Could not read which version/)).toBeNull();
    expect(calls.versions).toBe(2);
  });
});
