import { Entity } from '@backstage/catalog-model';
import { kryptonSecretsAnnotation, linkedSecrets } from './linkedSecrets';

const entity = (annotations: Record<string, string> = {}): Entity => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: { name: 'c', annotations },
});

/** Links under the default prefix. */
const linked = (value: string) =>
  linkedSecrets(entity({ 'krypton.io/secrets': value }), 'krypton.io');

describe('linkedSecrets', () => {
  it('parses namespace/name pairs, tolerating spaces', () => {
    expect(linked('demo/db, demo/tls.v2 ,other/x')).toEqual([
      { namespace: 'demo', name: 'db' },
      { namespace: 'demo', name: 'tls.v2' },
      { namespace: 'other', name: 'x' },
    ]);
  });

  it('skips malformed entries instead of guessing', () => {
    expect(linked('db,/x,Demo/x,demo/,demo/a/b,demo/-x,demo / x,,')).toEqual(
      [],
    );
  });

  it('skips names with empty DNS labels', () => {
    expect(linked('demo/a..b,demo/.a,demo/a.,demo/ok')).toEqual([
      { namespace: 'demo', name: 'ok' },
    ]);
  });

  it('skips history snapshot names, which are never served by name', () => {
    expect(linked('demo/krypton-h-abc-v1,demo/krypton-history')).toEqual([
      { namespace: 'demo', name: 'krypton-history' },
    ]);
  });

  it('applies the Kubernetes length limits to names and namespaces', () => {
    const name253 = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(
      63,
    )}.${'d'.repeat(61)}`;
    const name254 = `${name253}e`;
    const ns63 = 'n'.repeat(63);
    const ns64 = 'n'.repeat(64);
    expect(name253).toHaveLength(253);
    expect(
      linked(`demo/${name254},${ns64}/db,demo/${name253},${ns63}/db`),
    ).toEqual([
      { namespace: 'demo', name: name253 },
      { namespace: ns63, name: 'db' },
    ]);
  });

  it('lists a repeated entry once', () => {
    expect(linked('demo/db, demo/db,demo/db ,other/db')).toEqual([
      { namespace: 'demo', name: 'db' },
      { namespace: 'other', name: 'db' },
    ]);
  });

  it('reads the annotation under the given prefix only', () => {
    const e = entity({
      'krypton.io/secrets': 'demo/default',
      'secrets.example.com/secrets': 'demo/custom',
    });
    expect(linkedSecrets(e, 'secrets.example.com')).toEqual([
      { namespace: 'demo', name: 'custom' },
    ]);
    expect(
      linkedSecrets(
        entity({ 'krypton.io/secrets': 'demo/default' }),
        'secrets.example.com',
      ),
    ).toEqual([]);
  });

  it('names the annotation after the prefix', () => {
    expect(kryptonSecretsAnnotation('secrets.example.com')).toBe(
      'secrets.example.com/secrets',
    );
  });

  it('returns nothing without the annotation', () => {
    expect(linkedSecrets(entity(), 'krypton.io')).toEqual([]);
  });
});
