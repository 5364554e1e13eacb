import {
  DEPLOYMENTS,
  KubeApiError,
  PODS,
  PodLike,
  REPLICA_SETS,
  RESTART_MESSAGES,
  messages,
} from '@krypton/core';
import {
  act,
  cleanup,
  fireEvent,
  screen,
  waitFor,
  within,
} from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KryptonSecretSection } from '../KryptonSecretSection';
import { MANAGED, NS, inMemoryKrypton } from '../__testUtils__/inMemoryKrypton';
import { renderInHeadlamp } from '../__testUtils__/renderInHeadlamp';
import { FOLLOW_INTERVAL_MS } from './useConsumerVersions';

type Env = ReturnType<typeof inMemoryKrypton>;

const at = (time: string) => new Date(`2026-12-01T${time}Z`);
const CREATED = at('08:00:00');
const CHANGED = at('10:00:00');

const envFromDb = {
  name: 'app',
  envFrom: [{ secretRef: { name: 'db' } }],
};

/**
 * The Secret `db` created at 08:00 and changed through Krypton at 10:00: version 1 until then,
 * version 2 (live) since.
 */
async function secretAtVersion2(env: Env) {
  vi.setSystemTime(CREATED);
  env.put(
    'db',
    { password: 'p1' },
    {
      metadata: {
        name: 'db',
        labels: { ...MANAGED },
        creationTimestamp: CREATED.toISOString(),
      },
    },
  );
  vi.setSystemTime(CHANGED);
  await env.update('db', { password: 'p2' });
}

/**
 * A Deployment `api` that reads `db` through envFrom, with its ReplicaSet, as the controller
 * makes them; `status` is what the controller reports.
 */
function deployment(env: Env, spec = {}, status: Record<string, unknown> = {}) {
  const labels = { app: 'api' };
  const stored = env.gateway.put(DEPLOYMENTS, NS, {
    metadata: { name: 'api', labels, generation: 2 },
    spec: {
      replicas: 2,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [envFromDb] } },
      ...spec,
    },
    status: { observedGeneration: 2, ...status },
  });
  return env.gateway.put(REPLICA_SETS, NS, {
    metadata: {
      name: 'api-5d',
      labels,
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: 'api',
          uid: stored.metadata.uid!,
          controller: true,
        },
      ],
    },
  });
}

/** A running, ready pod of the ReplicaSet whose container started at `started`. */
function pod(env: Env, replicaSet: PodLike, name: string, started: Date) {
  env.gateway.put(PODS, NS, {
    metadata: {
      name,
      labels: { app: 'api' },
      creationTimestamp: started.toISOString(),
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: replicaSet.metadata.name!,
          uid: replicaSet.metadata.uid!,
          controller: true,
        },
      ],
    },
    spec: { containers: [envFromDb] },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True' }],
      containerStatuses: [
        {
          name: 'app',
          ready: true,
          restartCount: 0,
          state: { running: { startedAt: started.toISOString() } },
        },
      ],
    },
  });
}

async function show(env: Env) {
  const resource = await env.resource('db');
  return renderInHeadlamp(
    <KryptonSecretSection resource={resource} connect={() => env.krypton} />,
  );
}

const part = () => screen.getByRole('region', { name: 'Consumers' });
const summary = () =>
  within(part()).findByRole('status', { name: 'Versions the pods hold' });
const podsOf = () =>
  within(part()).findByRole('region', { name: 'Deployment api' });

async function restart() {
  fireEvent.click(
    await within(part()).findByRole('button', { name: 'Restart consumers' }),
  );
  const dialog = await screen.findByRole('dialog', {
    name: 'Restart the consumers of db?',
  });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Restart' }));
  await within(part()).findByRole('table', { name: 'Restart result' });
}

/** Lets the fake clock run, with the reads and renders it sets off. */
const elapse = (ms: number) =>
  act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });

