import { mockServices } from '@backstage/backend-test-utils';
import { Entity } from '@backstage/catalog-model';
import { JsonValue } from '@backstage/types';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { cachedOwnerLookup, linkingOwners, ownerRefOf } from './owners';

const entity = (
  name: string,
  owner: JsonValue | undefined,
  annotations: Record<string, string> = {},
): Entity => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: { name, annotations },
  spec: { type: 'service', owner },
});

describe('ownerRefOf', () => {
  it('reads the catalog shorthand as a group in the default namespace', () => {
    expect(ownerRefOf(entity('c', 'team-a'))).toBe('group:default/team-a');
    expect(ownerRefOf(entity('c', ' Team-A '))).toBe('group:default/team-a');
    expect(ownerRefOf(entity('c', 'user:bob'))).toBe('user:default/bob');
    expect(ownerRefOf(entity('c', 'group:ops/platform'))).toBe(
      'group:ops/platform',
    );
  });

  it("reads a shorthand in the entity's own namespace, as the catalog does", () => {
    const inOps: Entity = {
      ...entity('c', 'platform'),
      metadata: { name: 'c', namespace: 'ops' },
    };
    expect(ownerRefOf(inOps)).toBe('group:ops/platform');
  });

  it("prefers the catalog's ownedBy relation", () => {
    const related: Entity = {
      ...entity('c', 'team-a'),
      relations: [
        { type: 'partOf', targetRef: 'system:default/payments' },
        { type: 'ownedBy', targetRef: 'group:default/Team-B' },
      ],
    };
    expect(ownerRefOf(related)).toBe('group:default/team-b');
  });

  it('has none for a missing, blank, malformed or non-text owner', () => {
    expect(ownerRefOf(entity('c', undefined))).toBeUndefined();
    expect(ownerRefOf(entity('c', ' '))).toBeUndefined();
    expect(ownerRefOf(entity('c', 'group:'))).toBeUndefined();
    expect(ownerRefOf(entity('c', ['team-a']))).toBeUndefined();
  });
});

describe('linkingOwners', () => {
  const secret = {
    cluster: 'prod',
    namespace: 'payments',
    name: 'db',
    labels: { app: 'payments' },
  };
  const owners = (entities: Entity[], annotationPrefix = 'krypton.io') =>
    linkingOwners(
      {
        catalog: catalogServiceMock({ entities }),
        auth: mockServices.auth(),
        annotationPrefix,
        defaultCluster: 'prod',
      },
      secret,
    );

  it('lists each owner of a linking entity once, by name or by selector', async () => {
    expect(
      await owners([
        entity('api', 'team-a', { 'krypton.io/secrets': 'payments/db' }),
        entity('api2', 'group:default/team-a', {
          'krypton.io/secrets': 'prod/payments/db',
        }),
        entity('worker', 'user:bob', {
          'krypton.io/secrets-selector': 'app=payments',
          'krypton.io/secrets-namespace': 'payments',
        }),
        entity('orphan', undefined, { 'krypton.io/secrets': 'payments/db' }),
      ]),
    ).toEqual(['group:default/team-a', 'user:default/bob']);
  });

  it('leaves out entities that link other Secrets or none', async () => {
    expect(
      await owners([
        entity('other', 'carol', { 'krypton.io/secrets': 'payments/other' }),
        entity('staging', 'carol', {
          'krypton.io/secrets': 'staging/payments/db',
        }),
        entity('elsewhere', 'carol', {
          'krypton.io/secrets-selector': 'app=payments',
          'krypton.io/secrets-namespace': 'elsewhere',
        }),
        entity('unlabelled', 'carol', {
          'krypton.io/secrets-selector': 'app=billing',
          'krypton.io/secrets-namespace': 'payments',
        }),
        entity('none', 'carol'),
      ]),
    ).toEqual([]);
  });

  it('reads the links under the configured prefix only', async () => {
    const linked = [
      entity('default', 'team-a', { 'krypton.io/secrets': 'payments/db' }),
      entity('custom', 'team-b', {
        'secrets.example.com/secrets': 'payments/db',
      }),
    ];
    expect(await owners(linked, 'secrets.example.com')).toEqual([
      'group:default/team-b',
    ]);
  });
});

describe('cachedOwnerLookup', () => {
  const secret = {
    cluster: 'prod',
    namespace: 'payments',
    name: 'db',
    labels: {},
  };
  const linking = [
    entity('api', 'team-a', { 'krypton.io/secrets': 'payments/db' }),
  ];

  function setup(read: () => Promise<Entity[]>) {
    let clock = 0;
    let reads = 0;
    const catalog = catalogServiceMock({ entities: linking });
    jest
      .spyOn(catalog, 'streamEntities')
      .mockImplementation(async function* streamOnce() {
        reads++;
        yield await read();
      });
    const lookup = cachedOwnerLookup(
      {
        catalog,
        auth: mockServices.auth(),
        annotationPrefix: 'krypton.io',
        defaultCluster: 'prod',
      },
      10_000,
      () => clock,
    );
    return {
      lookup,
      reads: () => reads,
      advance: (ms: number) => {
        clock += ms;
      },
    };
  }

  it('reads the catalog once per interval, for every change meanwhile', async () => {
    const { lookup, reads, advance } = setup(async () => linking);
    expect(await lookup(secret)).toEqual(['group:default/team-a']);
    advance(9_999);
    expect(
      await Promise.all([lookup(secret), lookup({ ...secret, name: 'other' })]),
    ).toEqual([['group:default/team-a'], []]);
    expect(reads()).toBe(1);
    advance(1);
    await lookup(secret);
    expect(reads()).toBe(2);
  });

  it('does not keep a failed read', async () => {
    let fail = true;
    const { lookup, reads } = setup(async () => {
      if (fail) throw new Error('catalog down');
      return linking;
    });
    await expect(lookup(secret)).rejects.toThrow('catalog down');
    fail = false;
    expect(await lookup(secret)).toEqual(['group:default/team-a']);
    expect(reads()).toBe(2);
  });
});
