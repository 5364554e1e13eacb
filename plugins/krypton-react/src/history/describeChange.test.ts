import { describeOutsideChange, englishHistoryT } from './describeChange';

describe('describeOutsideChange', () => {
  it.each([
    [
      { snapshotBy: 'kubernetes:admin', snapshotVia: 'kubectl-edit' },
      'kubectl edit by admin',
    ],
    [
      {
        snapshotBy: 'kubernetes:alice',
        snapshotVia: 'kubectl-client-side-apply',
      },
      'kubectl apply by alice',
    ],
    [
      { snapshotBy: 'kubernetes:alice', snapshotVia: 'kubectl' },
      'kubectl apply --server-side by alice',
    ],
    [
      { snapshotBy: 'kubernetes:ci-bot', snapshotVia: 'helm' },
      'helm by ci-bot',
    ],
    [{ snapshotBy: 'kubernetes:bob' }, 'changed by bob'],
    [
      {
        snapshotBy:
          'kubernetes:system:serviceaccount:external-secrets:external-secrets',
        snapshotVia: 'external-secrets',
      },
      're-synced with external-secrets by system:serviceaccount:external-secrets:external-secrets',
    ],
    [
      { snapshotBy: 'kubernetes:system:serviceaccount:ops:sync' },
      're-synced by system:serviceaccount:ops:sync',
    ],
    [
      {
        snapshotBy: 'kubernetes:system:serviceaccount:ci:deployer',
        snapshotVia: 'kubectl-client-side-apply',
      },
      'kubectl apply by system:serviceaccount:ci:deployer',
    ],
    [{ snapshotBy: 'kubernetes:admin', finalState: true }, 'deleted by admin'],
    // A field manager named like an object's own property is a name, not a lookup.
    [
      { snapshotBy: 'kubernetes:admin', snapshotVia: 'constructor' },
      'constructor by admin',
    ],
  ])('describes %j as %j', (version, expected) => {
    expect(describeOutsideChange(version, englishHistoryT)).toBe(expected);
  });

  it.each(['user:default/alice', 'headlamp:alice', 'kubernetes'])(
    'leaves a change through Krypton (%s) to the host',
    snapshotBy => {
      expect(
        describeOutsideChange({ snapshotBy }, englishHistoryT),
      ).toBeUndefined();
    },
  );
});
