import { isValidElement } from 'react';
import { describe, expect, it } from 'vitest';
import {
  HEADLAMP_DATA_SECTION,
  KRYPTON_VALUES_SECTION,
  valuesInPlaceOfData,
} from './dataSection';

const secret = (labels?: Record<string, string>, kind = 'Secret') => ({
  kind,
  cluster: 'test',
  jsonData: {
    kind,
    metadata: { name: 'db', namespace: 'team-a', labels },
    data: { password: 'cDE=' },
  },
});

// Headlamp's Secret view: its default sections, its Data section, and one element of a plugin.
const sections = () => [
  { id: 'MAIN_HEADER' },
  { id: 'METADATA' },
  { id: HEADLAMP_DATA_SECTION, section: () => null },
  { id: 'EVENTS' },
  <p key="other">another plugin's section</p>,
];

describe('valuesInPlaceOfData', () => {
  it("puts Krypton's Values where Headlamp's Data was, on a managed Secret only", () => {
    const before = sections();
    const after = valuesInPlaceOfData(
      secret({ 'krypton.io/managed-by': 'krypton' }),
      before,
    );
    expect(after).toHaveLength(before.length);
    expect(after.map(s => (isValidElement(s) ? 'element' : s))).toEqual([
      before[0],
      before[1],
      { id: KRYPTON_VALUES_SECTION, section: expect.anything() },
      before[3],
      'element',
    ]);
    const values = after[2] as { section: unknown };
    expect(isValidElement(values.section)).toBe(true);
  });

  it('keeps every section of an unmanaged Secret, of other objects and without an object', () => {
    const before = sections();
    expect(valuesInPlaceOfData(secret(), before)).toBe(before);
    expect(
      valuesInPlaceOfData(
        secret({ 'krypton.io/managed-by': 'someone-else' }),
        before,
      ),
    ).toBe(before);
    expect(
      valuesInPlaceOfData(
        secret({ 'krypton.io/managed-by': 'krypton' }, 'ConfigMap'),
        before,
      ),
    ).toBe(before);
    expect(valuesInPlaceOfData(null, before)).toBe(before);
  });
});
