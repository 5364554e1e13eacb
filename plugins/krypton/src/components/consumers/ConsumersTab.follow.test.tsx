import { registerMswTestHooks } from '@backstage/test-utils';
import { ConsumerVersionsResult } from '@krypton/core';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import {
  api,
  partial,
  pod,
  renderConsumers,
  requested,
  serveConsumers,
  versions,
  versionsSummary,
  workloadVersions,
} from './__testUtils__/consumers';
import { FOLLOW_INTERVAL_MS, FOLLOW_LIMIT_MS } from './useConsumerVersions';

const server = setupServer();

/** api with one pod still at version 2 while the live Secret is at 3, and why it stays there. */
function staleAnswer(): ConsumerVersionsResult {
  return versions({
    workloads: [
      workloadVersions(api, {
        pods: [
          pod('api-1', { state: 'version', version: 3 }),
          pod('api-2', { state: 'version', version: 2 }),
        ],
        groups: [
          {
            holds: { state: 'version', version: 2 },
            status: 'stale',
            pods: ['api-2'],
            staleSince: '2026-12-01T09:00:00.000Z',
          },
          {
            holds: { state: 'version', version: 3 },
            status: 'current',
            pods: ['api-1'],
          },
        ],
        problems: [{ reason: 'paused' }],
        rollout: {
          desired: 2,
          updated: 1,
          ready: 2,
          available: 2,
          observed: true,
          conditions: [
            {
              type: 'Progressing',
              status: 'Unknown',
              reason: 'DeploymentPaused',
              message: 'Deployment is paused',
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
  });
}

const currentAnswer = () =>
  versions({
    workloads: [workloadVersions(api)],
    summary: versionsSummary({ pods: 1, current: 1 }),
  });

/** Lets the fake clock run, with the requests and renders it sets off. */
const elapse = (ms: number) =>
  act(async () => {
    await jest.advanceTimersByTimeAsync(ms);
  });

async function restart(user: ReturnType<typeof userEvent.setup>) {
  const button = await screen.findByRole('button', {
    name: 'Restart consumers',
  });
  await waitFor(() => expect(button).toBeEnabled());
  await user.click(button);
  await user.click(
    within(screen.getByRole('dialog')).getByRole('button', {
      name: 'Restart 3 workloads',
    }),
  );
  await screen.findByRole('region', { name: 'This restart' });
}

describe('ConsumersTab following a rollout', () => {
  registerMswTestHooks(server);
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });
  const setup = () =>
    userEvent.setup({ advanceTimers: jest.advanceTimersByTime });

  it('reads the pods every few seconds after a restart until every pod holds the live version, then stops', async () => {
    const calls = serveConsumers(server, {
      // The tab's first read, the read right after the restart, one more, then all current.
      versions: [staleAnswer(), staleAnswer(), staleAnswer(), currentAnswer()],
      restart: () => HttpResponse.json(requested),
    });
    const user = setup();
    await renderConsumers();
    expect(
      await screen.findByText(
        '1 of 2 pods still holds version 2; the live Secret is version 3',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText('Following the rollout…')).toBeNull();
    expect(calls.versions).toBe(1);

    await restart(user);
    expect(
      await screen.findByText('Following the rollout…'),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: 'Stop following the rollout' }),
    ).toBeInTheDocument();
    await waitFor(() => expect(calls.versions).toBe(2));

    // Nothing more until the interval has passed.
    await elapse(FOLLOW_INTERVAL_MS / 2);
    expect(calls.versions).toBe(2);
    await elapse(FOLLOW_INTERVAL_MS / 2);
    await waitFor(() => expect(calls.versions).toBe(3));
    expect(screen.getByText('Following the rollout…')).toBeInTheDocument();

    await elapse(FOLLOW_INTERVAL_MS);
    expect(
      await screen.findByText('Every pod holds version 3'),
    ).toBeInTheDocument();
    expect(calls.versions).toBe(4);
    expect(screen.queryByText('Following the rollout…')).toBeNull();
    expect(
      screen.queryByRole('button', { name: 'Stop following the rollout' }),
    ).toBeNull();
    expect(
      screen.getByRole('status', { name: 'Versions the pods hold' }),
    ).toHaveTextContent('1 pod holds version 3, the live version');

    // Done: no more reads.
    await elapse(FOLLOW_INTERVAL_MS * 6);
    expect(calls.versions).toBe(4);
  });

  it('follows a partly requested restart too, and stops when asked', async () => {
    const calls = serveConsumers(server, {
      versions: [staleAnswer()],
      restart: () => HttpResponse.json(partial, { status: 207 }),
    });
    const user = setup();
    await renderConsumers();
    await restart(user);
    await screen.findByText('Following the rollout…');
    await elapse(FOLLOW_INTERVAL_MS);
    await waitFor(() => expect(calls.versions).toBe(3));

    await user.click(
      screen.getByRole('button', { name: 'Stop following the rollout' }),
    );
    expect(
      screen.getByText('You stopped following the rollout.'),
    ).toBeInTheDocument();
    await elapse(FOLLOW_INTERVAL_MS * 6);
    expect(calls.versions).toBe(3);
  });

  it('stops reading when the tab goes away', async () => {
    const calls = serveConsumers(server, {
      versions: [staleAnswer()],
      restart: () => HttpResponse.json(requested),
    });
    const user = setup();
    const rendered = await renderConsumers();
    await restart(user);
    await screen.findByText('Following the rollout…');
    await waitFor(() => expect(calls.versions).toBe(2));

    rendered.unmount();
    await elapse(FOLLOW_INTERVAL_MS * 6);
    expect(calls.versions).toBe(2);
  });

  it(`gives up after ${
    FOLLOW_LIMIT_MS / 60_000
  } minutes and says what is stuck and why`, async () => {
    const calls = serveConsumers(server, {
      versions: [staleAnswer()],
      restart: () => HttpResponse.json(requested),
    });
    const user = setup();
    await renderConsumers();
    await restart(user);
    await screen.findByText('Following the rollout…');

    await elapse(FOLLOW_LIMIT_MS - FOLLOW_INTERVAL_MS);
    expect(screen.getByText('Following the rollout…')).toBeInTheDocument();
    await elapse(FOLLOW_INTERVAL_MS);

    const title = await screen.findByText(
      'The rollout did not finish within 10 minutes',
    );
    const alert = title.closest('[role="alert"]') as HTMLElement;
    expect(alert).toHaveTextContent('What is stuck, and why:');
    expect(alert).toHaveTextContent('Deployment api');
    expect(alert).toHaveTextContent(
      'Paused: the Deployment will not roll out until it is resumed',
    );
    expect(alert).toHaveTextContent('Stale: version 2, 1 pod');
    expect(alert).toHaveTextContent(
      'Progressing: Unknown (DeploymentPaused): Deployment is paused',
    );
    expect(screen.queryByText('Following the rollout…')).toBeNull();

    // One read when following began, one per interval, the last at the limit.
    const reads = calls.versions;
    expect(reads).toBe(1 + 1 + FOLLOW_LIMIT_MS / FOLLOW_INTERVAL_MS);
    await elapse(FOLLOW_INTERVAL_MS * 6);
    expect(calls.versions).toBe(reads);
  });

  it('does not follow a restart that requested nothing', async () => {
    const calls = serveConsumers(server, {
      versions: [staleAnswer()],
      restart: () =>
        HttpResponse.json({
          ...requested,
          status: 'no_targets',
          matched: 0,
          requested: [],
          message: 'No workloads reference this Secret.',
        }),
    });
    const user = setup();
    await renderConsumers();
    await restart(user);
    await elapse(FOLLOW_INTERVAL_MS * 2);
    expect(screen.queryByText('Following the rollout…')).toBeNull();
    expect(calls.versions).toBe(1);
  });
});