afterEach(() => {
  // Unmounted on the clock that the test ran on, so that no follow outlives its test.
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('ConsumersSection: the version each pod holds', () => {
  it('groups the pods by the version they hold, with how long the stale ones have been stale', async () => {
    // Only the clock is fake: it stands where the test puts it.
    vi.useFakeTimers({ toFake: ['Date'] });
    const env = inMemoryKrypton();
    await secretAtVersion2(env);
    const replicaSet = deployment(
      env,
      {},
      {
        replicas: 2,
        updatedReplicas: 1,
        readyReplicas: 2,
        availableReplicas: 2,
        conditions: [
          {
            type: 'Progressing',
            status: 'False',
            reason: 'ProgressDeadlineExceeded',
            message: 'ReplicaSet "api-5d" has timed out progressing.',
          },
        ],
      },
    );
    pod(env, replicaSet, 'api-old', at('09:30:00'));
    pod(env, replicaSet, 'api-new', at('10:30:00'));
    vi.setSystemTime(at('12:00:00'));
    await show(env);

    const line = await summary();
    expect(line.textContent).toContain(
      '1 of 2 pods still holds version 1; the live Secret is version 2',
    );
    // The list of workloads is still there, and the restart still offered.
    expect(
      await within(part()).findByRole('table', {
        name: 'Workloads that use this Secret',
      }),
    ).toBeTruthy();

    const api = await podsOf();
    expect(
      within(api).getByText('Rollout: 1 of 2 updated, 2 ready, 2 available'),
    ).toBeTruthy();
    expect(
      within(api).getByText('The rollout exceeded its progress deadline'),
    ).toBeTruthy();
    const conditions = within(api).getByRole('table', {
      name: 'Conditions of Deployment api',
    });
    const progressing = within(conditions)
      .getByRole('rowheader', { name: 'Progressing' })
      .closest('tr')!;
    expect(progressing.textContent).toContain('ProgressDeadlineExceeded');
    expect(progressing.textContent).toContain(
      'ReplicaSet "api-5d" has timed out progressing.',
    );

    const groups = within(
      within(api).getByRole('list', {
        name: 'Pods of Deployment api by version',
      }),
    ).getAllByRole('listitem');
    // Stale groups first.
    expect(groups.map(g => g.textContent)).toEqual([
      expect.stringMatching(/^Stale\s*version 1, 1 pod/),
      expect.stringMatching(/^Current\s*version 2, 1 pod/),
    ]);
    // The status says what it means on hover.
    fireEvent.mouseOver(within(groups[0]).getByText('Stale'));
    expect((await screen.findByRole('tooltip')).textContent).toBe(
      'holds an older version until its pods are replaced',
    );
    // Stale since version 1 was replaced at 10:00, read at 12:00.
    expect(within(groups[0]).getByText('stale for 2 hours')).toBeTruthy();
    expect(within(groups[0]).getByRole('time').getAttribute('dateTime')).toBe(
      CHANGED.toISOString(),
    );
    expect(groups[1].textContent).not.toContain('stale for');

    // The pods of a group, on request: each container, how it reads, what it holds.
    expect(within(api).queryByRole('table', { name: /^Pods of/ })).toBeNull();
    fireEvent.click(
      within(groups[0]).getByRole('button', { name: 'Show pods' }),
    );
    const pods = within(api).getByRole('table', {
      name: 'Pods of Deployment api: version 1',
    });
    const row = within(pods)
      .getByRole('rowheader', { name: /api-old/ })
      .closest('tr')!;
    expect(
      within(row)
        .getAllByRole('cell')
        .map(c => c.textContent),
    ).toEqual(['app', 'envFrom', 'version 1', '2 hours ago', '0', '—']);
    expect(
      within(pods).queryByRole('rowheader', { name: /api-new/ }),
    ).toBeNull();
    fireEvent.click(
      within(groups[0]).getByRole('button', { name: 'Hide pods' }),
    );
    expect(within(api).queryByRole('table', { name: /^Pods of/ })).toBeNull();
  });

  it('says which workloads’ pods could not be read, as unknown and never as none, beside the list', async () => {
    const env = inMemoryKrypton({
      list: (type, ...rest) =>
        type === PODS || type === REPLICA_SETS
          ? Promise.reject(new KubeApiError(403, 'Forbidden'))
          : env.gateway.list(type, ...rest),
    });
    await secretAtVersion2(env);
    const replicaSet = deployment(env);
    pod(env, replicaSet, 'api-old', at('09:30:00'));
    await show(env);

    const line = await summary();
    expect(line.textContent).toContain(
      'The pods of the consuming workloads could not be read',
    );
    expect(line.textContent).toContain(
      'The pods of 1 workload could not be read, so they are not counted.',
    );
    const api = await podsOf();
    expect(
      within(api).getByText(
        `The pods of this workload could not be read, so which version they hold is unknown: ${RESTART_MESSAGES.forbidden}`,
      ),
    ).toBeTruthy();
    expect(
      within(api).getByText('Code forbidden, HTTP status 403'),
    ).toBeTruthy();
    expect(within(api).queryByText('This workload has no pods.')).toBeNull();
    expect(within(api).queryByRole('list')).toBeNull();
    // The list and the restart do not depend on the pods.
    const table = await within(part()).findByRole('table', {
      name: 'Workloads that use this Secret',
    });
    expect(within(table).getByRole('rowheader', { name: 'api' })).toBeTruthy();
    expect(
      (
        within(part()).getByRole('button', {
          name: 'Restart consumers',
        }) as HTMLButtonElement
      ).disabled,
    ).toBe(false);
  });

  it('shows a failed read of the versions beside an intact list, and retries it', async () => {
    let down = false;
    const env = inMemoryKrypton({
      // The history's inventory, which the versions need and the dry run does not.
      listMetadata: (...args) =>
        down
          ? Promise.reject(new KubeApiError(503, 'upstream text'))
          : env.gateway.listMetadata(...args),
    });
    await secretAtVersion2(env);
    const replicaSet = deployment(env);
    pod(env, replicaSet, 'api-new', at('10:30:00'));
    down = true;
    await show(env);

    expect(
      await within(part()).findByText('Which version the pods hold is unknown'),
    ).toBeTruthy();
    expect(within(part()).queryByText(/upstream text/)).toBeNull();
    expect(
      within(part()).queryByRole('status', { name: 'Versions the pods hold' }),
    ).toBeNull();
    expect(
      await within(part()).findByRole('table', {
        name: 'Workloads that use this Secret',
      }),
    ).toBeTruthy();

    down = false;
    fireEvent.click(
      within(part()).getByRole('button', { name: 'Retry reading the pods' }),
    );
    expect((await summary()).textContent).toContain(
      '1 pod holds version 2, the live version',
    );
    expect(
      within(part()).queryByText('Which version the pods hold is unknown'),
    ).toBeNull();
  });
});

describe('ConsumersSection: following a rollout after a restart', () => {
  /** `api` with one pod that still holds version 1, and a spy on the engine's reads. */
  async function staleRollout() {
    // The clock runs on its own (Testing Library waits on it) and jumps when the test says.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const env = inMemoryKrypton();
    await secretAtVersion2(env);
    const replicaSet = deployment(env);
    pod(env, replicaSet, 'api-old', at('09:30:00'));
    const reads = vi.spyOn(env.krypton.consumerVersions, 'read');
    const rendered = await show(env);
    expect((await summary()).textContent).toContain(
      '1 of 1 pods still holds version 1; the live Secret is version 2',
    );
    expect(reads).toHaveBeenCalledTimes(1);
    return { env, replicaSet, reads, rendered };
  }

  it('reads the pods every 5 seconds after a restart until every pod holds the live version, then stops', async () => {
    const { env, replicaSet, reads } = await staleRollout();
    expect(within(part()).queryByText('Following the rollout…')).toBeNull();

    await restart();
    expect(
      await within(part()).findByText('Following the rollout…'),
    ).toBeTruthy();
    expect(
      within(part()).getByRole('button', {
        name: 'Stop following the rollout',
      }),
    ).toBeTruthy();
    await waitFor(() => expect(reads).toHaveBeenCalledTimes(2));

    // Nothing more until the interval has passed.
    await elapse(FOLLOW_INTERVAL_MS / 2);
    expect(reads).toHaveBeenCalledTimes(2);
    await elapse(FOLLOW_INTERVAL_MS / 2);
    await waitFor(() => expect(reads).toHaveBeenCalledTimes(3));
    expect(within(part()).getByText('Following the rollout…')).toBeTruthy();

    // The controller replaces the pod: the new one starts now, on version 2.
    const old = await env.gateway.get(PODS, NS, 'api-old');
    await env.gateway.delete(PODS, NS, 'api-old', {
      uid: old.metadata.uid!,
      resourceVersion: old.metadata.resourceVersion!,
    });
    pod(env, replicaSet, 'api-next', new Date());
    await elapse(FOLLOW_INTERVAL_MS);
    expect(
      await within(part()).findByText('Every pod holds version 2'),
    ).toBeTruthy();
    expect(reads).toHaveBeenCalledTimes(4);
    expect(within(part()).queryByText('Following the rollout…')).toBeNull();
    expect(
      within(part()).queryByRole('button', {
        name: 'Stop following the rollout',
      }),
    ).toBeNull();
    expect((await summary()).textContent).toContain(
      '1 pod holds version 2, the live version',
    );

    // Done: no more reads.
    await elapse(FOLLOW_INTERVAL_MS * 6);
    expect(reads).toHaveBeenCalledTimes(4);
  });

  it('stops when asked', async () => {
    const { reads } = await staleRollout();
    await restart();
    await within(part()).findByText('Following the rollout…');
    await elapse(FOLLOW_INTERVAL_MS);
    await waitFor(() => expect(reads).toHaveBeenCalledTimes(3));

    fireEvent.click(
      within(part()).getByRole('button', {
        name: 'Stop following the rollout',
      }),
    );
    expect(
      within(part()).getByText('You stopped following the rollout.'),
    ).toBeTruthy();
    await elapse(FOLLOW_INTERVAL_MS * 6);
    expect(reads).toHaveBeenCalledTimes(3);
  });

  it('stops reading when the section goes away', async () => {
    const { reads, rendered } = await staleRollout();
    await restart();
    await within(part()).findByText('Following the rollout…');
    await waitFor(() => expect(reads).toHaveBeenCalledTimes(2));

    rendered.unmount();
    await elapse(FOLLOW_INTERVAL_MS * 6);
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it('keeps following through a failed check, and says so', async () => {
    let down = false;
    const env = inMemoryKrypton({
      listMetadata: (...args) =>
        down
          ? Promise.reject(new KubeApiError(503, 'upstream text'))
          : env.gateway.listMetadata(...args),
    });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await secretAtVersion2(env);
    pod(env, deployment(env), 'api-old', at('09:30:00'));
    await show(env);
    await summary();
    await restart();
    await within(part()).findByText('Following the rollout…');
    down = true;
    await elapse(FOLLOW_INTERVAL_MS);
    expect(
      await within(part()).findByText(
        `The last check failed: ${messages.historyUnreadable}`,
      ),
    ).toBeTruthy();
    // The last answer stays, marked as not read again.
    expect((await summary()).textContent).toContain(
      `The pods could not be read again (${messages.historyUnreadable})`,
    );
    expect(within(part()).getByText('Following the rollout…')).toBeTruthy();
  });
});
