import type {
  ConsumerVersionsResult,
  ConsumerVersionsSummary,
  HeldVersion,
  PodVersionGroup,
  RolloutProblemReason,
} from '@krypton/core';
import { englishConsumersT } from './describe';
import {
  describeCondition,
  describeContainerRead,
  describeContainerRole,
  describeHeldVersion,
  describeRolloutCounts,
  describeRolloutProblem,
  describeStaleFor,
  describeVersionStatus,
  describeVersionsSummary,
  formatClockTime,
  formatDuration,
  isOverdue,
} from './versions';

const t = englishConsumersT;
const checkedAt = '2026-12-01T10:00:00.000Z';
const utc = { locale: 'en-US', timeZone: 'UTC' };

describe('describeHeldVersion', () => {
  it.each<[HeldVersion, string]>([
    [{ state: 'version', version: 7 }, 'version 7'],
    [
      { state: 'between', from: 7, to: 8 },
      'version 7–8 (it started while the Secret changed)',
    ],
    [{ state: 'olderThan', version: 3 }, 'a version older than 3'],
    [
      { state: 'expected', version: 9 },
      'expected to hold version 9 once the kubelet updates its volume',
    ],
    [{ state: 'notStarted' }, 'not started yet'],
    [{ state: 'unknown' }, 'unknown'],
    [{ state: 'imagePullOnly' }, 'used only to pull images'],
    [{ state: 'unused' }, "this pod's spec does not use the Secret"],
    // A claim from a newer core is named as it is.
    [{ state: 'restarting' } as unknown as HeldVersion, 'restarting'],
  ])('describes %j as %j', (held, expected) => {
    expect(describeHeldVersion(held, t, { checkedAt, ...utc })).toBe(expected);
  });

  it('says by when a volume is expected to hold the live version', () => {
    expect(
      describeHeldVersion(
        { state: 'expected', version: 9, by: '2026-12-01T10:00:40.000Z' },
        t,
        { checkedAt, ...utc },
      ),
    ).toBe('expected to hold version 9 by 10:00:40 AM');
  });

  it('says since when a volume should hold it once that time has passed', () => {
    const held: HeldVersion = {
      state: 'expected',
      version: 9,
      by: '2026-12-01T09:58:00.000Z',
    };
    expect(describeHeldVersion(held, t, { checkedAt, ...utc })).toBe(
      'should hold version 9 since 9:58:00 AM',
    );
    expect(
      describeHeldVersion(held, t, {
        checkedAt,
        formatTime: value => `<${value}>`,
      }),
    ).toBe('should hold version 9 since <2026-12-01T09:58:00.000Z>');
  });
});

describe('isOverdue', () => {
  const by = '2026-12-01T10:00:00.000Z';
  it('is overdue only for an expected claim at or past its time', () => {
    expect(isOverdue({ state: 'expected', version: 2, by }, checkedAt)).toBe(
      true,
    );
    expect(
      isOverdue(
        { state: 'expected', version: 2, by: '2026-12-01T10:00:01.000Z' },
        checkedAt,
      ),
    ).toBe(false);
    expect(isOverdue({ state: 'expected', version: 2 }, checkedAt)).toBe(false);
    expect(isOverdue({ state: 'expected', version: 2, by })).toBe(false);
    expect(isOverdue({ state: 'version', version: 2 }, checkedAt)).toBe(false);
  });
});

describe('formatClockTime', () => {
  it('gives the date too when the moment is on another day', () => {
    expect(formatClockTime('2026-11-29T08:00:00.000Z', checkedAt, utc)).toBe(
      'Nov 29, 2026, 8:00:00 AM',
    );
    expect(formatClockTime('2026-12-01T08:00:00.000Z', checkedAt, utc)).toBe(
      '8:00:00 AM',
    );
  });

  it('shows a value that is not a date as written', () => {
    expect(formatClockTime('soon', checkedAt, utc)).toBe('soon');
  });
});

describe('describeVersionStatus', () => {
  it('names each status with what it means', () => {
    expect(describeVersionStatus('stale', t)).toEqual({
      label: 'Stale',
      explanation: 'holds an older version until its pods are replaced',
    });
    expect(describeVersionStatus('notStarted', t).label).toBe('Not started');
    expect(describeVersionStatus('converging', t).explanation).toBe(
      'waits for the kubelet to update a mounted volume',
    );
  });

  it('asks the host for each word by its key', () => {
    expect(describeVersionStatus('current', key => `[${key}]`)).toEqual({
      label: '[consumers.versions.status.current]',
      explanation: '[consumers.versions.status.currentExplanation]',
    });
  });
});

