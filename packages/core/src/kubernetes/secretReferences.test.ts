import fc from 'fast-check';
import { SecretUsage } from '../dto';
import { findSecretUsages } from './secretReferences';

const SECRET = 'db-creds';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A pod template whose spec is the given fields. */
const template = (spec: Json): Json => ({
  metadata: { labels: { app: 'api' } },
  spec,
});

const envRef = (name: unknown) => ({
  name: 'PASSWORD',
  valueFrom: { secretKeyRef: { name, key: 'password' } },
});
const envFromRef = (name: unknown) => ({ secretRef: { name } });

const CONTAINER_FIELDS = [
  'containers',
  'initContainers',
  'ephemeralContainers',
] as const;

describe('findSecretUsages', () => {
  describe('each reference path on its own', () => {
    it.each(CONTAINER_FIELDS)(
      'matches env[].valueFrom.secretKeyRef.name on %s',
      field => {
        const usages = findSecretUsages(
          template({
            [field]: [
              { name: 'app', env: [{ name: 'PLAIN', value: SECRET }] },
              { name: 'side', env: [envRef(SECRET)] },
            ],
          }),
          SECRET,
        );
        expect(usages).toEqual([{ type: 'env', containers: ['side'] }]);
      },
    );

    it.each(CONTAINER_FIELDS)(
      'matches envFrom[].secretRef.name on %s',
      field => {
        const usages = findSecretUsages(
          template({
            [field]: [
              { name: 'app', envFrom: [envFromRef('other')] },
              { name: 'side', envFrom: [envFromRef(SECRET)] },
            ],
          }),
          SECRET,
        );
        expect(usages).toEqual([{ type: 'envFrom', containers: ['side'] }]);
      },
    );

    it('lists every container that reads it once, across normal, init and ephemeral containers', () => {
      const usages = findSecretUsages(
        template({
          containers: [
            { name: 'app', env: [envRef(SECRET), envRef(SECRET)] },
            { name: 'other', env: [envRef('other')] },
          ],
          initContainers: [
            {
              name: 'migrate',
              env: [envRef(SECRET)],
              envFrom: [envFromRef(SECRET)],
            },
          ],
          ephemeralContainers: [
            { name: 'debug', envFrom: [envFromRef(SECRET)] },
          ],
        }),
        SECRET,
      );
      expect(usages).toEqual([
        { type: 'env', containers: ['app', 'migrate'] },
        { type: 'envFrom', containers: ['migrate', 'debug'] },
      ]);
    });

    it('matches volumes[].secret.secretName with the volume name', () => {
      const usages = findSecretUsages(
        template({
          volumes: [
            { name: 'config', configMap: { name: 'cm' } },
            { name: 'creds', secret: { secretName: SECRET } },
          ],
        }),
        SECRET,
      );
      expect(usages).toEqual([{ type: 'volume', volume: 'creds' }]);
    });

    it('matches volumes[].projected.sources[].secret.name with the volume name', () => {
      const usages = findSecretUsages(
        template({
          volumes: [
            {
              name: 'bundle',
              projected: {
                sources: [
                  { configMap: { name: 'cm' } },
                  {
                    secret: { name: SECRET, items: [{ key: 'a', path: 'a' }] },
                  },
                  { serviceAccountToken: { path: 'token' } },
                ],
              },
            },
          ],
        }),
        SECRET,
      );
      expect(usages).toEqual([{ type: 'projected', volume: 'bundle' }]);
    });

    it('matches imagePullSecrets[].name', () => {
      const usages = findSecretUsages(
        template({
          containers: [{ name: 'app', image: 'registry.example/app' }],
          imagePullSecrets: [{ name: 'other' }, { name: SECRET }],
        }),
        SECRET,
      );
      expect(usages).toEqual([{ type: 'imagePullSecret' }]);
    });

    it('reports every path of one template, in a stable order', () => {
      const usages = findSecretUsages(
        template({
          containers: [
            {
              name: 'app',
              env: [envRef(SECRET)],
              envFrom: [envFromRef(SECRET)],
            },
          ],
          volumes: [
            { name: 'creds', secret: { secretName: SECRET } },
            {
              name: 'bundle',
              projected: { sources: [{ secret: { name: SECRET } }] },
            },
          ],
          imagePullSecrets: [{ name: SECRET }],
        }),
        SECRET,
      );
      expect(usages).toEqual([
        { type: 'env', containers: ['app'] },
        { type: 'envFrom', containers: ['app'] },
        { type: 'volume', volume: 'creds' },
        { type: 'projected', volume: 'bundle' },
        { type: 'imagePullSecret' },
      ]);
    });
  });

  describe('near misses', () => {
    it.each([
      ['another Secret', 'other'],
      ['a prefix', 'db'],
      ['a suffix', 'creds'],
      ['a longer name', 'db-creds-old'],
      ['a different case', 'DB-CREDS'],
      ['surrounding space', ' db-creds'],
    ])('does not match %s on any path (%j)', (_label, name) => {
      const usages = findSecretUsages(
        template({
          containers: [
            { name: 'app', env: [envRef(name)], envFrom: [envFromRef(name)] },
          ],
          initContainers: [{ name: 'init', env: [envRef(name)] }],
          ephemeralContainers: [{ name: 'debug', envFrom: [envFromRef(name)] }],
          volumes: [
            { name: 'creds', secret: { secretName: name } },
            { name: 'bundle', projected: { sources: [{ secret: { name } }] } },
          ],
          imagePullSecrets: [{ name }],
        }),
        SECRET,
      );
      expect(usages).toEqual([]);
    });

    it('does not match ConfigMap references of the same name', () => {
      const usages = findSecretUsages(
        template({
          containers: [
            {
              name: 'app',
              env: [
                {
                  name: 'X',
                  valueFrom: { configMapKeyRef: { name: SECRET, key: 'k' } },
                },
              ],
              envFrom: [{ configMapRef: { name: SECRET } }],
            },
          ],
          volumes: [
            { name: 'cm', configMap: { name: SECRET } },
            {
              name: 'bundle',
              projected: { sources: [{ configMap: { name: SECRET } }] },
            },
          ],
        }),
        SECRET,
      );
      expect(usages).toEqual([]);
    });

    it('does not match the right name in the wrong field', () => {
      const usages = findSecretUsages(
        template({
          containers: [
            {
              name: SECRET,
              env: [
                { name: SECRET, value: SECRET },
                { name: 'X', valueFrom: { secretKeyRef: { key: SECRET } } },
              ],
              envFrom: [{ prefix: SECRET, secretRef: { key: SECRET } }],
            },
          ],
          volumes: [
            { name: SECRET, emptyDir: {} },
            // secret volumes name their Secret in secretName, projected sources in name
            { name: 'a', secret: { name: SECRET } },
            {
              name: 'b',
              projected: { sources: [{ secret: { secretName: SECRET } }] },
            },
          ],
          imagePullSecrets: [{ secretName: SECRET }],
          serviceAccountName: SECRET,
        }),
        SECRET,
      );
      expect(usages).toEqual([]);
    });

    it('does not match references outside the pod template spec', () => {
      expect(
        findSecretUsages(
          {
            metadata: { annotations: { secret: SECRET } },
            containers: [{ name: 'app', env: [envRef(SECRET)] }],
            volumes: [{ name: 'v', secret: { secretName: SECRET } }],
            imagePullSecrets: [{ name: SECRET }],
          },
          SECRET,
        ),
      ).toEqual([]);
    });

    it.each([
      ['a number', 42],
      ['null', null],
      ['an array', [SECRET]],
      ['an object', { name: SECRET }],
      ['a boolean', true],
    ])('does not match a non-string name: %s', (_label, name) => {
      const usages = findSecretUsages(
        template({
          containers: [
            { name: 'app', env: [envRef(name)], envFrom: [envFromRef(name)] },
          ],
          volumes: [
            { name: 'creds', secret: { secretName: name } },
            { name: 'bundle', projected: { sources: [{ secret: { name } }] } },
          ],
          imagePullSecrets: [{ name }],
        }),
        SECRET,
      );
      expect(usages).toEqual([]);
    });

    it.each([
      ['undefined', undefined],
      ['null', null],
      ['a string', SECRET],
      ['a number', 7],
      ['an array', [{ spec: { imagePullSecrets: [{ name: SECRET }] } }]],
      ['a null spec', { spec: null }],
      ['an array spec', { spec: [{ imagePullSecrets: [{ name: SECRET }] }] }],
      ['a string spec', { spec: SECRET }],
      [
        'objects where arrays are expected',
        {
          spec: {
            containers: { app: { name: 'app', env: [envRef(SECRET)] } },
            initContainers: SECRET,
            volumes: {
              creds: { name: 'creds', secret: { secretName: SECRET } },
            },
            imagePullSecrets: { name: SECRET },
          },
        },
      ],
      [
        'arrays where objects are expected',
        {
          spec: {
            containers: [
              {
                name: 'app',
                env: [
                  {
                    name: 'X',
                    valueFrom: [{ secretKeyRef: { name: SECRET } }],
                  },
                  {
                    name: 'Y',
                    valueFrom: { secretKeyRef: [{ name: SECRET }] },
                  },
                ],
                envFrom: [
                  { secretRef: [{ name: SECRET }] },
                  [envFromRef(SECRET)],
                ],
              },
              [{ name: 'nested', env: [envRef(SECRET)] }],
            ],
            volumes: [
              { name: 'a', secret: [{ secretName: SECRET }] },
              {
                name: 'b',
                projected: [{ sources: [{ secret: { name: SECRET } }] }],
              },
              {
                name: 'c',
                projected: { sources: { s: { secret: { name: SECRET } } } },
              },
              {
                name: 'd',
                projected: { sources: [{ secret: [{ name: SECRET }] }] },
              },
              [{ name: 'e', secret: { secretName: SECRET } }],
            ],
            imagePullSecrets: [[{ name: SECRET }]],
          },
        },
      ],
      [
        'null and primitive entries',
        {
          spec: {
            containers: [
              null,
              1,
              'x',
              { name: 'app', env: [null, 2], envFrom: null },
            ],
            initContainers: [{ name: 'i', env: null, envFrom: [null, 'x'] }],
            ephemeralContainers: null,
            volumes: [
              null,
              { name: 'v', secret: null, projected: { sources: null } },
            ],
            imagePullSecrets: [null, SECRET],
          },
        },
      ],
    ])('reads %s as no reference and never throws', (_label, value) => {
      expect(findSecretUsages(value, SECRET)).toEqual([]);
    });

    it('reports a usage whose container or volume name is missing with an empty name', () => {
      const usages = findSecretUsages(
        template({
          containers: [
            { env: [envRef(SECRET)] },
            { name: 5, envFrom: [envFromRef(SECRET)] },
          ],
          volumes: [
            { secret: { secretName: SECRET } },
            {
              name: null,
              projected: { sources: [{ secret: { name: SECRET } }] },
            },
          ],
        }),
        SECRET,
      );
      expect(usages).toEqual([
        { type: 'env', containers: [''] },
        { type: 'envFrom', containers: [''] },
        { type: 'volume', volume: '' },
        { type: 'projected', volume: '' },
      ]);
    });
  });

  describe('random templates', () => {
    const junk = fc.jsonValue({ maxDepth: 3 });
    const maybe = <T>(arb: fc.Arbitrary<T>) =>
      fc.oneof({ weight: 3, arbitrary: arb }, { weight: 1, arbitrary: junk });
    const anyName = fc.oneof(
      fc.constantFrom('db', 'creds', 'db-creds-old', 'other', 'DB-CREDS', ''),
      fc.string({ maxLength: 10 }),
      junk,
    );
    const envEntry = fc.record(
      {
        name: maybe(fc.string({ maxLength: 6 })),
        value: maybe(anyName),
        valueFrom: maybe(
          fc.record(
            {
              secretKeyRef: maybe(
                fc.record({ name: anyName, key: junk }, { requiredKeys: [] }),
              ),
              configMapKeyRef: maybe(
                fc.record({ name: anyName }, { requiredKeys: [] }),
              ),
            },
            { requiredKeys: [] },
          ),
        ),
      },
      { requiredKeys: [] },
    );
    const envFromEntry = fc.record(
      {
        secretRef: maybe(fc.record({ name: anyName }, { requiredKeys: [] })),
        configMapRef: maybe(fc.record({ name: anyName }, { requiredKeys: [] })),
        prefix: maybe(fc.string({ maxLength: 4 })),
      },
      { requiredKeys: [] },
    );
    const container = fc.record(
      {
        name: maybe(fc.string({ maxLength: 6 })),
        env: maybe(fc.array(maybe(envEntry), { maxLength: 3 })),
        envFrom: maybe(fc.array(maybe(envFromEntry), { maxLength: 3 })),
      },
      { requiredKeys: [] },
    );
    const containers = maybe(fc.array(maybe(container), { maxLength: 3 }));
    const volume = fc.record(
      {
        name: maybe(fc.string({ maxLength: 6 })),
        secret: maybe(fc.record({ secretName: anyName }, { requiredKeys: [] })),
        configMap: maybe(fc.record({ name: anyName }, { requiredKeys: [] })),
        projected: maybe(
          fc.record(
            {
              sources: maybe(
                fc.array(
                  maybe(
                    fc.record(
                      {
                        secret: maybe(
                          fc.record({ name: anyName }, { requiredKeys: [] }),
                        ),
                        configMap: maybe(
                          fc.record({ name: anyName }, { requiredKeys: [] }),
                        ),
                      },
                      { requiredKeys: [] },
                    ),
                  ),
                  { maxLength: 3 },
                ),
              ),
            },
            { requiredKeys: [] },
          ),
        ),
      },
      { requiredKeys: [] },
    );
    const podSpec = fc.record(
      {
        containers,
        initContainers: containers,
        ephemeralContainers: containers,
        volumes: maybe(fc.array(maybe(volume), { maxLength: 3 })),
        imagePullSecrets: maybe(
          fc.array(maybe(fc.record({ name: anyName }, { requiredKeys: [] })), {
            maxLength: 3,
          }),
        ),
      },
      { requiredKeys: [] },
    );
    /** Pod-template-like values, with junk in every position, and plain junk. */
    const anyTemplate: fc.Arbitrary<unknown> = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record(
          { metadata: junk, spec: maybe(podSpec) },
          { requiredKeys: [] },
        ),
      },
      { weight: 1, arbitrary: fc.anything() },
    );

    /** A deep copy that keeps undefined-free JSON and fast-check's other values alike. */
    const copy = <T>(value: T): T => structuredClone(value);

    /** The object at obj[key], made an object when it is not one. */
    const objectAt = (obj: Json, key: string): Json => {
      if (!isObject(obj[key])) obj[key] = {};
      return obj[key] as Json;
    };
    /** The array at obj[key], made an array when it is not one. */
    const arrayAt = (obj: Json, key: string): unknown[] => {
      if (!Array.isArray(obj[key])) obj[key] = [];
      return obj[key] as unknown[];
    };

    const LOCATIONS = [
      ...CONTAINER_FIELDS.map(f => ({ field: f, kind: 'env' as const })),
      ...CONTAINER_FIELDS.map(f => ({ field: f, kind: 'envFrom' as const })),
      { field: 'volumes', kind: 'volume' as const },
      { field: 'volumes', kind: 'projected' as const },
      { field: 'imagePullSecrets', kind: 'imagePullSecret' as const },
    ];
    type Location = (typeof LOCATIONS)[number];

    /**
     * Inserts an exact reference at a listed path of a copy of the template, into an existing
     * container or projected volume when there is one, creating only what is missing. Returns the
     * copy and the usage that must now be reported.
     */
    function insertReference(
      original: unknown,
      location: Location,
      pick: number,
    ): { value: Json; usage: SecretUsage } {
      const value = isObject(original) ? copy(original) : {};
      const spec = objectAt(value, 'spec');
      const at = (array: unknown[]) => pick % (array.length + 1);
      if (location.kind === 'env' || location.kind === 'envFrom') {
        const list = arrayAt(spec, location.field);
        const existing = list.filter(isObject);
        let target: Json;
        if (existing.length > 0) target = existing[pick % existing.length];
        else {
          target = { name: 'inserted' };
          list.splice(at(list), 0, target);
        }
        const entries = arrayAt(target, location.kind);
        entries.splice(
          at(entries),
          0,
          location.kind === 'env' ? envRef(SECRET) : envFromRef(SECRET),
        );
        const name = typeof target.name === 'string' ? target.name : '';
        return { value, usage: { type: location.kind, containers: [name] } };
      }
      const list = arrayAt(spec, location.field);
      if (location.kind === 'volume') {
        list.splice(at(list), 0, {
          name: 'inserted',
          secret: { secretName: SECRET },
        });
        return { value, usage: { type: 'volume', volume: 'inserted' } };
      }
      if (location.kind === 'projected') {
        const projected = list.filter(
          (v): v is Json => isObject(v) && isObject(v.projected),
        );
        if (projected.length === 0) {
          list.splice(at(list), 0, {
            name: 'inserted',
            projected: { sources: [{ secret: { name: SECRET } }] },
          });
          return { value, usage: { type: 'projected', volume: 'inserted' } };
        }
        const target = projected[pick % projected.length];
        const sources = arrayAt(target.projected as Json, 'sources');
        sources.splice(at(sources), 0, { secret: { name: SECRET } });
        const name = typeof target.name === 'string' ? target.name : '';
        return { value, usage: { type: 'projected', volume: name } };
      }
      list.splice(at(list), 0, { name: SECRET });
      return { value, usage: { type: 'imagePullSecret' } };
    }

    /** The usage, with the inserted container among possibly others. */
    const covering = (usage: SecretUsage) =>
      usage.containers
        ? expect.objectContaining({
            type: usage.type,
            containers: expect.arrayContaining(usage.containers),
          })
        : usage;

    it('never throws on random templates, and always answers an array of usages', () => {
      fc.assert(
        fc.property(
          anyTemplate,
          fc.string({ maxLength: 10 }),
          (value, secret) => {
            const usages = findSecretUsages(value, secret);
            expect(Array.isArray(usages)).toBe(true);
          },
        ),
        { numRuns: 500 },
      );
    });

    it('finds nothing when the name appears nowhere in the template', () => {
      fc.assert(
        fc.property(anyTemplate, value => {
          fc.pre(!(JSON.stringify(value) ?? '').includes(SECRET));
          expect(findSecretUsages(value, SECRET)).toEqual([]);
        }),
        { numRuns: 300 },
      );
    });

    it('matches once an exact reference is inserted at any listed path', () => {
      fc.assert(
        fc.property(
          anyTemplate,
          fc.constantFrom(...LOCATIONS),
          fc.nat(),
          (original, location, pick) => {
            const { value, usage } = insertReference(original, location, pick);
            expect(findSecretUsages(value, SECRET)).toContainEqual(
              covering(usage),
            );
          },
        ),
        { numRuns: 500 },
      );
    });

    it('keeps the usages unchanged when a ConfigMap reference of the same name is inserted', () => {
      fc.assert(
        fc.property(anyTemplate, original => {
          const before = findSecretUsages(original, SECRET);
          const value = isObject(original) ? copy(original) : {};
          const spec = objectAt(value, 'spec');
          arrayAt(spec, 'containers').push({
            name: 'cm',
            env: [
              { name: 'X', valueFrom: { configMapKeyRef: { name: SECRET } } },
            ],
            envFrom: [{ configMapRef: { name: SECRET } }],
          });
          arrayAt(spec, 'volumes').push(
            { name: 'cm', configMap: { name: SECRET } },
            {
              name: 'pcm',
              projected: { sources: [{ configMap: { name: SECRET } }] },
            },
          );
          // A template without a spec object had no usages, and its new spec holds none either.
          expect(findSecretUsages(value, SECRET)).toEqual(before);
        }),
        { numRuns: 300 },
      );
    });
  });
});
