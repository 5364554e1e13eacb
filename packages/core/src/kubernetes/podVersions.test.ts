import { ConsumerWorkloadVersions } from '../dto';
import { selectorQuery, summarize } from './consumerVersions';
import { groupPods, podVersion } from './podVersions';
import { rolloutProblems, rolloutState } from './rolloutState';
import { PodLike } from './types';
import { versionTimeline } from './versionTimeline';

const at = (iso: string) => `2026-12-01T${iso}Z`;

/** Version 1 from 10:00, 2 from 11:00, 3 (live) from 12:00. */
const timeline = versionTimeline({
  live: 3,
  creationTimestamp: at('10:00:00'),
  records: [
    { version: 1, snapshotAt: at('11:00:00') },
    { version: 2, snapshotAt: at('12:00:00') },
  ],
});

const running = (name: string, startedAt: string, extra = {}) => ({
  name,
  state: { running: { startedAt } },
  restartCount: 0,
  ...extra,
});

function pod(
  name: string,
  spec: Record<string, unknown>,
  statuses: Record<string, unknown>,
): PodLike {
  return {
    metadata: { name, creationTimestamp: at('09:00:00') },
    spec: { containers: [], ...spec },
    status: { phase: 'Running', ...statuses },
  };
}

const envApp = {
  name: 'app',
  env: [{ name: 'P', valueFrom: { secretKeyRef: { name: 'db', key: 'p' } } }],
};

describe('podVersion', () => {
  it('gives an env reader the version live at its start', () => {
    const p = podVersion(
      pod(
        'a',
        { containers: [envApp] },
        {
          containerStatuses: [running('app', at('11:30:00'))],
          conditions: [{ type: 'Ready', status: 'True' }],
        },
      ),
      'db',
      timeline,
    );
    expect(p.holds).toEqual({ state: 'version', version: 2 });
    expect(p.ready).toBe(true);
    expect(p.containers).toEqual([
      {
        name: 'app',
        role: 'container',
        reads: ['env'],
        startedAt: at('11:30:00'),
        running: true,
        restarts: 0,
        holds: { state: 'version', version: 2 },
      },
    ]);
  });

  it('expects a volume to follow the Secret, but a subPath mount to keep its start', () => {
    const spec = {
      volumes: [
        { name: 'creds', secret: { secretName: 'db' } },
        {
          name: 'all',
          projected: { sources: [{ secret: { name: 'db' } }] },
        },
      ],
      containers: [
        { name: 'follows', volumeMounts: [{ name: 'creds', mountPath: '/c' }] },
        { name: 'projected', volumeMounts: [{ name: 'all', mountPath: '/a' }] },
        {
          name: 'copied',
          volumeMounts: [{ name: 'creds', mountPath: '/p', subPath: 'p' }],
        },
      ],
    };
    const p = podVersion(
      pod('a', spec, {
        containerStatuses: ['follows', 'projected', 'copied'].map(n =>
          running(n, at('10:30:00')),
        ),
      }),
      'db',
      timeline,
    );
    const expected = {
      state: 'expected',
      version: 3,
      by: '2026-12-01T12:01:30.000Z',
    };
    expect(p.containers.map(c => [c.name, c.reads, c.holds])).toEqual([
      ['follows', ['volume'], expected],
      ['projected', ['projected'], expected],
      ['copied', ['subPath'], { state: 'version', version: 1 }],
    ]);
    // The pod is as stale as its stalest container.
    expect(p.holds).toEqual({ state: 'version', version: 1 });
  });

  it('reads init containers at their start, and a crash-looping container at its last', () => {
    const p = podVersion(
      pod(
        'a',
        {
          initContainers: [{ ...envApp, name: 'setup' }],
          containers: [envApp],
        },
        {
          initContainerStatuses: [
            {
              name: 'setup',
              state: { terminated: { startedAt: at('12:10:00'), exitCode: 0 } },
            },
          ],
          containerStatuses: [
            {
              name: 'app',
              restartCount: 7,
              state: { waiting: { reason: 'CrashLoopBackOff' } },
              lastState: { terminated: { startedAt: at('12:20:00') } },
            },
          ],
        },
      ),
      'db',
      timeline,
    );
    expect(p.containers.map(c => [c.role, c.holds, c.running])).toEqual([
      ['container', { state: 'version', version: 3 }, false],
      ['init', { state: 'version', version: 3 }, false],
    ]);
    expect(p.containers[0]).toMatchObject({
      restarts: 7,
      waitingReason: 'CrashLoopBackOff',
    });
  });

  it('says what a pod that never started, or reads only to pull, holds', () => {
    expect(
      podVersion(
        pod('a', { containers: [envApp] }, { phase: 'Pending' }),
        'db',
        timeline,
      ).holds,
    ).toEqual({ state: 'notStarted' });
    expect(
      podVersion(
        pod(
          'b',
          { containers: [{ name: 'app' }], imagePullSecrets: [{ name: 'db' }] },
          {},
        ),
        'db',
        timeline,
      ).holds,
    ).toEqual({ state: 'imagePullOnly' });
    // A pod of an older template that did not use the Secret.
    expect(
      podVersion(
        pod('c', { containers: [{ name: 'app' }] }, {}),
        'db',
        timeline,
      ).holds,
    ).toEqual({ state: 'unused' });
  });
});

