import { mockServices } from '@backstage/backend-test-utils';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { NotificationService } from '@backstage/plugin-notifications-node';
import { NotificationEvent } from '../config';
import { createSecretNotifier } from './notifier';
import { SecretChange } from './payload';

const update: SecretChange = {
  event: 'update',
  version: 2,
  resourceVersion: '10',
  secret: { cluster: 'prod', namespace: 'payments', name: 'db', labels: {} },
  uid: 'uid-db',
  actor: 'user:default/root',
};

function setup(
  options: {
    enabled?: boolean;
    events?: NotificationEvent[];
    send?: NotificationService['send'];
  } = {},
) {
  const catalog = catalogServiceMock.mock({
    async *streamEntities() {
      yield [
        {
          apiVersion: 'backstage.io/v1alpha1',
          kind: 'Component',
          metadata: {
            name: 'api',
            annotations: { 'krypton.io/secrets': 'payments/db' },
          },
          spec: { owner: 'team-a' },
        },
      ];
    },
  });
  const send = jest.fn(options.send ?? (async () => undefined));
  const logger = mockServices.logger.mock();
  const notifier = createSecretNotifier({
    settings: {
      enabled: options.enabled ?? true,
      events: new Set(options.events ?? ['update']),
    },
    annotationPrefix: 'krypton.io',
    defaultCluster: 'prod',
    notifications: { send },
    catalog,
    auth: mockServices.auth(),
    logger,
  });
  return { notifier, catalog, send, logger };
}

/** Lets the delivery that notify started run to its end. */
const settle = () => new Promise(resolve => setTimeout(resolve, 20));

describe('createSecretNotifier', () => {
  it("sends to the linking entities' owners, leaving the actor out", async () => {
    const { notifier, send } = setup();
    expect(notifier.notify(update)).toBeUndefined();
    await settle();
    expect(send).toHaveBeenCalledTimes(1);
    expect(send.mock.calls[0][0].recipients).toEqual({
      type: 'entity',
      entityRef: ['group:default/team-a'],
      excludeEntityRef: 'user:default/root',
    });
    expect(send.mock.calls[0][0].payload.scope).toBe(
      'krypton:prod/payments/db:update',
    );
  });

  it('neither sends nor asks the catalog while disabled or for an event not listed', async () => {
    const off = setup({ enabled: false });
    off.notifier.notify(update);
    const unlisted = setup({ events: ['delete'] });
    unlisted.notifier.notify(update);
    await settle();
    for (const { send, catalog } of [off, unlisted]) {
      expect(send).not.toHaveBeenCalled();
      expect(catalog.streamEntities).not.toHaveBeenCalled();
    }
  });

  it('sends nothing when no entity links the Secret', async () => {
    const { notifier, send, catalog } = setup();
    notifier.notify({
      ...update,
      secret: { ...update.secret, name: 'other' },
    });
    await settle();
    expect(catalog.streamEntities).toHaveBeenCalledTimes(1);
    expect(send).not.toHaveBeenCalled();
  });

  it('logs a failed delivery by the error name alone, and never throws', async () => {
    const { notifier, logger } = setup({
      send: async () => {
        throw new TypeError('Failed to send notifications: answer quoted here');
      },
    });
    expect(() => notifier.notify(update)).not.toThrow();
    await settle();
    expect(logger.warn).toHaveBeenCalledWith(
      'Could not notify the owners of payments/db about its update: TypeError',
    );
  });
});
