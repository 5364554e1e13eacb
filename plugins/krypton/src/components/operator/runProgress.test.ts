import { progressPercent } from './runProgress';

const progress = {
  pass: 'first' as const,
  namespacesDone: 0,
  seen: 0,
  rewritten: 0,
  alreadyCurrent: 0,
  failed: 0,
  gone: 0,
};

describe('progressPercent', () => {
  it('measures a cluster-wide run by its namespaces, once they are listed', () => {
    expect(progressPercent({ scope: '*', progress })).toBeUndefined();
    expect(
      progressPercent({
        scope: '*',
        // The objects left in the current namespace say nothing about the run as a whole.
        progress: {
          ...progress,
          namespacesDone: 1,
          namespacesTotal: 4,
          remaining: 0,
        },
      }),
    ).toBe(25);
  });

  it('measures a one-namespace run by the objects seen and those the API server says remain', () => {
    expect(
      progressPercent({
        scope: 'payments',
        progress: { ...progress, seen: 300 },
      }),
    ).toBeUndefined();
    expect(
      progressPercent({
        scope: 'payments',
        progress: { ...progress, seen: 300, remaining: 100 },
      }),
    ).toBe(75);
    // An empty namespace: nothing to measure.
    expect(
      progressPercent({
        scope: 'payments',
        progress: { ...progress, remaining: 0 },
      }),
    ).toBeUndefined();
  });

  it('never draws past either end, whatever the counts of another process say', () => {
    expect(
      progressPercent({
        scope: '*',
        progress: { ...progress, namespacesDone: 7, namespacesTotal: 5 },
      }),
    ).toBe(100);
    // A count no API server gives draws no bar rather than a wrong one.
    expect(
      progressPercent({
        scope: 'payments',
        progress: { ...progress, seen: 10, remaining: -20 },
      }),
    ).toBeUndefined();
  });
});