describe('groupPods', () => {
  it('groups by claim, the stalest first, with how long they have been stale', () => {
    const pods = [
      ['p1', '12:30:00'],
      ['p2', '10:30:00'],
      ['p3', '11:30:00'],
      ['p4', '12:40:00'],
    ].map(([name, start]) =>
      podVersion(
        pod(
          name,
          { containers: [envApp] },
          {
            containerStatuses: [running('app', at(start))],
          },
        ),
        'db',
        timeline,
      ),
    );
    expect(groupPods(pods, timeline)).toEqual([
      {
        holds: { state: 'version', version: 1 },
        status: 'stale',
        pods: ['p2'],
        staleSince: '2026-12-01T11:00:00.000Z',
      },
      {
        holds: { state: 'version', version: 2 },
        status: 'stale',
        pods: ['p3'],
        staleSince: '2026-12-01T12:00:00.000Z',
      },
      {
        holds: { state: 'version', version: 3 },
        status: 'current',
        pods: ['p1', 'p4'],
      },
    ]);
  });
});

describe('selectorQuery', () => {
  it('writes labels and expressions as a label selector', () => {
    expect(
      selectorQuery({
        matchLabels: { app: 'api', 'example.com/tier': 'web' },
        matchExpressions: [
          { key: 'env', operator: 'In', values: ['prod', 'staging'] },
          { key: 'canary', operator: 'DoesNotExist' },
          { key: 'zone', operator: 'NotIn', values: ['a'] },
          { key: 'team', operator: 'Exists' },
        ],
      }),
    ).toBe(
      'app=api,example.com/tier=web,env in (prod,staging),!canary,zone notin (a),team',
    );
  });

  it('refuses what would list wider than the workload', () => {
    expect(selectorQuery({})).toBeUndefined();
    expect(selectorQuery(undefined)).toBeUndefined();
    expect(selectorQuery({ matchLabels: { app: 'a,b=c' } })).toBeUndefined();
    expect(
      selectorQuery({
        matchExpressions: [{ key: 'a', operator: 'In', values: [] }],
      }),
    ).toBeUndefined();
    expect(
      selectorQuery({
        matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }],
      }),
    ).toBeUndefined();
  });
});

