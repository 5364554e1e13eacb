import { isValidElement } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';

// Headlamp's plugin registry, as the archive finds it at run time.
const registry = vi.hoisted(() => ({
  sections: [] as Array<(props: { resource: unknown }) => unknown>,
  processors: [] as Array<{ id: string; processor: unknown }>,
  sectionProcessors: [] as Array<{ id: string; processor: unknown }>,
}));
vi.mock('@kinvolk/headlamp-plugin/lib', () => ({
  registerDetailsViewSection: (section: (typeof registry.sections)[number]) =>
    registry.sections.push(section),
  registerDetailsViewSectionsProcessor: (
    processor: (typeof registry.sectionProcessors)[number],
  ) => registry.sectionProcessors.push(processor),
  registerDetailsViewHeaderActionsProcessor: (
    processor: (typeof registry.processors)[number],
  ) => registry.processors.push(processor),
}));
vi.mock('@kinvolk/headlamp-plugin/lib/ApiProxy', () => ({
  clusterRequest: () => Promise.reject(new Error('no cluster in this test')),
}));

describe('the plugin entry', () => {
  beforeAll(async () => {
    await import('./index');
  });

  it('registers one section, drawn on Secrets only, the Values processor and the Edit processor', async () => {
    const { editActionOnSecrets } = await import('./editAction');
    const { valuesInPlaceOfData } = await import('./dataSection');
    expect(registry.sections).toHaveLength(1);
    const [section] = registry.sections;
    const secret = { kind: 'Secret', cluster: 'c', jsonData: {} };
    expect(isValidElement(section({ resource: secret }))).toBe(true);
    expect(
      section({ resource: { kind: 'Pod', cluster: 'c', jsonData: {} } }),
    ).toBeNull();
    expect(registry.sectionProcessors).toEqual([
      {
        id: 'krypton.values-in-place-of-data',
        processor: valuesInPlaceOfData,
      },
    ]);
    expect(registry.processors).toEqual([
      { id: 'krypton.hide-edit-on-managed', processor: editActionOnSecrets },
    ]);
  });
});