describe('describeRolloutProblem', () => {
  it.each<[RolloutProblemReason, string]>([
    ['paused', 'Paused: the Deployment will not roll out until it is resumed'],
    ['on-delete', 'OnDelete: pods roll only when they are deleted'],
    ['progress-deadline', 'The rollout exceeded its progress deadline'],
    ['replica-failure', 'The controller could not create pods'],
    ['not-observed', 'The controller has not seen the newest pod template yet'],
    ['crash-loop', 'Containers crash and restart in a loop'],
    ['image-pull', 'An image cannot be pulled'],
    ['pending', 'Pods are pending: not scheduled or not started'],
    ['not-ready', 'Pods are not ready'],
    ['evicted' as RolloutProblemReason, 'evicted'],
  ])('describes %s', (reason, expected) => {
    expect(describeRolloutProblem(reason, t)).toBe(expected);
  });
});

describe('describeRolloutCounts', () => {
  it('gives the counts, with "?" for what the controller has not reported', () => {
    expect(
      describeRolloutCounts(
        {
          desired: 3,
          updated: 2,
          ready: 2,
          available: 1,
          observed: true,
          conditions: [],
        },
        t,
      ),
    ).toBe('2 of 3 updated, 2 ready, 1 available');
    expect(
      describeRolloutCounts(
        {
          desired: 3,
          updated: null,
          ready: 0,
          available: null,
          observed: false,
          conditions: [],
        },
        t,
      ),
    ).toBe('? of 3 updated, 0 ready, ? available');
  });

  it('says so when the controller has reported nothing', () => {
    expect(
      describeRolloutCounts(
        {
          desired: 1,
          updated: null,
          ready: null,
          available: null,
          observed: false,
          conditions: [],
        },
        t,
      ),
    ).toBe('not reported by its controller yet');
  });
});

describe('describeCondition', () => {
  it('puts type, status, reason and message on one line', () => {
    expect(
      describeCondition(
        {
          type: 'Progressing',
          status: 'False',
          reason: 'ProgressDeadlineExceeded',
          message: 'ReplicaSet "api-5d" has timed out progressing.',
        },
        t,
      ),
    ).toBe(
      'Progressing: False (ProgressDeadlineExceeded): ReplicaSet "api-5d" has timed out progressing.',
    );
    expect(describeCondition({ type: 'Available', status: 'True' }, t)).toBe(
      'Available: True',
    );
  });
});

describe('describeContainerRead and describeContainerRole', () => {
  it('names how a container reads the Secret and its role', () => {
    expect(describeContainerRead('subPath', t)).toBe('subPath mount');
    expect(describeContainerRead('projected', t)).toBe('projected volume');
    expect(describeContainerRead('env', t)).toBe('env');
    expect(describeContainerRole('init', t)).toBe('init container');
    expect(describeContainerRole('container', t)).toBe('container');
  });
});

describe('formatDuration', () => {
  const from = new Date('2026-12-01T10:00:00.000Z');
  const after = (seconds: number) => new Date(from.getTime() + seconds * 1000);
  it.each<[number, string]>([
    [0, '0 seconds'],
    [1, '1 second'],
    [59, '59 seconds'],
    [90, '1 minute'],
    [2 * 3600 + 59 * 60, '2 hours'],
    [3 * 86400, '3 days'],
    [-30, '0 seconds'],
  ])('%s seconds read %j', (seconds, expected) => {
    expect(formatDuration(from, after(seconds), 'en-US')).toBe(expected);
  });
});

describe('describeStaleFor', () => {
  const group = (overrides: Partial<PodVersionGroup>): PodVersionGroup => ({
    holds: { state: 'version', version: 7 },
    status: 'stale',
    pods: ['api-1'],
    staleSince: '2026-12-01T07:30:00.000Z',
    ...overrides,
  });

  it('measures how long a stale group has been stale against checkedAt', () => {
    expect(describeStaleFor(group({}), checkedAt, t, 'en-US')).toBe(
      'stale for 2 hours',
    );
  });

  it('says "at least" for pods older than the history', () => {
    expect(
      describeStaleFor(
        group({ holds: { state: 'olderThan', version: 3 } }),
        checkedAt,
        t,
        'en-US',
      ),
    ).toBe('stale for at least 2 hours');
  });

  it('says nothing for a group that is not stale or has no start', () => {
    expect(
      describeStaleFor(group({ status: 'current' }), checkedAt, t),
    ).toBeUndefined();
    expect(
      describeStaleFor(group({ staleSince: undefined }), checkedAt, t),
    ).toBeUndefined();
  });
});

