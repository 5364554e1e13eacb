import { mockServices } from '@backstage/backend-test-utils';
import { SignalsService } from '@backstage/plugin-signals-node';
import { SecretChange } from '../notifications';
import { createSecretSignaller } from './secretSignals';

const update: SecretChange = {
  event: 'update',
  version: 2,
  resourceVersion: '10',
  secret: { cluster: 'prod', namespace: 'payments', name: 'db', labels: {} },
  uid: 'uid-db',
  actor: 'user:default/root',
  // No rules: Kubernetes RBAC alone says who may read it.
  audience: {
    rules: { owners: [], editors: [], viewers: [] },
    admins: ['group:default/krypton-admins'],
  },
};

function setup(publish: SignalsService['publish']) {
  const spy = jest.fn(publish);
  const logger = mockServices.logger.mock();
  const signaller = createSecretSignaller({
    signals: { publish: spy },
    logger,
  });
  return { signaller, publish: spy, logger };
}

const settle = () => new Promise(resolve => setTimeout(resolve, 20));

describe('createSecretSignaller', () => {
  it('broadcasts on the uid channel of a Secret without rules, without the actor', () => {
    const { signaller, publish } = setup(async () => undefined);
    signaller.notify(update);
    expect(publish).toHaveBeenCalledWith({
      recipients: { type: 'broadcast' },
      channel: 'krypton:secret:uid-db',
      message: {
        cluster: 'prod',
        namespace: 'payments',
        name: 'db',
        event: 'update',
        resourceVersion: '10',
        version: 2,
      },
    });
  });

  it('sends the change of a Secret with rules only to the users it admits', () => {
    const { signaller, publish } = setup(async () => undefined);
    signaller.notify({
      ...update,
      audience: {
        rules: {
          owners: ['user:default/root'],
          editors: ['Group:team-a'],
          viewers: ['user:default/root'],
        },
        admins: ['group:default/krypton-admins'],
      },
    });
    expect(publish).toHaveBeenCalledTimes(1);
    expect(publish.mock.calls[0][0]).toMatchObject({
      recipients: {
        type: 'user',
        entityRef: [
          'user:default/root',
          'group:default/team-a',
          'group:default/krypton-admins',
        ],
      },
      channel: 'krypton:secret:uid-db',
    });
  });

  it('sends nothing when rules admit no one and there are no admins', () => {
    const { signaller, publish } = setup(async () => undefined);
    signaller.notify({
      ...update,
      audience: {
        rules: { owners: ['not a ref:'], editors: [], viewers: [] },
        admins: [],
      },
    });
    expect(publish).not.toHaveBeenCalled();
  });

  it('sends nothing for a restart, or for a Secret without a uid', () => {
    const { signaller, publish } = setup(async () => undefined);
    signaller.notify({
      event: 'restart',
      status: 'requested',
      requested: 1,
      failed: 0,
      secret: update.secret,
      uid: 'uid-db',
      actor: update.actor,
      audience: update.audience,
    });
    signaller.notify({ ...update, uid: '' });
    expect(publish).not.toHaveBeenCalled();
  });

  it('returns at once and logs a failure by its name only', async () => {
    const { signaller, logger } = setup(async () => {
      throw new TypeError('upstream said: token=abc');
    });
    expect(() => signaller.notify(update)).not.toThrow();
    await settle();
    expect(logger.warn).toHaveBeenCalledWith(
      'Could not signal the change of payments/db: TypeError',
    );
  });
});
