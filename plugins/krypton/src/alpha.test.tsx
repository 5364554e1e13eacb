import { Entity } from '@backstage/catalog-model';
import { coreExtensionData } from '@backstage/frontend-plugin-api';
import {
  createExtensionTester,
  mockApis,
} from '@backstage/frontend-test-utils';
import { EntityContentBlueprint } from '@backstage/plugin-catalog-react/alpha';
import kryptonPlugin from './alpha';

const entity = (annotations: Record<string, string>): Entity => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: { name: 'c', annotations },
});

/** The entity tab's filter, as built in an app with the given config. */
function tabFilter(config?: { krypton: { annotationPrefix: string } }) {
  const content = kryptonPlugin.getExtension('entity-content:krypton');
  const tester = createExtensionTester(
    content,
    config ? { apis: [mockApis.config({ data: config })] } : undefined,
  );
  return tester.get(EntityContentBlueprint.dataRefs.filterFunction);
}

describe('the entity tab', () => {
  it('shows for entities linked under the configured prefix only', () => {
    const filter = tabFilter({
      krypton: { annotationPrefix: 'secrets.example.com' },
    });
    expect(filter?.(entity({ 'secrets.example.com/secrets': 'demo/db' }))).toBe(
      true,
    );
    expect(filter?.(entity({ 'krypton.io/secrets': 'demo/db' }))).toBe(false);
  });

  it('uses the default prefix without a config API', () => {
    const filter = tabFilter();
    expect(filter?.(entity({ 'krypton.io/secrets': 'demo/db' }))).toBe(true);
    expect(filter?.(entity({ 'krypton.io/secrets': 'demo/a..b' }))).toBe(false);
  });

  it('shows for entities linked by a label selector only', () => {
    const filter = tabFilter();
    expect(
      filter?.(
        entity({
          'krypton.io/secrets-selector': 'app=payments',
          'backstage.io/kubernetes-namespace': 'payments',
        }),
      ),
    ).toBe(true);
  });
});

describe('the entity tab in the catalog', () => {
  it('sits in the deployment group with an icon, beside the Kubernetes plugin', () => {
    const tester = createExtensionTester(
      kryptonPlugin.getExtension('entity-content:krypton'),
    );
    expect(tester.get(EntityContentBlueprint.dataRefs.title)).toBe('Secrets');
    expect(tester.get(EntityContentBlueprint.dataRefs.group)).toBe(
      'deployment',
    );
    expect(tester.get(EntityContentBlueprint.dataRefs.icon)).toBeTruthy();
  });
});

describe('the page', () => {
  it('has a title and an icon, which give it its sidebar item', () => {
    const tester = createExtensionTester(
      kryptonPlugin.getExtension('page:krypton'),
    );
    expect(tester.get(coreExtensionData.routePath)).toBe('/krypton');
    expect(tester.get(coreExtensionData.title)).toBe('Krypton');
    expect(tester.get(coreExtensionData.icon)).toBeTruthy();
  });

  it('declares the detail view as a route of the plugin', () => {
    expect(Object.keys(kryptonPlugin.routes)).toEqual(['root', 'secret']);
  });
});