describe('rolloutState and rolloutProblems', () => {
  it('reads a stuck Deployment and its crash-looping pods', () => {
    const workload = {
      metadata: { name: 'api', generation: 4 },
      spec: { replicas: 3, paused: true },
      status: {
        observedGeneration: 4,
        updatedReplicas: 1,
        readyReplicas: 2,
        availableReplicas: 2,
        conditions: [
          {
            type: 'Progressing',
            status: 'False',
            reason: 'ProgressDeadlineExceeded',
            message: 'x'.repeat(2000),
          },
        ],
      },
    };
    const rollout = rolloutState('Deployment', workload);
    expect(rollout).toMatchObject({
      desired: 3,
      updated: 1,
      ready: 2,
      available: 2,
      observed: true,
    });
    expect(rollout.conditions[0].message).toHaveLength(512);
    const crashing = podVersion(
      pod(
        'api-1',
        { containers: [envApp] },
        {
          containerStatuses: [
            {
              name: 'app',
              state: { waiting: { reason: 'CrashLoopBackOff' } },
              lastState: { terminated: { startedAt: at('12:20:00') } },
            },
          ],
        },
      ),
      'db',
      timeline,
    );
    expect(
      rolloutProblems('Deployment', workload, rollout, [crashing]),
    ).toEqual([
      { reason: 'paused' },
      { reason: 'progress-deadline' },
      { reason: 'crash-loop', pods: ['api-1'] },
    ]);
  });

  it('reads a DaemonSet by its scheduled nodes, and OnDelete as a problem', () => {
    const workload = {
      metadata: { name: 'agent', generation: 2 },
      spec: { updateStrategy: { type: 'OnDelete' } },
      status: {
        observedGeneration: 1,
        desiredNumberScheduled: 5,
        updatedNumberScheduled: 0,
        numberReady: 5,
        numberAvailable: 5,
      },
    };
    const rollout = rolloutState('DaemonSet', workload);
    expect(rollout).toEqual({
      desired: 5,
      updated: 0,
      ready: 5,
      available: 5,
      observed: false,
      conditions: [],
    });
    expect(rolloutProblems('DaemonSet', workload, rollout, [])).toEqual([
      { reason: 'on-delete' },
      { reason: 'not-observed' },
    ]);
  });
});

describe('summarize', () => {
  const workload = (
    groups: ConsumerWorkloadVersions['groups'],
    extra: Partial<ConsumerWorkloadVersions> = {},
  ): ConsumerWorkloadVersions => ({
    kind: 'Deployment',
    name: 'api',
    usages: [],
    paused: false,
    onDelete: false,
    reloader: false,
    labels: {},
    rollout: {
      desired: 1,
      updated: 1,
      ready: 1,
      available: 1,
      observed: true,
      conditions: [],
    },
    problems: [],
    groups,
    pods: [],
    ...extra,
  });

  it('counts the stale pods and says which version they hold', () => {
    const summary = summarize(
      [
        workload([
          {
            holds: { state: 'version', version: 7 },
            status: 'stale',
            pods: ['a', 'b', 'c'],
          },
          {
            holds: { state: 'version', version: 9 },
            status: 'current',
            pods: ['d', 'e', 'f', 'g'],
          },
        ]),
      ],
      9,
      at('12:00:00'),
      0,
    );
    expect(summary).toMatchObject({
      pods: 7,
      stale: 3,
      current: 4,
      staleVersions: [7],
      allCurrent: false,
    });
    expect(summary.message).toBe(
      '3 of 7 pods still hold version 7; the live Secret is version 9.',
    );
  });

  it('is all current only when every pod reads the live version and every list was read', () => {
    const current = workload([
      {
        holds: { state: 'version', version: 9 },
        status: 'current',
        pods: ['a'],
      },
      {
        holds: { state: 'expected', version: 9, by: at('11:59:00') },
        status: 'converging',
        pods: ['b'],
      },
      { holds: { state: 'imagePullOnly' }, status: 'unaffected', pods: ['c'] },
    ]);
    expect(summarize([current], 9, at('12:00:00'), 0).allCurrent).toBe(true);
    // The volume is not yet due to have synced.
    expect(summarize([current], 9, at('11:58:00'), 0).allCurrent).toBe(false);
    expect(summarize([current], 9, at('12:00:00'), 1).allCurrent).toBe(false);
    const unread = workload([], {
      podsFailure: { code: 'forbidden', message: 'no', httpStatus: 403 },
    });
    const summary = summarize([current, unread], 9, at('12:00:00'), 0);
    expect(summary).toMatchObject({ allCurrent: false, unreadWorkloads: 1 });
    expect(summary.message).toContain(
      'The pods of 1 workload could not be read.',
    );
  });
});
