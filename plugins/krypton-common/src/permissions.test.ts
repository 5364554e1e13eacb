import {
  newSecretResourceRef,
  parseSecretResourceRef,
  secretResourceRef,
} from './permissions';

describe('permission resource refs', () => {
  it('reads cluster, namespace and name from the right', () => {
    expect(parseSecretResourceRef(secretResourceRef('c', 'ns', 'db'))).toEqual({
      cluster: 'c',
      namespace: 'ns',
      name: 'db',
    });
    expect(parseSecretResourceRef('prod/eu/ns/db')).toEqual({
      cluster: 'prod/eu',
      namespace: 'ns',
      name: 'db',
    });
    expect(parseSecretResourceRef(newSecretResourceRef('c', 'ns'))).toEqual({
      cluster: 'c',
      namespace: 'ns',
      name: '*',
    });
  });
  it('refuses refs with too few parts', () => {
    for (const ref of ['', 'db', 'ns/db', '/ns/db', '/db']) {
      expect(parseSecretResourceRef(ref)).toBeUndefined();
    }
  });
});