describe('describeVersionsSummary', () => {
  function summary(
    overrides: Partial<ConsumerVersionsSummary>,
  ): ConsumerVersionsSummary {
    return {
      pods: 7,
      current: 7,
      stale: 0,
      converging: 0,
      uncertain: 0,
      notStarted: 0,
      unaffected: 0,
      staleVersions: [],
      olderThanHistory: 0,
      unreadWorkloads: 0,
      allCurrent: false,
      message: '',
      ...overrides,
    };
  }
  function result(
    overrides: Partial<ConsumerVersionsSummary>,
    rest: Partial<ConsumerVersionsResult> = {},
  ) {
    return {
      live: { version: 9 },
      // Only counted: the line does not read the workloads but to tell none from some.
      workloads: [{}] as ConsumerVersionsResult['workloads'],
      discoveryFailures: [],
      summary: summary(overrides),
      ...rest,
    };
  }

  it('says every pod holds the live version', () => {
    expect(describeVersionsSummary(result({ allCurrent: true }), t)).toEqual({
      state: 'current',
      line: 'All 7 pods hold version 9, the live version',
      notes: [],
    });
    expect(
      describeVersionsSummary(
        result({ allCurrent: true, pods: 1, current: 1 }),
        t,
      ).line,
    ).toBe('1 pod holds version 9, the live version');
  });

  it('names the one stale version', () => {
    expect(
      describeVersionsSummary(
        result({ current: 4, stale: 3, staleVersions: [7] }),
        t,
      ),
    ).toEqual({
      state: 'stale',
      line: '3 of 7 pods still hold version 7; the live Secret is version 9',
      notes: [],
    });
    expect(
      describeVersionsSummary(
        result({ current: 6, stale: 1, staleVersions: [8] }),
        t,
      ).line,
    ).toBe('1 of 7 pods still holds version 8; the live Secret is version 9');
  });

  it('lists several stale versions, oldest first', () => {
    expect(
      describeVersionsSummary(
        result({ current: 4, stale: 3, staleVersions: [7, 8] }),
        t,
      ).line,
    ).toBe(
      '3 of 7 pods still hold older versions (7, 8); the live Secret is version 9',
    );
    expect(
      describeVersionsSummary(
        result({
          current: 4,
          stale: 3,
          staleVersions: [8],
          olderThanHistory: 1,
        }),
        t,
      ).line,
    ).toBe(
      '3 of 7 pods still hold older versions (8 and older); the live Secret is version 9',
    );
    expect(
      describeVersionsSummary(
        result({ current: 5, stale: 2, olderThanHistory: 2 }),
        t,
      ).line,
    ).toBe(
      '2 of 7 pods still hold versions older than the history tells; the live Secret is version 9',
    );
  });

  it('counts only the pods that read the Secret, and notes the others', () => {
    expect(
      describeVersionsSummary(
        result({ current: 5, unaffected: 2, allCurrent: true }),
        t,
      ),
    ).toEqual({
      state: 'current',
      line: 'All 5 pods hold version 9, the live version',
      notes: ['2 pods do not read the Secret while they run.'],
    });
  });

  it('notes converging, uncertain and unstarted pods, and what could not be read', () => {
    const described = describeVersionsSummary(
      result(
        {
          pods: 8,
          current: 3,
          converging: 2,
          uncertain: 1,
          notStarted: 2,
          unreadWorkloads: 1,
        },
        {
          discoveryFailures: [
            { kind: 'DaemonSet', code: 'forbidden', message: 'no' },
          ],
        },
      ),
      t,
    );
    expect(described).toEqual({
      state: 'incomplete',
      line: '3 of 8 pods hold version 9, the live version',
      notes: [
        '2 pods wait for the kubelet to update their mounted volumes.',
        'Which version 1 pod holds cannot be told: it started while the Secret changed, or its start cannot be read.',
        '2 pods have not started yet.',
        'The pods of 1 workload could not be read, so they are not counted.',
        'Some kinds of workloads could not be listed, so their pods are not counted.',
      ],
    });
  });

  it('does not call converging pods past their time waiting once all are current', () => {
    expect(
      describeVersionsSummary(
        result({ current: 5, converging: 2, allCurrent: true }),
        t,
      ).notes,
    ).toEqual([]);
  });

  it('says when nothing can be matched or nothing reads the Secret', () => {
    expect(
      describeVersionsSummary(result({}, { live: { version: null } }), t),
    ).toEqual({
      state: 'incomplete',
      line: "The live Secret's version cannot be read, so no pod can be matched to a version",
      notes: [],
    });
    expect(
      describeVersionsSummary(
        result({ pods: 0, current: 0, allCurrent: true }, { workloads: [] }),
        t,
      ),
    ).toEqual({
      state: 'current',
      line: 'No workload in the namespace references this Secret',
      notes: [],
    });
    expect(
      describeVersionsSummary(
        result({ pods: 0, current: 0, allCurrent: true }),
        t,
      ).line,
    ).toBe('No running pod reads this Secret; the live Secret is version 9');
    expect(
      describeVersionsSummary(
        result({ pods: 0, current: 0, unreadWorkloads: 1 }),
        t,
      ),
    ).toEqual({
      state: 'incomplete',
      line: 'The pods of the consuming workloads could not be read',
      notes: [
        'The pods of 1 workload could not be read, so they are not counted.',
      ],
    });
  });

  it('asks the host for the plural form by count', () => {
    const calls: Array<[string, unknown]> = [];
    describeVersionsSummary(
      result({ current: 4, stale: 3, staleVersions: [7] }),
      (key, params) => {
        calls.push([key, params]);
        return key;
      },
    );
    expect(calls).toEqual([
      [
        'consumers.versions.summary.staleOne',
        { count: 3, pods: 7, version: 9, stale: 7 },
      ],
    ]);
  });
});
