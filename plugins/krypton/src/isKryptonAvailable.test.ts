import { Entity } from '@backstage/catalog-model';
import { hasLinkedSecrets } from '@krypton/plugin-krypton-common';
import { isKryptonAvailable } from './isKryptonAvailable';

const entity = (annotations: Record<string, string>): Entity => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: { name: 'payments', annotations },
});

describe('isKryptonAvailable', () => {
  it('reads the default prefix; another prefix goes through hasLinkedSecrets', () => {
    expect(isKryptonAvailable(entity({ 'krypton.io/secrets': 'ns/db' }))).toBe(
      true,
    );
    expect(isKryptonAvailable(entity({ 'other.io/secrets': 'ns/db' }))).toBe(
      false,
    );
    expect(
      hasLinkedSecrets(entity({ 'other.io/secrets': 'ns/db' }), 'other.io'),
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

  it("takes one argument, so EntitySwitch.Case's context is never read as a prefix", () => {
    expect(isKryptonAvailable).toHaveLength(1);
    const withContext = isKryptonAvailable as (
      e: Entity,
      context: unknown,
    ) => boolean;
    expect(
      withContext(entity({ 'krypton.io/secrets': 'ns/db' }), { apis: {} }),
    ).toBe(true);
  });
});
