import { Entity } from '@backstage/catalog-model';
import { isKryptonAvailable } from './isKryptonAvailable';

const entity = (annotations: Record<string, string>): Entity => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: { name: 'payments', annotations },
});

describe('isKryptonAvailable', () => {
  it('reads the default prefix, or the one the app passes', () => {
    expect(isKryptonAvailable(entity({ 'krypton.io/secrets': 'ns/db' }))).toBe(
      true,
    );
    expect(isKryptonAvailable(entity({ 'other.io/secrets': 'ns/db' }))).toBe(
      false,
    );
    expect(
      isKryptonAvailable(entity({ 'other.io/secrets': 'ns/db' }), 'other.io'),
    ).toBe(true);
  });

  it('shows the tab for a selector, even an unusable one, but not for junk entries', () => {
    expect(
      isKryptonAvailable(entity({ 'krypton.io/secrets-selector': 'app=x' })),
    ).toBe(true);
    expect(isKryptonAvailable(entity({ 'krypton.io/secrets': 'nope' }))).toBe(
      false,
    );
    expect(isKryptonAvailable(entity({}))).toBe(false);
  });
});
