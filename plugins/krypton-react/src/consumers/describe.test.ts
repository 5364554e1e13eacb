import type { ConsumerWorkload, SecretUsage } from '@krypton/core';
import {
  describeUsage,
  englishConsumersT,
  workloadFlags,
  WorkloadFlag,
} from './describe';

describe('describeUsage', () => {
  it.each<[SecretUsage, string]>([
    [{ type: 'env' }, 'env'],
    [{ type: 'env', containers: [] }, 'env'],
    [{ type: 'env', containers: ['app'] }, 'env in app'],
    [{ type: 'env', containers: ['app', 'migrate'] }, 'env in app, migrate'],
    [{ type: 'envFrom' }, 'envFrom'],
    [{ type: 'envFrom', containers: [] }, 'envFrom'],
    [{ type: 'envFrom', containers: ['worker'] }, 'envFrom in worker'],
    [{ type: 'envFrom', containers: ['a', 'b'] }, 'envFrom in a, b'],
    [{ type: 'volume' }, 'volume'],
    [{ type: 'volume', volume: '' }, 'volume'],
    [{ type: 'volume', volume: 'creds' }, 'volume creds'],
    [{ type: 'projected' }, 'projected volume'],
    [{ type: 'projected', volume: '' }, 'projected volume'],
    [{ type: 'projected', volume: 'bundle' }, 'projected volume bundle'],
    [{ type: 'imagePullSecret' }, 'imagePullSecrets'],
    // A usage type from a newer core is named as it is.
    [{ type: 'csi' } as unknown as SecretUsage, 'csi'],
  ])('describes %j as %j', (usage, expected) => {
    expect(describeUsage(usage, englishConsumersT)).toBe(expected);
  });
});

describe('workloadFlags', () => {
  const paused: WorkloadFlag = {
    label: 'Paused',
    explanation: 'will not roll out until it is resumed',
  };
  const onDelete: WorkloadFlag = {
    label: 'OnDelete',
    explanation: 'pods roll only when they are deleted',
  };
  const reloader: WorkloadFlag = {
    label: 'Reloader',
    explanation:
      'Stakater Reloader watches it, so it may already have rolled after the last change',
  };

  function workload(
    flags: Pick<ConsumerWorkload, 'paused' | 'onDelete' | 'reloader'>,
  ): ConsumerWorkload {
    return {
      kind: 'Deployment',
      name: 'api',
      usages: [],
      labels: {},
      ...flags,
    };
  }

  it.each<[string, Partial<ConsumerWorkload>, WorkloadFlag[]]>([
    ['none', {}, []],
    ['paused', { paused: true }, [paused]],
    ['OnDelete', { onDelete: true }, [onDelete]],
    ['Reloader', { reloader: true }, [reloader]],
    [
      'all, in a fixed order',
      { reloader: true, onDelete: true, paused: true },
      [paused, onDelete, reloader],
    ],
  ])('flags %s', (_name, flags, expected) => {
    expect(
      workloadFlags(
        workload({ paused: false, onDelete: false, reloader: false, ...flags }),
        englishConsumersT,
      ),
    ).toEqual(expected);
  });

  it('asks the host for every word by its key', () => {
    const keys: string[] = [];
    const flags = workloadFlags(
      workload({ paused: true, onDelete: true, reloader: true }),
      key => {
        keys.push(key);
        return `[${key}]`;
      },
    );
    expect(flags[0]).toEqual({
      label: '[consumers.flags.paused]',
      explanation: '[consumers.flags.pausedExplanation]',
    });
    expect(keys).toEqual([
      'consumers.flags.paused',
      'consumers.flags.pausedExplanation',
      'consumers.flags.onDelete',
      'consumers.flags.onDeleteExplanation',
      'consumers.flags.reloader',
      'consumers.flags.reloaderExplanation',
    ]);
  });
});
