import { Entity } from '@backstage/catalog-model';
import {
  entitySecretLinks,
  hasLinkedSecrets,
  linkedSecrets,
  linksSecret,
} from './entityLinks';
import { MAX_LINKED_SECRET_ENTRIES } from '@krypton/core';

const entity = (secrets: string): Entity => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: { name: 'c', annotations: { 'krypton.io/secrets': secrets } },
});

const links = (secrets: string) =>
  entitySecretLinks(entity(secrets), 'krypton.io');

const entries = (count: number, from = 1) =>
  Array.from({ length: count }, (_, i) => `demo/s${from + i}`);

const refsOf = (count: number, from = 1) =>
  Array.from({ length: count }, (_, i) => ({
    namespace: 'demo',
    name: `s${from + i}`,
  }));

describe('the cap on linked Secret entries', () => {
  it('is 100 entries', () => {
    expect(MAX_LINKED_SECRET_ENTRIES).toBe(100);
  });

  it(`keeps ${MAX_LINKED_SECRET_ENTRIES} entries and reports none as not loaded`, () => {
    const result = links(entries(MAX_LINKED_SECRET_ENTRIES).join(','));
    expect(result.refs).toEqual(refsOf(MAX_LINKED_SECRET_ENTRIES));
    expect(result).not.toHaveProperty('notLoaded');
  });

  it(`counts entry ${
    MAX_LINKED_SECRET_ENTRIES + 1
  } instead of linking it`, () => {
    const secrets = entries(MAX_LINKED_SECRET_ENTRIES + 1).join(',');
    const result = links(secrets);
    expect(result.refs).toEqual(refsOf(MAX_LINKED_SECRET_ENTRIES));
    expect(result.notLoaded).toBe(1);
    // Every host reads the same links: linkedSecrets, and the owners that notifications find.
    expect(linkedSecrets(entity(secrets), 'krypton.io')).toEqual(result.refs);
    const secret = (name: string) => ({
      cluster: 'local',
      namespace: 'demo',
      name,
      labels: {},
    });
    expect(linksSecret(result, secret('s100'), 'local')).toBe(true);
    expect(linksSecret(result, secret('s101'), 'local')).toBe(false);
  });

  it('does not count blank entries, before or after the cap', () => {
    const secrets = `, ,${entries(MAX_LINKED_SECRET_ENTRIES).join(
      ', ,',
    )},,demo/late, ,`;
    const result = links(secrets);
    expect(result.refs).toEqual(refsOf(MAX_LINKED_SECRET_ENTRIES));
    expect(result.notLoaded).toBe(1);
  });

  it('spends a place on a malformed or repeated entry, as written', () => {
    const secrets = [
      'Not/Valid',
      'demo/s1',
      'demo/s1',
      ...entries(MAX_LINKED_SECRET_ENTRIES - 3, 2),
      'demo/late',
    ].join(',');
    const result = links(secrets);
    expect(result.refs).toEqual(refsOf(MAX_LINKED_SECRET_ENTRIES - 2));
    expect(result.notLoaded).toBe(1);
  });

  it('reads 20,000 entries of several megabytes as the first 100 and a count', () => {
    // Names of 200 characters: about 4 MB in all.
    const long = (i: number) =>
      `demo/${'a'.repeat(190)}-${String(i).padStart(8, '0')}`;
    const all = Array.from({ length: 20_000 }, (_, i) => long(i));
    const secrets = all.join(',');
    expect(secrets.length).toBeGreaterThan(4_000_000);
    const result = links(secrets);
    expect(result.refs).toHaveLength(MAX_LINKED_SECRET_ENTRIES);
    expect(result.refs[99]).toEqual({
      namespace: 'demo',
      name: long(99).slice(5),
    });
    expect(result.notLoaded).toBe(20_000 - MAX_LINKED_SECRET_ENTRIES);
  });

  it('reads a megabyte entry of slashes as one malformed entry', () => {
    const result = links(`demo/db,${'/'.repeat(1_000_000)},demo/x`);
    expect(result.refs).toEqual([
      { namespace: 'demo', name: 'db' },
      { namespace: 'demo', name: 'x' },
    ]);
    expect(result).not.toHaveProperty('notLoaded');
  });

  it('shows the tab for entries beyond the cap even when no read entry is valid', () => {
    const invalid = Array.from(
      { length: MAX_LINKED_SECRET_ENTRIES },
      (_, i) => `Not/Valid${i}`,
    );
    const secrets = [...invalid, 'demo/db'].join(',');
    expect(links(secrets)).toEqual({ refs: [], notLoaded: 1 });
    expect(hasLinkedSecrets(entity(secrets), 'krypton.io')).toBe(true);
  });
});
