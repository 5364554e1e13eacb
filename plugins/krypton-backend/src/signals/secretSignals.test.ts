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
  it('broadcasts on the uid channel, without the actor', () => {
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
