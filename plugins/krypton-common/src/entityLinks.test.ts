import { Entity } from '@backstage/catalog-model';
import {
  entitySecretLinks,
  hasLinkedSecrets,
  kryptonLinkAnnotations,
  kryptonSecretsAnnotation,
  linkedSecrets,
  linksSecret,
} from './entityLinks';

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
    expect(
      linked('db,/x,Demo/x,demo/,a/b/c/d,/demo/x,demo/-x,demo / x,,'),
    ).toEqual([]);
  });

  it('skips names with empty DNS labels', () => {
    expect(linked('demo/a..b,demo/.a,demo/a.,demo/ok')).toEqual([
      { namespace: 'demo', name: 'ok' },
    ]);
  });

  it('skips history snapshot and proposal names, which are never served by name', () => {
    expect(
      linked('demo/krypton-h-abc-v1,demo/krypton-p-abc,demo/krypton-history'),
    ).toEqual([{ namespace: 'demo', name: 'krypton-history' }]);
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

  it('accepts cluster/namespace/name entries next to namespace/name ones', () => {
    expect(linked('prod-eu/demo/db, demo/db ,prod_us.2/demo/db')).toEqual([
      { cluster: 'prod-eu', namespace: 'demo', name: 'db' },
      { namespace: 'demo', name: 'db' },
      { cluster: 'prod_us.2', namespace: 'demo', name: 'db' },
    ]);
  });

  it('lists a repeated cluster entry once and validates its Secret part', () => {
    expect(
      linked('prod/demo/db,prod/demo/db,prod/Demo/db,prod/demo/krypton-h-x-v1'),
    ).toEqual([{ cluster: 'prod', namespace: 'demo', name: 'db' }]);
  });
});

describe('entitySecretLinks', () => {
  const names = kryptonLinkAnnotations('krypton.io');

  it('names the annotations after the prefix', () => {
    expect(kryptonLinkAnnotations('secrets.example.com')).toEqual({
      secrets: 'secrets.example.com/secrets',
      selector: 'secrets.example.com/secrets-selector',
      namespace: 'secrets.example.com/secrets-namespace',
      cluster: 'secrets.example.com/cluster',
    });
  });

  it('reads a selector with its own namespace and cluster', () => {
    const links = entitySecretLinks(
      entity({
        [names.selector]: 'app=payments, tier in (api,worker)',
        [names.namespace]: 'payments',
        [names.cluster]: 'prod-eu',
        'backstage.io/kubernetes-namespace': 'ignored',
        [names.secrets]: 'demo/db',
      }),
      'krypton.io',
    );
    expect(links).toEqual({
      refs: [{ namespace: 'demo', name: 'db' }],
      selector: {
        cluster: 'prod-eu',
        namespace: 'payments',
        labelSelector: 'app=payments,tier in (api,worker)',
      },
    });
  });

  it("falls back to the Kubernetes plugin's namespace and the default cluster", () => {
    expect(
      entitySecretLinks(
        entity({
          [names.selector]: 'app=payments',
          'backstage.io/kubernetes-namespace': 'payments',
        }),
        'krypton.io',
      ),
    ).toEqual({
      refs: [],
      selector: { namespace: 'payments', labelSelector: 'app=payments' },
    });
  });

  it('explains a selector without a namespace instead of guessing one', () => {
    const links = entitySecretLinks(
      entity({ [names.selector]: 'app=payments' }),
      'krypton.io',
    );
    expect(links.selector).toBeUndefined();
    expect(links.selectorProblem).toBe(
      'krypton.io/secrets-selector needs a namespace: add krypton.io/secrets-namespace or backstage.io/kubernetes-namespace.',
    );
  });

  it('explains a malformed selector, namespace or cluster', () => {
    const problem = (annotations: Record<string, string>) =>
      entitySecretLinks(entity(annotations), 'krypton.io').selectorProblem;
    expect(
      problem({ [names.selector]: 'app=(x', [names.namespace]: 'payments' }),
    ).toMatch(/^krypton\.io\/secrets-selector: Invalid label selector/);
    expect(
      problem({ [names.selector]: 'app=x', [names.namespace]: 'Payments' }),
    ).toMatch(/^Payments: Invalid namespace/);
    expect(
      problem({
        [names.selector]: 'app=x',
        [names.namespace]: 'payments',
        [names.cluster]: 'a/b',
      }),
    ).toBe('krypton.io/cluster is not a cluster name.');
  });

  it('refuses a hostile selector annotation at once, selecting nothing', () => {
    // An earlier regex failed on this in 2^n ways, freezing the entity page for every viewer.
    const hostile = `a in (${', '.repeat(200)}!)`;
    const links = entitySecretLinks(
      entity({
        [names.selector]: hostile,
        [names.namespace]: 'payments',
      }),
      'krypton.io',
    );
    expect(links.selector).toBeUndefined();
    expect(links.selectorProblem).toBe(
      'krypton.io/secrets-selector: Invalid label selector: use terms such as app=payments, tier!=cache or env in (prod,staging), separated by commas.',
    );
  });

  it('links the canonical text of a selector with blanks and empty set values', () => {
    expect(
      entitySecretLinks(
        entity({
          [names.selector]: ' app = payments , tier in( api, ,worker ) ',
          [names.namespace]: 'payments',
        }),
        'krypton.io',
      ).selector,
    ).toEqual({
      namespace: 'payments',
      labelSelector: 'app=payments,tier in (api,,worker)',
    });
  });

  it('ignores a blank selector annotation', () => {
    expect(
      entitySecretLinks(entity({ [names.selector]: '  ' }), 'krypton.io'),
    ).toEqual({ refs: [] });
  });

  it('reports whether anything is linked, a broken selector included', () => {
    const has = (annotations: Record<string, string>) =>
      hasLinkedSecrets(entity(annotations), 'krypton.io');
    expect(has({})).toBe(false);
    expect(has({ [names.secrets]: 'demo/a..b' })).toBe(false);
    expect(has({ [names.secrets]: 'demo/db' })).toBe(true);
    expect(has({ [names.selector]: 'app=x' })).toBe(true);
  });
});

