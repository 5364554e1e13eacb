import { mockServices } from '@backstage/backend-test-utils';
import { Entity } from '@backstage/catalog-model';
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
  audience: {
    rules: {
      owners: ['user:default/root'],
      editors: ['group:default/team-a'],
      viewers: [],
    },
    admins: [],
  },
};

const component = (
  name: string,
  owner: string,
  annotations: Record<string, string>,
): Entity => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: { name, annotations },
  spec: { owner },
});

const linking: Entity[] = [
  component('api', 'team-a', { 'krypton.io/secrets': 'payments/db' }),
  // Anyone may publish an entity that names a Secret, or selects a namespace, and owns it.
  component('exfil', 'user:guest', { 'krypton.io/secrets': 'payments/db' }),
  component('exfil-all', 'user:mallory', {
    'krypton.io/secrets-selector': 'krypton.io/managed-by=krypton',
    'krypton.io/secrets-namespace': 'payments',
  }),
];

function setup(
  options: {
    enabled?: boolean;
    events?: NotificationEvent[];
    send?: NotificationService['send'];
  } = {},
) {
  const catalog = catalogServiceMock.mock({
    async *streamEntities() {
      yield linking;
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

  it('sends only to the owners whom the Secret admits, by its rules or as admins', async () => {
    const { notifier, send } = setup();
    notifier.notify({
      ...update,
      secret: {
        ...update.secret,
        labels: { 'krypton.io/managed-by': 'krypton' },
      },
      audience: { ...update.audience, admins: ['user:default/mallory'] },
    });
    await settle();
    expect(send).toHaveBeenCalledTimes(1);
    // guest links db by name and is named nowhere; mallory's selector matches, as an admin.
    expect(send.mock.calls[0][0].recipients).toMatchObject({
      entityRef: ['group:default/team-a', 'user:default/mallory'],
    });
  });

  it('sends nothing when the Secret admits none of the linking owners', async () => {
    const { notifier, send, catalog } = setup();
    notifier.notify({
      ...update,
      audience: {
        rules: { owners: ['user:default/root'], editors: [], viewers: [] },
        admins: ['group:default/krypton-admins'],
      },
    });
    await settle();
    expect(catalog.streamEntities).toHaveBeenCalledTimes(1);
    expect(send).not.toHaveBeenCalled();
  });

  it('neither sends nor asks the catalog for a Secret without rules and no admins', async () => {
    const { notifier, send, catalog } = setup();
    notifier.notify({
      ...update,
      audience: {
        rules: { owners: [], editors: [], viewers: [] },
        admins: [],
      },
    });
    await settle();
    expect(catalog.streamEntities).not.toHaveBeenCalled();
    expect(send).not.toHaveBeenCalled();
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
