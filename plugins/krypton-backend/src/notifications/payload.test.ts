import { SecretChange, notificationFor } from './payload';

const secret = {
  cluster: 'prod-eu',
  namespace: 'payments',
  name: 'db',
  labels: { app: 'payments' },
};
const change = (event: SecretChange): SecretChange => event;
const base = {
  secret,
  uid: 'uid-db',
  actor: 'user:default/alice',
  audience: {
    rules: { owners: ['user:default/alice'], editors: [], viewers: [] },
    admins: [],
  },
};

describe('notificationFor', () => {
  it('names the Secret, cluster, event, new version and actor of an update', () => {
    expect(
      notificationFor(
        change({
          ...base,
          event: 'update',
          version: 7,
          resourceVersion: '4711',
        }),
      ),
    ).toEqual({
      title: 'Secret payments/db updated',
      description:
        'user:default/alice updated Secret payments/db on cluster prod-eu. It is now version 7 (resourceVersion 4711).',
      link: '/krypton/secret/payments/db?cluster=prod-eu',
      severity: 'normal',
      topic: 'krypton',
      scope: 'krypton:prod-eu/payments/db:update',
    });
  });

  it('says whose an owned Secret is and why it was changed anyway, at high severity', () => {
    expect(
      notificationFor(
        change({
          ...base,
          event: 'update',
          version: 7,
          resourceVersion: '4711',
          owned: {
            owner: {
              tool: 'external-secrets',
              kind: 'ExternalSecret',
              name: 'db-source',
              outcome: 'reverted-at-once',
              evidence: ['ownerReferences'],
              edits: 'reason-required',
            },
            reason: 'Vault is down, INC-42',
          },
        }),
      ),
    ).toMatchObject({
      description:
        'user:default/alice updated Secret payments/db on cluster prod-eu. It is now version 7 (resourceVersion 4711). The Secret is owned by External Secrets (ExternalSecret db-source), which may undo this; the reason given: "Vault is down, INC-42".',
      severity: 'high',
    });
  });

  it('leaves out a version counter that is malformed', () => {
    expect(
      notificationFor(
        change({
          ...base,
          event: 'restore',
          restoredVersion: 2,
          version: null,
          resourceVersion: '9',
        }),
      ),
    ).toMatchObject({
      title: 'Secret payments/db restored to version 2',
      description:
        'user:default/alice restored version 2 of Secret payments/db on cluster prod-eu. It is now resourceVersion 9.',
      link: '/krypton/secret/payments/db/history?cluster=prod-eu',
      scope: 'krypton:prod-eu/payments/db:restore',
    });
  });

  it('marks a delete high, and links a deleted Secret to its namespace', () => {
    expect(
      notificationFor(
        change({
          ...base,
          event: 'delete',
          status: 'deleted',
          history: 'kept',
        }),
      ),
    ).toMatchObject({
      title: 'Secret payments/db deleted',
      description:
        'user:default/alice deleted Secret payments/db on cluster prod-eu. Its history was kept.',
      link: '/krypton?cluster=prod-eu&namespace=payments',
      severity: 'high',
      scope: 'krypton:prod-eu/payments/db:delete',
    });
    expect(
      notificationFor(
        change({
          ...base,
          event: 'delete',
          status: 'pending',
          history: 'cleaned',
        }),
      ),
    ).toMatchObject({
      title: 'Secret payments/db is being deleted',
      link: '/krypton/secret/payments/db?cluster=prod-eu',
      severity: 'high',
    });
  });

  it.each([
    ['requested', 'Consumers of Secret payments/db restarted', 'normal'],
    ['no_targets', 'Secret payments/db had no consumers to restart', 'normal'],
    ['partial', 'Consumers of Secret payments/db partly restarted', 'high'],
    ['failed', 'Consumers of Secret payments/db not restarted', 'high'],
  ] as const)(
    'reports a %s restart with its counts',
    (status, title, severity) => {
      expect(
        notificationFor(
          change({
            ...base,
            event: 'restart',
            status,
            requested: 3,
            failed: 2,
          }),
        ),
      ).toEqual({
        title,
        description: `user:default/alice restarted the workloads that consume Secret payments/db on cluster prod-eu: status ${status}, 3 requested, 2 failed.`,
        link: '/krypton/secret/payments/db/consumers?cluster=prod-eu',
        severity,
        topic: 'krypton',
        scope: 'krypton:prod-eu/payments/db:restart',
      });
    },
  );

  it('encodes a cluster name that a query would misread', () => {
    expect(
      notificationFor(
        change({
          ...base,
          secret: { ...secret, cluster: 'a&b=c' },
          event: 'update',
          version: 1,
          resourceVersion: '1',
        }),
      ).link,
    ).toBe('/krypton/secret/payments/db?cluster=a%26b%3Dc');
  });
});