describe('linksSecret', () => {
  const names = kryptonLinkAnnotations('krypton.io');
  const secret = {
    cluster: 'prod',
    namespace: 'payments',
    name: 'db',
    labels: { app: 'payments', tier: 'api' },
  };
  const links = (annotations: Record<string, string>) =>
    linksSecret(
      entitySecretLinks(entity(annotations), 'krypton.io'),
      secret,
      'prod',
    );

  it('matches a named entry by cluster, namespace and name', () => {
    expect(links({ [names.secrets]: 'other/x, payments/db' })).toBe(true);
    expect(links({ [names.secrets]: 'prod/payments/db' })).toBe(true);
    expect(links({ [names.secrets]: 'payments/db2,other/db' })).toBe(false);
    expect(links({ [names.secrets]: 'staging/payments/db' })).toBe(false);
  });

  it('reads an entry without a cluster as the default cluster only', () => {
    const named = entitySecretLinks(
      entity({ [names.secrets]: 'payments/db' }),
      'krypton.io',
    );
    expect(linksSecret(named, secret, 'prod')).toBe(true);
    expect(linksSecret(named, secret, 'staging')).toBe(false);
  });

  it("matches a selector in the Secret's namespace and cluster against its labels", () => {
    const selector = (labelSelector: string, more = {}) => ({
      [names.selector]: labelSelector,
      [names.namespace]: 'payments',
      ...more,
    });
    expect(links(selector('app=payments,tier in (api,worker)'))).toBe(true);
    expect(links(selector('app=payments,tier=worker'))).toBe(false);
    expect(links(selector('app=payments', { [names.cluster]: 'prod' }))).toBe(
      true,
    );
    expect(
      links(selector('app=payments', { [names.cluster]: 'staging' })),
    ).toBe(false);
    expect(
      links({ [names.selector]: 'app=payments', [names.namespace]: 'other' }),
    ).toBe(false);
    expect(
      links({
        [names.selector]: 'app=payments',
        'backstage.io/kubernetes-namespace': 'payments',
      }),
    ).toBe(true);
  });

  it('never matches through a selector that has a problem', () => {
    // Without a namespace the selector is a problem on the tab, never a match in any namespace.
    expect(links({ [names.selector]: 'app=payments' })).toBe(false);
    expect(
      links({ [names.selector]: 'app=(x', [names.namespace]: 'payments' }),
    ).toBe(false);
  });
});
