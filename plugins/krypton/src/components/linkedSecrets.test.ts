import { Entity } from '@backstage/catalog-model';
import { linkedSecrets } from './linkedSecrets';

const entity = (annotation?: string): Entity => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: {
    name: 'c',
    annotations:
      annotation === undefined ? {} : { 'krypton.io/secrets': annotation },
  },
});

describe('linkedSecrets', () => {
  it('parses namespace/name pairs, tolerating spaces', () => {
    expect(linkedSecrets(entity('demo/db, demo/tls.v2 ,other/x'))).toEqual([
      { namespace: 'demo', name: 'db' },
      { namespace: 'demo', name: 'tls.v2' },
      { namespace: 'other', name: 'x' },
    ]);
  });

  it('skips malformed entries instead of guessing', () => {
    expect(
      linkedSecrets(entity('db,/x,Demo/x,demo/,demo/a/b,demo/-x')),
    ).toEqual([]);
  });

  it('returns nothing without the annotation', () => {
    expect(linkedSecrets(entity())).toEqual([]);
  });
});
