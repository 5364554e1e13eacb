// Types only: Headlamp passes its own section objects, whose ids are plain strings at run time.
import type { DetailsViewSection } from '@kinvolk/headlamp-plugin/lib/components/DetailsViewSection/detailsViewSectionSlice';
import { ReactNode } from 'react';
import { DEFAULT_HEADLAMP_SETTINGS } from './engines';
import { HeadlampResource, isManaged, shownSecret } from './shownSecret';
import { ValuesSection } from './values/ValuesSection';

/** Headlamp's id of the Data section of its Secret view (components/secret/Details). */
export const HEADLAMP_DATA_SECTION = 'headlamp.secrets-data';

/** The id of Krypton's Values section where it takes the Data section's place. */
export const KRYPTON_VALUES_SECTION = 'krypton.values';

type Section = DetailsViewSection | ReactNode;

function isDataSection(section: Section): boolean {
  return (
    typeof section === 'object' &&
    section !== null &&
    'id' in section &&
    section.id === HEADLAMP_DATA_SECTION
  );
}

/**
 * On a Krypton-managed Secret, Krypton's Values section takes the place of Headlamp's Data section.
 * There, the Data section's Save is an edit that bypasses Krypton (as its Edit action is, which
 * the plugin hides), and without it the Data section only reveals and copies text, which the
 * Values section does too, binary-safe and with previews: a strict superset. Every other view,
 * and an unmanaged Secret, keeps Headlamp's sections as they are.
 */
export function valuesInPlaceOfData(
  resource: HeadlampResource | null,
  sections: Section[],
): Section[] {
  const secret = shownSecret(resource);
  if (!secret || !isManaged(secret, DEFAULT_HEADLAMP_SETTINGS.annotationPrefix))
    return sections;
  return sections.map(section =>
    isDataSection(section)
      ? {
          id: KRYPTON_VALUES_SECTION,
          section: <ValuesSection secret={secret} />,
        }
      : section,
  );
}
